import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnDb } from './db';
import { draftDocName } from './noteDraftStore';
import { emptyVaultRecord } from './vaultProjection';
import { wipeVaultData } from './wipeVaultData';

/**
 * Tables whose rows of a dropped vault stay (docs/SYNC_SPEC.md R56): the tombstone, notifications
 * (ids, no names: they tell the user what happened), storage transactions (ids and sizes of the
 * user's own uploads). Every other table holding a `vaultId` must be emptied of the vault; a new
 * table makes the first test fail until it is wiped or listed here.
 */
const KEPT_TABLES = ['vaults', 'notifications', 'storageTxs'];

let db: CairnDb;
let idb: IDBFactory;
beforeEach(() => {
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  idb = new IDBFactory();
});
afterEach(() => db.close());

function openDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = idb.open(name);
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
}

/** One row of every table that carries a vault, for `accountId`'s `vaultId`. */
async function fill(accountId: string, vaultId: string): Promise<void> {
  const id = `${accountId}-${vaultId}`;
  await db.vaults.put({ ...emptyVaultRecord(accountId, vaultId), name: `Name of ${id}`, keepOffline: true, sealedKeys: 'ring', cursor: 7, headSeq: 7, membershipStatus: 'REVOKED', role: 'REVOKED' });
  await db.nodes.put({ accountId, vaultId, id: `n-${id}`, parentKey: '', name: `File of ${id}` } as never);
  await db.versions.put({ accountId, vaultId, versionId: `x-${id}`, fileId: `n-${id}` } as never);
  await db.memos.put({ accountId, vaultId, memoId: `m-${id}`, order: 1, text: `Hello ${id}` } as never);
  await db.opPages.put({ accountId, vaultId, firstSeq: 1, ops: [] });
  await db.opPages.put({ accountId, vaultId, firstSeq: 5, ops: [] });
  await db.outbox.put({ accountId, vaultId, opId: `o-${id}`, queuedAt: 1 } as never);
  await db.acceptedOps.put({ accountId, vaultId, opId: `a-${id}`, seq: 8 } as never);
  await db.uploads.put({ accountId, vaultId, uploadId: `u-${id}`, name: `Upload of ${id}` } as never);
  await db.uploadFiles.put({ accountId, uploadId: `u-${id}`, file: new Blob(['x']) });
  await db.members.put({ accountId, vaultId, membershipId: `mm-${id}`, email: 'a@example.com' } as never);
  const docName = draftDocName(accountId, vaultId, { noteId: `n-${id}`, baseVersionId: `x-${id}` });
  await db.noteDrafts.put({ accountId, docName, vaultId, noteId: `n-${id}`, baseVersionId: `x-${id}`, updatedAt: 1 });
  await openDatabase(docName);
  await db.noteDraftUpdates.put({ accountId, opId: `d-${id}`, vaultId, noteId: `n-${id}`, baseVersionId: `x-${id}`, seq: 1, update: 'AA' });
  await db.notifications.put({ accountId, vaultId, id: `nt-${id}`, createdAt: 1 } as never);
  await db.storageTxs.put({ accountId, vaultId, id: `tx-${id}`, createdAt: 1, versionId: `x-${id}` } as never);
  // R79: an opened thumbnail is the vault's content too.
  await db.thumbnails.put({ accountId, vaultId, versionId: `x-${id}`, image: new Blob(['thumb']), cachedAt: 1 });
}

async function rowsOf(accountId: string, vaultId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of db.tables) {
    const rows = (await table.toArray()) as Array<{ accountId?: string; vaultId?: string; uploadId?: string }>;
    const n = rows.filter((r) => r.accountId === accountId && (r.vaultId === vaultId || r.uploadId === `u-${accountId}-${vaultId}`)).length;
    if (n) counts[table.name] = n;
  }
  return counts;
}

describe('wipeVaultData', () => {
  it("R56: removes one vault's rows from every table but the kept ones, and nobody else's", async () => {
    for (const [accountId, vaultId] of [['acc1', 'v1'], ['acc1', 'v2'], ['acc2', 'v1']] as const) await fill(accountId, vaultId);
    const full = await rowsOf('acc1', 'v1');
    // Every table that can hold a vault's rows was filled, so a new one shows up here.
    expect(Object.keys(full).sort()).toEqual(db.tables.map((t) => t.name).filter((name) => !['wallets', 'accounts', 'searchIndex', 'storageUsage', 'notificationActions'].includes(name)).sort());

    const { uploadIds } = await wipeVaultData(db, 'acc1', 'v1', { now: 42, idb });

    expect(uploadIds).toEqual(['u-acc1-v1']);
    expect(Object.keys(await rowsOf('acc1', 'v1')).sort()).toEqual([...KEPT_TABLES].sort());
    expect(await rowsOf('acc1', 'v2')).toEqual(full);
    expect(await rowsOf('acc2', 'v1')).toEqual(full);
    const names = (await idb.databases()).map((d) => d.name).sort();
    expect(names).toEqual([
      draftDocName('acc1', 'v2', { noteId: 'n-acc1-v2', baseVersionId: 'x-acc1-v2' }),
      draftDocName('acc2', 'v1', { noteId: 'n-acc2-v1', baseVersionId: 'x-acc2-v1' }),
    ].sort());
  });

  it('R56: leaves a tombstone with the membership and nothing to show or open', async () => {
    await fill('acc1', 'v1');
    await wipeVaultData(db, 'acc1', 'v1', { now: 42, idb });
    const tombstone = await db.vaults.get(['acc1', 'v1']);
    expect(tombstone).toMatchObject({ vaultId: 'v1', name: '', description: '', tags: [], terms: '', membershipStatus: 'REVOKED', role: 'REVOKED', sealedKeys: null, cursor: 0, headSeq: 7, droppedAt: 42 });
    expect(tombstone?.keepOffline).toBeUndefined();
  });

  it('does nothing for a vault it does not hold', async () => {
    await fill('acc1', 'v2');
    await expect(wipeVaultData(db, 'acc1', 'v1', { idb })).resolves.toEqual({ uploadIds: [] });
    expect(await db.vaults.get(['acc1', 'v1'])).toBeUndefined();
    expect(Object.keys(await rowsOf('acc1', 'v2'))).toContain('nodes');
  });
});
