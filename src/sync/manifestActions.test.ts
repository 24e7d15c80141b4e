/**
 * Generate JSON metadata reads the device's tables only (docs/SYNC_SPEC.md R45-R46): the projected
 * nodes and the storage transactions cache, on a fresh fake-indexeddb.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StorageTransaction } from '../protocol/arweave';
import { CairnDb } from '../storage/db';
import { mergeStorageTransactions } from '../storage/storageTxStore';
import type { NodeRecord } from '../storage/vaultRecords';
import { readManifestPlan } from './manifestActions';

const ACCOUNT = 'acc1';
const VAULT = 'vault1';
const item = (c: string) => c.repeat(43);
let db: CairnDb;

function node(id: string, name: string, options: Partial<NodeRecord> = {}): NodeRecord {
  const parentId = options.parentId ?? null;
  return {
    accountId: ACCOUNT,
    vaultId: VAULT,
    id,
    kind: 'file',
    parentId,
    parentKey: parentId ?? '',
    name,
    status: 'ACTIVE',
    size: 10,
    mimeType: 'text/plain',
    versionCount: 1,
    latestVersionId: `v-${id}`,
    createdAt: 1,
    updatedAt: 1,
    pendingOpIds: [],
    rejection: null,
    ...options,
  };
}

function tx(fileId: string, dataItemId: string | null, status: StorageTransaction['status'] = 'COMMITTED'): StorageTransaction {
  return {
    id: `tx-${fileId}`,
    vaultId: VAULT,
    fileId,
    versionId: `v-${fileId}`,
    dataItemId,
    txId: dataItemId ? item('T') : null,
    size: 10,
    reward: dataItemId ? '1' : null,
    status,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

beforeEach(() => {
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
});

describe('readManifestPlan (SYNC_SPEC R45-R46)', () => {
  it('maps the live files whose versions have data item ids, counts the rest, and knows whether the cache covers them', async () => {
    await db.nodes.bulkPut([
      node('folder', 'Survey', { kind: 'folder', latestVersionId: null, versionCount: 0 }),
      node('a', 'ridge.txt', { parentId: 'folder' }),
      node('b', 'scheduled.txt'),
      node('c', 'by-someone-else.txt'),
      node('d', 'hidden.txt', { status: 'REVOKED' }),
      { ...node('e', 'other vault.txt'), vaultId: 'vault2' },
    ]);
    await mergeStorageTransactions(db, ACCOUNT, [tx('a', item('A')), tx('b', null, 'SCHEDULED'), tx('d', item('D')), tx('e', item('E'))]);

    const plan = await readManifestPlan(db, ACCOUNT, VAULT);
    expect(plan.manifest.paths).toEqual({ 'Survey/ridge.txt': { id: item('A') } });
    expect(plan).toMatchObject({ vaultId: VAULT, replaceFileId: null, includedCount: 1, missingIdCount: 2, isCached: false });
  });

  it('gives the root manifest.json a new version and never lists it', async () => {
    await db.nodes.bulkPut([node('a', 'ridge.txt'), node('m', 'manifest.json', { mimeType: 'application/x.arweave-manifest+json' }), node('n', 'manifest.json', { parentId: 'f' }), node('f', 'Old', { kind: 'folder', latestVersionId: null })]);
    await mergeStorageTransactions(db, ACCOUNT, [tx('a', item('A')), tx('m', item('M')), tx('n', item('N'))]);

    const plan = await readManifestPlan(db, ACCOUNT, VAULT);
    expect(plan.replaceFileId).toBe('m');
    // A manifest.json inside a folder is an ordinary file.
    expect(plan.manifest.paths).toEqual({ 'Old/manifest.json': { id: item('N') }, 'ridge.txt': { id: item('A') } });
    expect(plan.isCached).toBe(true);
  });
});
