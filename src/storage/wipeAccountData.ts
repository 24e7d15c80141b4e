/** Log out: removes everything this device holds for one account (DESIGN.md section 4). */
import type { Table } from 'dexie';
import { removeSpool } from '../../workers/transfer/chunkSpool';
import { chunkCacheName } from './chunkCache';
import { getDb, type CairnDb } from './db';
import { listDraftNames } from './noteDraftStore';

/** Deletes one IndexedDB database; a blocked or failed delete is not worth failing log out for. */
function deleteDatabase(idb: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = idb.deleteDatabase(name);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}
import { announceAccountWipe, clearRecentTerms } from '../search/searchStore';

/** How a table's rows belong to an account, or null when they do not (db.test.ts forbids that). */
export function accountScopeOf(table: Table): 'primaryKey' | 'index' | 'accountsTable' | null {
  if (table.schema.primKey.name === 'accountId') return 'primaryKey';
  if (table.schema.indexes.some((index) => index.name === 'accountId')) return 'index';
  if (table.name === 'accounts') return 'accountsTable';
  return null;
}

/**
 * Deletes every row of `accountId` in every table, in one transaction so a crash cannot leave half
 * an account behind. Tables are found from the schema, so tables added later are wiped too as long
 * as they carry `accountId` (the rule in db.ts).
 */
export async function wipeAccountData(
  accountId: string,
  db: CairnDb = getDb(),
  idb: IDBFactory | undefined = typeof indexedDB === 'undefined' ? undefined : indexedDB,
): Promise<void> {
  // Offline copies of files (still encrypted) go too.
  if (typeof caches !== 'undefined') await caches.delete(chunkCacheName(accountId)).catch(() => undefined);
  // So do sealed chunks an interrupted upload left waiting on disk.
  await removeSpool(accountId);
  // Note drafts live in their own y-indexeddb databases (in clear: they are this device's text).
  if (idb) for (const name of await listDraftNames(db, accountId)) await deleteDatabase(idb, name);
  // Search stops writing first; recent terms live in localStorage, the index in a table like the others.
  announceAccountWipe(accountId);
  clearRecentTerms(accountId);
  await db.transaction('rw', db.tables, async () => {
    for (const table of db.tables) {
      switch (accountScopeOf(table)) {
        case 'primaryKey':
        case 'accountsTable':
          await table.delete(accountId);
          break;
        case 'index':
          await table.where('accountId').equals(accountId).delete();
          break;
        case null:
          break;
      }
    }
  });
}
