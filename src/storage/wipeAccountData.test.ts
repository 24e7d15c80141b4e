import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sample from '../../tests/fixtures/account-user.json';
import { AccountUser } from '../protocol/auth';
import { getAccount, saveAccount } from './accountStore';
import { CairnDb } from './db';
import * as localAccountStore from './localAccountStore';
import { draftDocName, registerDraft } from './noteDraftStore';
import { emptyVaultRecord } from './vaultProjection';
import { loadWallet, saveWallet } from './walletStore';
import { wipeAccountData } from './wipeAccountData';

const user = AccountUser.parse(sample);

let db: CairnDb;
beforeEach(() => {
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => db.close());

describe('wipeAccountData', () => {
  it("removes every row of that account and nobody else's", async () => {
    const key = await globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    for (const id of ['acc1', 'acc2']) {
      await saveAccount({ ...user, id }, db);
      await saveWallet(id, { deviceKey: key, sealed: id }, db);
    }
    await wipeAccountData('acc1', db);
    expect(await getAccount('acc1', db)).toBeUndefined();
    expect(await loadWallet('acc1', db)).toBeUndefined();
    expect(await getAccount('acc2', db)).toBeDefined();
    expect(await loadWallet('acc2', db)).toBeDefined();
    for (const table of db.tables) {
      const rows = (await table.toArray()) as Array<{ accountId?: string; id?: string }>;
      expect(rows.some((row) => row.accountId === 'acc1' || row.id === 'acc1'), table.name).toBe(false);
    }
  });

  it('removes the vault projections, outbox, uploads, operation cache, members and chat messages of that account only', async () => {
    for (const accountId of ['acc1', 'acc2']) {
      await db.vaults.put({ ...emptyVaultRecord(accountId, 'v1') });
      await db.nodes.put({ accountId, vaultId: 'v1', id: 'n1', parentKey: '' } as never);
      await db.versions.put({ accountId, vaultId: 'v1', versionId: 'x1', fileId: 'n1' } as never);
      await db.outbox.put({ accountId, vaultId: 'v1', opId: 'o1', queuedAt: 1 } as never);
      await db.uploads.put({ accountId, uploadId: 'u1' } as never);
      await db.opPages.put({ accountId, vaultId: 'v1', firstSeq: 1, ops: [] });
      await db.members.put({ accountId, vaultId: 'v1', membershipId: 'm1' } as never);
      await db.memos.put({ accountId, vaultId: 'v1', memoId: 'memo1', order: 1 } as never);
    }
    await wipeAccountData('acc1', db);
    for (const table of [db.vaults, db.nodes, db.versions, db.outbox, db.uploads, db.opPages, db.members, db.memos]) {
      const owners = (await table.toArray()).map((row) => (row as { accountId: string }).accountId);
      expect(owners, table.name).toEqual(['acc2']);
    }
  });

  it("deletes that account's note draft databases (y-indexeddb) and keeps the other account's", async () => {
    const idb = new IDBFactory();
    const open = (name: string) =>
      new Promise<void>((resolve, reject) => {
        const request = idb.open(name);
        request.onupgradeneeded = () => request.result.createObjectStore('updates', { autoIncrement: true });
        request.onsuccess = () => {
          request.result.close();
          resolve();
        };
        request.onerror = () => reject(request.error);
      });
    for (const accountId of ['acc1', 'acc2']) {
      const docName = draftDocName(accountId, 'v1', { noteId: 'n1', baseVersionId: 'x1' });
      await open(docName);
      await registerDraft(db, { accountId, docName, vaultId: 'v1', noteId: 'n1', baseVersionId: 'x1', updatedAt: 1 });
      await db.noteDraftUpdates.put({ accountId, opId: 'o1', vaultId: 'v1', noteId: 'n1', baseVersionId: 'x1', seq: 1, update: 'AA' });
    }
    await wipeAccountData('acc1', db, idb);
    const names = (await idb.databases()).map((d) => d.name);
    expect(names).toEqual([draftDocName('acc2', 'v1', { noteId: 'n1', baseVersionId: 'x1' })]);
    expect((await db.noteDrafts.toArray()).map((r) => r.accountId)).toEqual(['acc2']);
    expect((await db.noteDraftUpdates.toArray()).map((r) => r.accountId)).toEqual(['acc2']);
  });

  it('localAccountStore offers the whole port the account service needs', () => {
    expect(Object.keys(localAccountStore).sort()).toEqual(
      ['deleteWallet', 'getAccount', 'loadWallet', 'saveAccount', 'saveWallet', 'wipeAccountData'],
    );
  });
});
