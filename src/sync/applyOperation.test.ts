import { describe, expect, it } from 'vitest';
import { CHUNK_SIZE, type OperationBody, type UnsignedOperation } from '../protocol/vaults';
import { emptyVaultRecord, newVaultState, type VaultState, versionsOfFile } from '../storage/vaultProjection';
import { applyOperation, clearPending, computeFolderSizes } from './applyOperation';

const AUTHOR = 'a'.repeat(64);
const HASH = 'b'.repeat(64);
let n = 0;

function op(objectId: string, body: OperationBody): UnsignedOperation {
  return { id: `op${++n}`, vaultId: 'v1', objectId, author: AUTHOR, createdAt: 1, body };
}

function version(versionId: string, size: number) {
  return {
    versionId,
    blobId: `blob-${versionId}`,
    size,
    storedSize: size,
    chunkSize: CHUNK_SIZE,
    chunkCount: 1,
    chunkHashes: [HASH],
    mimeType: { clear: 'text/plain' },
    lastModified: 0,
  };
}

function apply(state: VaultState, objectId: string, body: OperationBody, fields: Record<string, string> = {}, time = 10, isPending = false) {
  const operation = op(objectId, body);
  applyOperation(state, { op: operation, fields, time, isPending });
  return operation;
}

function fresh(): VaultState {
  return newVaultState(emptyVaultRecord('acc', 'v1'));
}

