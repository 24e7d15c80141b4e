import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { StorageTransaction } from '../protocol/arweave';
import { CairnDb } from './db';
import { listStorageTransactions, mergeStorageTransactions, resolveTransactionNames, statusesByVersion, vaultStatusesByVersion } from './storageTxStore';
import type { NodeRecord, VersionRecord } from './vaultRecords';
import { wipeAccountData } from './wipeAccountData';

const dbs: CairnDb[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function freshDb(): CairnDb {
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  dbs.push(db);
  return db;
}

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

function tx(id: string, patch: Partial<StorageTransaction> = {}): StorageTransaction {
  return { id, vaultId: 'v1', fileId: `f-${id}`, versionId: `ver-${id}`, dataItemId: null, txId: null, size: 100, reward: null, status: 'SCHEDULED', createdAt: at(1), updatedAt: at(1), ...patch };
}

describe('storage transaction cache (SYNC_SPEC R38)', () => {
  it('merges pages and socket upserts by id; an older copy never takes a status back', async () => {
    const db = freshDb();
    await mergeStorageTransactions(db, 'acc', [tx('a', { createdAt: at(1) }), tx('b', { createdAt: at(2) })]);
    // The socket says b is committed.
    const changes = await mergeStorageTransactions(db, 'acc', [tx('b', { createdAt: at(2), status: 'COMMITTED', updatedAt: at(9), txId: 'x'.repeat(43) })]);
    expect(changes).toEqual([expect.objectContaining({ previousStatus: 'SCHEDULED', transaction: expect.objectContaining({ status: 'COMMITTED' }) })]);
    // A page fetched before the commit arrives late.
    const late = await mergeStorageTransactions(db, 'acc', [tx('b', { createdAt: at(2), status: 'BUNDLED', updatedAt: at(5) }), tx('c', { createdAt: at(3) })]);
    expect(late.map((change) => change.transaction.id)).toEqual(['c']);
    const listed = await listStorageTransactions(db, 'acc');
    expect(listed.map((row) => [row.id, row.status])).toEqual([
      ['c', 'SCHEDULED'],
      ['b', 'COMMITTED'],
      ['a', 'SCHEDULED'],
    ]);
    // The same copy again changes nothing.
    expect(await mergeStorageTransactions(db, 'acc', [tx('c', { createdAt: at(3) })])).toEqual([]);
    expect(await listStorageTransactions(db, 'acc', 2)).toHaveLength(2);
  });

  it('keeps accounts apart, and log out wipes the account', async () => {
    const db = freshDb();
    await mergeStorageTransactions(db, 'acc', [tx('a')]);
    await mergeStorageTransactions(db, 'other', [tx('z')]);
    expect((await listStorageTransactions(db, 'acc')).map((row) => row.id)).toEqual(['a']);
    await wipeAccountData('acc', db, undefined);
    expect(await listStorageTransactions(db, 'acc')).toEqual([]);
    expect(await listStorageTransactions(db, 'other')).toHaveLength(1);
  });

  it('gives each version its newest transaction', async () => {
    const db = freshDb();
    await mergeStorageTransactions(db, 'acc', [
      tx('old', { versionId: 'ver1', status: 'REJECTED', createdAt: at(1) }),
      tx('new', { versionId: 'ver1', status: 'PENDING', createdAt: at(4) }),
      tx('x', { versionId: 'ver2', status: 'COMMITTED' }),
    ]);
    const byVersion = await statusesByVersion(db, 'acc', ['ver1', 'ver2', 'ver3']);
    expect(byVersion.get('ver1')?.id).toBe('new');
    expect(byVersion.get('ver2')?.status).toBe('COMMITTED');
    expect(byVersion.has('ver3')).toBe(false);
  });

  it("reads a whole vault's versions at once (the timeline's dots): newest per version, that vault and account only", async () => {
    const db = freshDb();
    await mergeStorageTransactions(db, 'acc', [
      tx('old', { versionId: 'ver1', status: 'SCHEDULED', createdAt: at(1) }),
      tx('new', { versionId: 'ver1', status: 'BUNDLED', createdAt: at(4) }),
      tx('x', { versionId: 'ver2', status: 'REJECTED' }),
      tx('elsewhere', { vaultId: 'v2', versionId: 'ver3' }),
    ]);
    await mergeStorageTransactions(db, 'other', [tx('theirs', { versionId: 'ver4' })]);
    const byVersion = await vaultStatusesByVersion(db, 'acc', 'v1');
    expect([...byVersion].map(([versionId, row]) => [versionId, row.id, row.status]).sort()).toEqual([
      ['ver1', 'new', 'BUNDLED'],
      ['ver2', 'x', 'REJECTED'],
    ]);
    expect((await vaultStatusesByVersion(db, 'acc', 'v3')).size).toBe(0);
  });

  it('resolves names on the device from the projected file nodes; unknown files stay unnamed', async () => {
    const db = freshDb();
    await db.nodes.put({ accountId: 'acc', vaultId: 'v1', id: 'f1', kind: 'file', parentId: null, parentKey: '', name: 'Secret plan.pdf', status: 'ACTIVE', size: 1, mimeType: 'application/pdf', versionCount: 1, latestVersionId: 'ver1', createdAt: 1, updatedAt: 1, pendingOpIds: [], rejection: null } as NodeRecord);
    await db.versions.put({ accountId: 'acc', vaultId: 'v1', fileId: 'f1', versionId: 'ver9' } as VersionRecord);
    const names = await resolveTransactionNames(db, 'acc', [
      { fileId: 'f1', versionId: 'ver1' },
      { fileId: 'gone', versionId: 'ver2' },
      // A row whose file id the device does not know, but whose version it does.
      { fileId: 'mismatch', versionId: 'ver9' },
    ]);
    expect(names.get('f1')).toBe('Secret plan.pdf');
    expect(names.has('gone')).toBe(false);
    expect(names.get('mismatch')).toBe('Secret plan.pdf');
    // Another account's projection is not used.
    expect((await resolveTransactionNames(db, 'other', [{ fileId: 'f1', versionId: 'ver1' }])).size).toBe(0);
  });
});
