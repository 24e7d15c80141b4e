import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnDb } from './db';
import { uploadRecordOf } from './testing/uploadRecords';
import { emptyVaultRecord } from './vaultProjection';
import type { NodeRecord, OutboxRecord, UploadRecord } from './vaultRecords';
import { countChangesWaiting, getChildren, getFirstChildren, getFolderPath, getPendingOutbox, getUploads, getVaults } from './vaultStore';

let db: CairnDb;
beforeEach(() => {
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => db.close());

function node(id: string, kind: NodeRecord['kind'], name: string, parentId: string | null, status: NodeRecord['status'] = 'ACTIVE'): NodeRecord {
  return {
    accountId: 'acc',
    vaultId: 'v',
    id,
    kind,
    parentId,
    parentKey: parentId ?? '',
    name,
    status,
    size: 0,
    mimeType: '',
    versionCount: 0,
    latestVersionId: null,
    createdAt: 0,
    updatedAt: 0,
    pendingOpIds: [],
    rejection: null,
  };
}

const upload = (uploadId: string, state: UploadRecord['state']) => uploadRecordOf('acc', uploadId, { state });

function queued(opId: string, status: OutboxRecord['status'], waitsForUploadId: string | null = null): OutboxRecord {
  const op = { id: opId, vaultId: 'v' } as unknown as OutboxRecord['op'];
  return { accountId: 'acc', opId, vaultId: 'v', op, queuedAt: Number(opId.slice(1)), status, error: null, waitsForUploadId, fields: {} };
}

describe('vaultStore', () => {
  it('lists active vaults (pending first, then numeric-aware names) apart from archived ones', async () => {
    await db.vaults.bulkPut([
      { ...emptyVaultRecord('acc', 'a'), name: 'Vault 10' },
      { ...emptyVaultRecord('acc', 'b'), name: 'Vault 9' },
      { ...emptyVaultRecord('acc', 'c'), name: 'Zeta', isPending: true },
      { ...emptyVaultRecord('acc', 'd'), name: 'Old', status: 'ARCHIVED' },
      { ...emptyVaultRecord('acc', 'e'), name: 'Gone', status: 'DELETED' },
      { ...emptyVaultRecord('other', 'f'), name: 'Not mine' },
    ]);
    expect((await getVaults(db, 'acc', 'active')).map((v) => v.name)).toEqual(['Zeta', 'Vault 9', 'Vault 10']);
    expect((await getVaults(db, 'acc', 'inactive')).map((v) => v.name)).toEqual(['Old']);
  });

  it('lists children folders first, each by numeric-aware name; revoked-files lists every hidden node', async () => {
    await db.nodes.bulkPut([
      node('f10', 'file', 'file 10', null),
      node('f2', 'file', 'file 2', null),
      node('d', 'folder', 'z folder', null),
      node('h1', 'file', 'hidden', null, 'REVOKED'),
      node('h2', 'folder', 'deep hidden', 'd', 'REVOKED'),
      node('x', 'file', 'deleted', null, 'DELETED'),
    ]);
    expect((await getChildren(db, 'acc', 'v', null)).map((n) => n.name)).toEqual(['z folder', 'file 2', 'file 10']);
    expect((await getChildren(db, 'acc', 'v', null, 'REVOKED')).map((n) => n.name)).toEqual(['deep hidden', 'hidden']);
    expect((await getFolderPath(db, 'acc', 'h2')).map((n) => n.id)).toEqual(['d', 'h2']);
    expect((await getPendingOutbox(db, 'acc')).count).toBe(0);
  });

  it('counts the changes waiting: pending operations and the uploads still on their way, each upload once', async () => {
    await db.uploads.bulkPut([
      upload('u1', 'uploading'),
      upload('u2', 'paused'),
      upload('u3', 'finalising'),
      upload('u4', 'done'),
      upload('u5', 'failed'),
      upload('u6', 'cancelled'),
      { ...upload('u7', 'uploading'), accountId: 'other' },
    ]);
    await db.outbox.bulkPut([queued('o1', 'pending'), queued('o2', 'rejected'), queued('o3', 'pending', 'u3')]);
    // o1, o3 (u3's file operation: u3 is not counted again), u1 and u2.
    const changesWaiting = async () => countChangesWaiting(await getPendingOutbox(db, 'acc'), await getUploads(db, 'acc'));
    expect(await changesWaiting()).toBe(4);
    expect((await getPendingOutbox(db, 'acc')).count).toBe(2);
    await db.uploads.update(['acc', 'u1'], { state: 'done' });
    await db.outbox.delete(['acc', 'o1']);
    expect(await changesWaiting()).toBe(2);
  });

  it('keeps every node\'s list key in step with its name and kind, however it is written', async () => {
    await db.nodes.put(node('a', 'file', 'Report 10.PDF', null));
    expect((await db.nodes.get(['acc', 'a']))?.listKey).toBe('1report 0000000000000010.pdf');
    await db.nodes.update(['acc', 'a'], { name: 'Résumé' });
    expect((await db.nodes.get(['acc', 'a']))?.listKey).toBe('1resume');
    await db.nodes.where('[accountId+vaultId]').equals(['acc', 'v']).modify((n) => {
      n.kind = 'folder';
    });
    expect((await db.nodes.get(['acc', 'a']))?.listKey).toBe('0resume');
  });

  it('reads a large folder\'s first rows from the list index, in the full listing\'s order', async () => {
    const files = Array.from({ length: 250 }, (_, i) => node(`f${i}`, 'file', `scan ${250 - i}.jpg`, 'big'));
    await db.nodes.bulkPut([
      ...files,
      node('sub', 'folder', 'Zeta folder', 'big'),
      node('gone', 'file', 'scan 0.jpg', 'big', 'REVOKED'),
      node('other', 'file', 'scan 1.jpg', null),
    ]);
    const all = await getChildren(db, 'acc', 'v', 'big');
    expect(all).toHaveLength(251);
    expect(all.slice(0, 4).map((n) => n.name)).toEqual(['Zeta folder', 'scan 1.jpg', 'scan 2.jpg', 'scan 3.jpg']);
    expect(all.at(-1)?.name).toBe('scan 250.jpg');
    const first = await getFirstChildren(db, 'acc', 'v', 'big', 40);
    expect(first.map((n) => n.id)).toEqual(all.slice(0, 40).map((n) => n.id));
  });
});