describe('applyOperation', () => {
  it('vault.create, rename, metadata, archive, restore, delete set the vault record', () => {
    const s = fresh();
    apply(s, 'v1', { type: 'vault.create', isPublic: false, isCloud: true, name: { clear: 'x' } }, { name: 'Vault', description: 'd', tags: '["a","b"]', terms: '' }, 5);
    expect(s.vault).toMatchObject({ name: 'Vault', description: 'd', tags: ['a', 'b'], createdAt: 5, isPending: false });
    apply(s, 'v1', { type: 'vault.rename', name: { clear: 'x' } }, { name: 'Renamed' });
    apply(s, 'v1', { type: 'vault.updateMetadata', description: { clear: 'x' }, tags: { clear: 'x' } }, { description: 'new', tags: '["c"]' });
    expect(s.vault).toMatchObject({ name: 'Renamed', description: 'new', tags: ['c'] });
    apply(s, 'v1', { type: 'vault.archive' });
    expect(s.vault.status).toBe('ARCHIVED');
    apply(s, 'v1', { type: 'vault.restore' });
    expect(s.vault.status).toBe('ACTIVE');
    apply(s, 'v1', { type: 'vault.delete' });
    expect(s.vault.status).toBe('DELETED');
    expect(s.isVaultDirty).toBe(true);
  });

  it('member operations and key rotations leave the vault and its nodes as they were', () => {
    const s = fresh();
    apply(s, 'v1', { type: 'vault.create', isPublic: false, isCloud: true, name: { clear: 'x' } }, { name: 'Vault' }, 5);
    apply(s, 'f1', { type: 'folder.create', parentId: null, name: { clear: 'x' } }, { name: 'Docs' });
    const before = structuredClone({ vault: s.vault, nodes: [...s.nodes.values()] });
    const rotation = { keyCount: 2, sealedKeys: { m2: 'AAAA' } };
    const bodies: OperationBody[] = [
      { type: 'member.invite', email: 'b@example.com', role: 'VIEWER', memberKey: HASH },
      { type: 'member.confirm' },
      { type: 'member.accept' },
      { type: 'member.changeRole', role: 'CONTRIBUTOR' },
      { type: 'member.reject' },
      { type: 'member.revoke', rotation },
      { type: 'member.leave' },
    ];
    // The membership id is the object: a node with that id would be a bug, so use the folder's to prove nothing is touched.
    for (const body of bodies) apply(s, 'f1', body, {}, 99);
    apply(s, 'v1', { type: 'vault.rotateKeys', rotation }, {}, 99);
    expect({ vault: s.vault, nodes: [...s.nodes.values()] }).toEqual(before);
  });

  it('a pending vault.create marks the vault pending; clearPending unmarks it', () => {
    const s = fresh();
    const created = apply(s, 'v1', { type: 'vault.create', isPublic: true, isCloud: true, name: { clear: 'P' } }, { name: 'P' }, 5, true);
    expect(s.vault.isPending).toBe(true);
    clearPending(s, created.id, true);
    expect(s.vault.isPending).toBe(false);
  });

  it('creates folders and files with versions, names and parent keys', () => {
    const s = fresh();
    apply(s, 'f1', { type: 'folder.create', parentId: null, name: { clear: 'x' } }, { name: 'Docs' });
    apply(s, 'file1', { type: 'file.create', parentId: 'f1', name: { clear: 'x' }, version: version('ver1', 100) }, { name: 'a.txt', mimeType: 'text/plain' });
    expect(s.nodes.get('f1')).toMatchObject({ kind: 'folder', name: 'Docs', parentId: null, parentKey: '', status: 'ACTIVE' });
    expect(s.nodes.get('file1')).toMatchObject({ kind: 'file', name: 'a.txt', parentId: 'f1', parentKey: 'f1', size: 100, versionCount: 1, latestVersionId: 'ver1', mimeType: 'text/plain' });
    expect(s.versions.get('ver1')).toMatchObject({ fileId: 'file1', number: 1, mimeTypeText: 'text/plain', authorKey: AUTHOR });
  });

  it('addVersion numbers versions and makes the newest the file size; repeating it changes nothing', () => {
    const s = fresh();
    apply(s, 'file1', { type: 'file.create', parentId: null, name: { clear: 'x' }, version: version('ver1', 100) }, { name: 'a', mimeType: 'text/plain' });
    const added = op('file1', { type: 'file.addVersion', version: version('ver2', 250) });
    applyOperation(s, { op: added, fields: { mimeType: 'application/pdf' }, time: 20, isPending: false });
    applyOperation(s, { op: added, fields: { mimeType: 'application/pdf' }, time: 20, isPending: false });
    expect(s.nodes.get('file1')).toMatchObject({ size: 250, versionCount: 2, latestVersionId: 'ver2', mimeType: 'application/pdf' });
    expect(s.versions.get('ver2')!.number).toBe(2);
  });

  it('numbers each file’s versions on its own, and its version index always matches a scan of every version', () => {
    const s = fresh();
    for (const id of ['a', 'b', 'c']) apply(s, id, { type: 'file.create', parentId: null, name: { clear: 'x' }, version: version(`${id}1`, 1) }, { name: id });
    for (let i = 2; i <= 5; i++) {
      for (const id of ['a', 'b', 'c']) if (i <= { a: 5, b: 3, c: 4 }[id]!) apply(s, id, { type: 'file.addVersion', version: version(`${id}${i}`, i * 10) });
    }
    // A version id already used by file a, sent again as b's (no server accepts it; a forged log could hold it).
    apply(s, 'b', { type: 'file.addVersion', version: version('a2', 99) });
    for (const id of ['a', 'b', 'c']) {
      const scanned = [...s.versions.values()].filter((v) => v.fileId === id).map((v) => v.versionId).sort();
      expect(versionsOfFile(s, id).map((v) => v.versionId).sort()).toEqual(scanned);
    }
    expect(['b', 'c'].map((id) => s.nodes.get(id)!.versionCount)).toEqual([4, 4]);
    expect(s.versions.get('c4')).toMatchObject({ number: 4, fileId: 'c' });
    expect(s.nodes.get('c')).toMatchObject({ latestVersionId: 'c4', size: 40 });
    expect(s.versions.get('a2')).toMatchObject({ fileId: 'b', number: 2 });
  });

  it('rename, move, hide, restore (with a move) and delete', () => {
    const s = fresh();
    apply(s, 'f1', { type: 'folder.create', parentId: null, name: { clear: 'x' } }, { name: 'A' });
    apply(s, 'f2', { type: 'folder.create', parentId: null, name: { clear: 'x' } }, { name: 'B' });
    apply(s, 'n', { type: 'file.create', parentId: 'f1', name: { clear: 'x' }, version: version('v', 1) }, { name: 'n.txt' });
    apply(s, 'n', { type: 'node.rename', name: { clear: 'x' } }, { name: 'm.txt' });
    apply(s, 'n', { type: 'node.move', parentId: 'f2' });
    expect(s.nodes.get('n')).toMatchObject({ name: 'm.txt', parentId: 'f2', parentKey: 'f2' });
    apply(s, 'n', { type: 'node.hide' });
    expect(s.nodes.get('n')!.status).toBe('REVOKED');
    apply(s, 'n', { type: 'node.restore', parentId: null });
    expect(s.nodes.get('n')).toMatchObject({ status: 'ACTIVE', parentId: null, parentKey: '' });
    apply(s, 'n', { type: 'node.hide' });
    apply(s, 'n', { type: 'node.restore' });
    expect(s.nodes.get('n')).toMatchObject({ status: 'ACTIVE', parentId: null });
    apply(s, 'n', { type: 'node.delete' });
    expect(s.nodes.get('n')!.status).toBe('DELETED');
  });

  it('ignores operations on unknown nodes', () => {
    const s = fresh();
    apply(s, 'ghost', { type: 'node.rename', name: { clear: 'x' } }, { name: 'boo' });
    expect(s.nodes.size).toBe(0);
  });

  it('pending operations mark their node until cleared', () => {
    const s = fresh();
    const created = apply(s, 'f1', { type: 'folder.create', parentId: null, name: { clear: 'x' } }, { name: 'A' }, 1, true);
    expect(s.nodes.get('f1')!.pendingOpIds).toEqual([created.id]);
    clearPending(s, created.id, false);
    expect(s.nodes.get('f1')!.pendingOpIds).toEqual([]);
  });

  it('an unreadable name keeps the previous one', () => {
    const s = fresh();
    apply(s, 'f1', { type: 'folder.create', parentId: null, name: { clear: 'x' } }, { name: 'A' });
    applyOperation(s, { op: op('f1', { type: 'node.rename', name: { clear: 'x' } }), fields: { name: null }, time: 1, isPending: false });
    expect(s.nodes.get('f1')!.name).toBe('A');
  });

  it('folder sizes total the active files below them, through active folders only', () => {
    const s = fresh();
    apply(s, 'top', { type: 'folder.create', parentId: null, name: { clear: 'x' } }, { name: 'top' });
    apply(s, 'sub', { type: 'folder.create', parentId: 'top', name: { clear: 'x' } }, { name: 'sub' });
    apply(s, 'a', { type: 'file.create', parentId: 'top', name: { clear: 'x' }, version: version('va', 10) }, { name: 'a' });
    apply(s, 'b', { type: 'file.create', parentId: 'sub', name: { clear: 'x' }, version: version('vb', 5) }, { name: 'b' });
    apply(s, 'c', { type: 'file.create', parentId: 'sub', name: { clear: 'x' }, version: version('vc', 7) }, { name: 'c' });
    apply(s, 'c', { type: 'node.hide' });
    computeFolderSizes(s);
    expect(s.nodes.get('top')!.size).toBe(15);
    expect(s.nodes.get('sub')!.size).toBe(5);
    apply(s, 'sub', { type: 'node.hide' });
    computeFolderSizes(s);
    expect(s.nodes.get('top')!.size).toBe(10);
  });
});
