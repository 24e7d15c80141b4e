/**
 * Sync end to end against fakes at the ports: an in-memory vault server (the ApiClient port and
 * the chunk store), a fake crypto worker and a fake transfer pool; real Dexie on a fresh
 * fake-indexeddb per test.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_SIZE } from '../protocol/vaults';
import { CairnDb } from '../storage/db';
import { getChildren, getFolderPath, getPendingOutbox, getUploads, getVault, getVaults, getVersions } from '../storage/vaultStore';
import { NOT_OFFLINE_MESSAGE, downloadFileVersion } from './downloadFile';
import { startSync, stopSync } from './index';
import { pushOutbox } from './outbox';
import { readRebuildInputs, rebuildVaultState } from './rebuild';
import { SyncClient } from './SyncClient';
import { FakeVaultCrypto, signFake } from './testing/FakeVaultCrypto';
import { FakeTransfer, FakeVaultServer } from './testing/FakeVaultServer';
import * as actions from './vaultActions';
import { forgetPickedFiles } from './uploadQueue';

const USER = { id: 'acc1', publicSigningKey: 'c'.repeat(64), address: 'A'.repeat(43) };
const silent = () => {};

let server: FakeVaultServer;
let db: CairnDb;
let crypto: FakeVaultCrypto;
let transfer: FakeTransfer;
let client: SyncClient;
const extraDbs: CairnDb[] = [];

function newDb(): CairnDb {
  return new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
}

function start(): SyncClient {
  client = startSync(USER, { db, api: server.api, crypto, transfer, log: silent }, { pollIntervalMs: 0 });
  return client;
}

/** A second device of the same user: its own database and crypto worker. */
async function secondDevice() {
  const otherDb = newDb();
  extraDbs.push(otherDb);
  const other = new SyncClient(
    { db: otherDb, api: server.api, crypto: new FakeVaultCrypto(), transfer: new FakeTransfer(server), log: silent },
    { pollIntervalMs: 0 },
  );
  other.start(USER.id, USER);
  await other.idle();
  return { db: otherDb, client: other };
}

function bytes(size: number, seed = 1): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed) & 255;
  return out;
}

function file(name: string, size: number, seed = 1, type = 'application/octet-stream'): File {
  return new File([bytes(size, seed) as Uint8Array<ArrayBuffer>], name, { type, lastModified: 1_000 });
}

/** Byte-wise comparison (vitest's deep equality is far too slow on multi-megabyte arrays). */
async function sameBytes(blob: Blob, expected: Uint8Array): Promise<boolean> {
  const actual = new Uint8Array(await blob.arrayBuffer());
  if (actual.length !== expected.length) return false;
  for (let i = 0; i < actual.length; i++) if (actual[i] !== expected[i]) return false;
  return true;
}

beforeEach(() => {
  server = new FakeVaultServer(USER);
  db = newDb();
  crypto = new FakeVaultCrypto();
  transfer = new FakeTransfer(server);
  start();
});

afterEach(async () => {
  await client.idle();
  stopSync();
  db.close();
  for (const other of extraDbs.splice(0)) other.close();
});

async function privateVault(title = 'Vault'): Promise<string> {
  const vaultId = await actions.createVault({ title, description: 'd', tags: ['t'], terms: '', isPublic: false, isCloud: true });
  await client.syncNow();
  return vaultId;
}

describe('[S1] outbox: writes show at once and push when online', () => {
  it('a new vault shows as pending (Creating...) before the server has it, then settles', async () => {
    server.isOffline = true;
    const vaultId = await actions.createVault({ title: 'Plans', description: 'x', tags: ['a', 'b'], terms: '', isPublic: false, isCloud: true });
    await client.idle();
    const pending = await getVault(db, USER.id, vaultId);
    expect(pending).toMatchObject({ name: 'Plans', isPending: true, role: 'OWNER', tags: ['a', 'b'] });
    expect((await getVaults(db, USER.id, 'active')).map((v) => v.vaultId)).toEqual([vaultId]);
    expect((await getPendingOutbox(db, USER.id)).count).toBe(1);

    server.isOffline = false;
    await client.syncNow();
    const settled = await getVault(db, USER.id, vaultId);
    expect(settled).toMatchObject({ name: 'Plans', isPending: false, cursor: 1, headSeq: 1, status: 'ACTIVE' });
    expect((await getPendingOutbox(db, USER.id)).count).toBe(0);
    // The server holds the name sealed, never in clear.
    expect(JSON.stringify(server.vaults.get(vaultId)!.ops)).not.toContain('Plans');
  });

  it('retries reuse the operation id, and a lost answer does not apply it twice', async () => {
    const vaultId = await privateVault();
    server.loseNextPushResponse = true;
    const folderId = await actions.createFolder(vaultId, null, 'Docs');
    await client.idle();
    expect((await getPendingOutbox(db, USER.id)).count).toBe(1);
    await client.syncNow();
    const ids = server.pushedIds.slice(-2);
    expect(ids[0]).toBe(ids[1]);
    expect(server.vaults.get(vaultId)!.ops.filter((o) => o.op.objectId === folderId)).toHaveLength(1);
    expect((await getPendingOutbox(db, USER.id)).count).toBe(0);
    const [folder] = await getChildren(db, USER.id, vaultId, null);
    expect(folder).toMatchObject({ id: folderId, name: 'Docs', pendingOpIds: [] });
  });

  it('[S3] a rejected push keeps the outbox entry, marks the node and undoes its effect', async () => {
    const vaultId = await privateVault();
    const folderId = await actions.createFolder(vaultId, null, 'Docs');
    await client.syncNow();
    server.rejectNext = { match: (op) => op.body.type === 'node.rename', code: 'FORBIDDEN', message: 'Only owners and contributors can rename' };
    await actions.renameNode(vaultId, folderId, 'Secret');
    await client.syncNow();

    const [folder] = await getChildren(db, USER.id, vaultId, null);
    expect(folder!.name).toBe('Docs');
    expect(folder!.rejection).toMatchObject({ type: 'node.rename', code: 'FORBIDDEN', message: 'Only owners and contributors can rename' });
    const kept = await db.outbox.toArray();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ status: 'rejected', fields: { name: 'Secret' } });

    await actions.dismissRejection(kept[0]!.opId);
    expect(await db.outbox.count()).toBe(0);
    expect((await getChildren(db, USER.id, vaultId, null))[0]!.rejection).toBeNull();
  });

  it('[S3] R123: a folder accepted in the batch that refused its rename stays shown, marked, before and after the pull', async () => {
    const vaultId = await privateVault();
    server.isOffline = true;
    const folderId = await actions.createFolder(vaultId, null, 'Docs');
    await actions.renameNode(vaultId, folderId, 'Secret');
    await client.idle();
    server.isOffline = false;
    server.rejectNext = { match: (op) => op.body.type === 'node.rename', code: 'FORBIDDEN', message: 'Only owners and contributors can rename' };
    // One push, no pull yet: the creation is accepted and the rename refused in the same answer.
    expect(await pushOutbox(client.context)).toMatchObject({ accepted: 1, rejected: 1 });

    const before = await getChildren(db, USER.id, vaultId, null);
    expect(before.map((n) => [n.name, n.rejection?.type])).toEqual([['Docs', 'node.rename']]);
    expect((await db.acceptedOps.toArray()).map((r) => r.op.objectId)).toEqual([folderId]);
    await client.syncNow();
    // The pull cached it: nothing is kept twice.
    expect(await db.acceptedOps.count()).toBe(0);
    const after = await getChildren(db, USER.id, vaultId, null);
    expect(after.map((n) => [n.name, n.rejection?.type, n.pendingOpIds])).toEqual([['Docs', 'node.rename', []]]);
  });
});

describe('[S2] pull: projections from verified operations', () => {
  it('a second device sees the vault, folders and names, decrypted', async () => {
    const vaultId = await privateVault('Family');
    const photos = await actions.createFolder(vaultId, null, 'Photos');
    await actions.createFolder(vaultId, photos, 'Summer 10');
    await actions.createFolder(vaultId, photos, 'Summer 9');
    await client.syncNow();

    const other = await secondDevice();
    expect(await getVault(other.db, USER.id, vaultId)).toMatchObject({ name: 'Family', description: 'd', tags: ['t'], cursor: 4 });
    expect((await getChildren(other.db, USER.id, vaultId, photos)).map((n) => n.name)).toEqual(['Summer 9', 'Summer 10']);
  });

  it('skips an operation whose signature does not verify, and moves past it', async () => {
    const vaultId = await privateVault();
    const folderId = await actions.createFolder(vaultId, null, 'Docs');
    await client.syncNow();
    const forged = signFake({
      id: 'forged1',
      vaultId,
      objectId: folderId,
      author: USER.publicSigningKey,
      createdAt: 1,
      body: { type: 'node.rename', name: (await crypto.sealFields(vaultId, folderId, { name: 'Hacked' })).name! },
    });
    server.inject({ ...forged, createdAt: 2 });
    await client.syncNow();
    expect((await getChildren(db, USER.id, vaultId, null))[0]!.name).toBe('Docs');
    expect(client.stats.unverified).toBe(1);
    expect((await getVault(db, USER.id, vaultId))!.cursor).toBe(3);
  });

  it('rename, move, hide, restore and delete reach the server and the lists', async () => {
    const vaultId = await privateVault();
    const a = await actions.createFolder(vaultId, null, 'A');
    const b = await actions.createFolder(vaultId, null, 'B');
    await actions.renameNode(vaultId, b, 'B2');
    await actions.moveNodes(vaultId, [b], a);
    await client.syncNow();
    expect((await getChildren(db, USER.id, vaultId, a)).map((n) => n.name)).toEqual(['B2']);
    expect((await getFolderPath(db, USER.id, b)).map((n) => n.name)).toEqual(['A', 'B2']);

    await actions.hideNodes(vaultId, [a]);
    await client.syncNow();
    expect(await getChildren(db, USER.id, vaultId, null)).toEqual([]);
    expect((await getChildren(db, USER.id, vaultId, null, 'REVOKED')).map((n) => n.name)).toEqual(['A']);
    expect((await getChildren(db, USER.id, vaultId, a, 'REVOKED')).map((n) => n.name)).toEqual(['B2']);

    await actions.restoreNodes(vaultId, [a]);
    await client.syncNow();
    expect((await getChildren(db, USER.id, vaultId, null)).map((n) => n.name)).toEqual(['A']);

    await actions.hideNodes(vaultId, [b]);
    await actions.deleteNodes(vaultId, [b]);
    await client.syncNow();
    expect(await getChildren(db, USER.id, vaultId, a)).toEqual([]);
    expect(await getChildren(db, USER.id, vaultId, null, 'REVOKED')).toEqual([]);
    expect(await db.outbox.count()).toBe(0);

    await actions.renameVault(vaultId, 'Renamed');
    await actions.updateVaultMetadata(vaultId, 'about', ['x', 'y']);
    await actions.archiveVault(vaultId);
    await client.syncNow();
    expect(await getVaults(db, USER.id, 'active')).toEqual([]);
    expect((await getVaults(db, USER.id, 'inactive'))[0]).toMatchObject({ name: 'Renamed', description: 'about', tags: ['x', 'y'] });
  });
});

describe('[S1] batches', () => {
  it('a batch hide, restore and move is queued in one go, in order, pending at once, and all of it reaches the server', async () => {
    const vaultId = await privateVault();
    const target = await actions.createFolder(vaultId, null, 'Target');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await actions.createFolder(vaultId, null, `F${i}`));
    await client.syncNow();
    server.isOffline = true;

    await actions.hideNodes(vaultId, ids);
    const queued = await db.outbox.orderBy('[accountId+queuedAt]').toArray();
    expect(queued.map((r) => r.op.objectId)).toEqual(ids);
    expect(new Set(queued.map((r) => r.queuedAt)).size).toBe(ids.length);
    expect((await getChildren(db, USER.id, vaultId, null, 'REVOKED')).map((n) => n.pendingOpIds.length)).toEqual(ids.map(() => 1));

    await actions.restoreNodes(vaultId, ids);
    await actions.moveNodes(vaultId, ids, target);
    expect((await getChildren(db, USER.id, vaultId, target)).length).toBe(ids.length);
    expect(await db.outbox.count()).toBe(3 * ids.length);

    server.isOffline = false;
    await client.syncNow();
    expect(await db.outbox.count()).toBe(0);
    const children = await getChildren(db, USER.id, vaultId, target);
    expect(children.map((n) => n.name).sort()).toEqual(ids.map((_, i) => `F${i}`).sort());
    expect(children.every((n) => n.pendingOpIds.length === 0)).toBe(true);
  });
});

describe('[S4] rebuild', () => {
  it('gives the same records every time, equal to what pulling built', async () => {
    const vaultId = await privateVault();
    const a = await actions.createFolder(vaultId, null, 'A');
    await actions.createFolder(vaultId, a, 'B');
    await actions.uploadFiles(vaultId, a, [{ file: file('x.bin', 1000) }]);
    await client.syncNow();
    server.isOffline = true;
    await actions.renameNode(vaultId, a, 'A pending');
    await client.idle();

    const inputs = await readRebuildInputs(db, USER.id, vaultId);
    const first = rebuildVaultState(inputs.vault!, inputs.ops, inputs.outbox);
    const second = rebuildVaultState(inputs.vault!, [...inputs.ops].reverse(), [...inputs.outbox].reverse());
    expect([...second.nodes.values()]).toEqual([...first.nodes.values()]);
    const stored = (await db.nodes.toArray()).sort((x, y) => x.id.localeCompare(y.id));
    const rebuilt = [...first.nodes.values()].sort((x, y) => x.id.localeCompare(y.id));
    // listKey is the storage layer's index field (nodeListKey.ts), not projection state.
    expect(rebuilt.map(({ updatedAt: _u, ...n }) => n)).toEqual(stored.map(({ updatedAt: _u, listKey: _k, ...n }) => n));
    expect(first.nodes.get(a)).toMatchObject({ name: 'A pending', size: 1000 });
  });
});

describe('[S5] uploads and downloads', () => {
  it('uploads a multi-chunk private file into new folders and a second device downloads it intact', async () => {
    const vaultId = await privateVault();
    const size = 2 * CHUNK_SIZE + 1234;
    const { batchId } = await actions.uploadFiles(vaultId, null, [
      { file: file('clip.mp4', size, 7, 'video/mp4'), path: ['Media', 'Clips'] },
      { file: file('.DS_Store', 10), path: ['Media'] },
      { file: file('secret.txt', 5), path: ['.git'] },
    ]);
    await client.syncNow();

    const uploads = await getUploads(db, USER.id);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ batchId, state: 'done', sentBytes: size, chunkCount: 3 });
    const [media] = await getChildren(db, USER.id, vaultId, null);
    const [clips] = await getChildren(db, USER.id, vaultId, media!.id);
    const [clip] = await getChildren(db, USER.id, vaultId, clips!.id);
    expect(clip).toMatchObject({ name: 'clip.mp4', size, mimeType: 'video/mp4', versionCount: 1, pendingOpIds: [] });
    expect(media!.size).toBe(size);
    expect(JSON.stringify(server.vaults.get(vaultId)!.ops)).not.toContain('clip.mp4');

    const other = await secondDevice();
    const progress: number[] = [];
    const blob = await downloadFileVersion(other.client.context, vaultId, clip!.id, undefined, (received) => progress.push(received));
    expect(blob!.type).toBe('video/mp4');
    expect(await sameBytes(blob!, bytes(size, 7))).toBe(true);
    expect(progress.at(-1)).toBe(size);
  });

  it('R15: with the server out of reach, a file not kept on this device fails as not available offline', async () => {
    const vaultId = await privateVault();
    await actions.uploadFiles(vaultId, null, [{ file: file('far.txt', 10, 3, 'text/plain') }]);
    await client.syncNow();
    const [far] = await getChildren(db, USER.id, vaultId, null);
    server.isOffline = true;
    await expect(downloadFileVersion(client.context, vaultId, far!.id)).rejects.toMatchObject({ code: 'OFFLINE', message: NOT_OFFLINE_MESSAGE });
    server.isOffline = false;
    expect(await sameBytes(await downloadFileVersion(client.context, vaultId, far!.id), bytes(10, 3))).toBe(true);
  });

  it('adds a version to an existing file; versions list newest first', async () => {
    const vaultId = await privateVault();
    await actions.uploadFiles(vaultId, null, [{ file: file('a.txt', 10, 1, 'text/plain') }]);
    await client.syncNow();
    const [a] = await getChildren(db, USER.id, vaultId, null);
    await actions.uploadFiles(vaultId, null, [{ file: file('a.txt', 20, 2, 'text/plain'), replaceFileId: a!.id }]);
    await client.syncNow();
    const versions = await getVersions(db, USER.id, a!.id);
    expect(versions.map((v) => [v.number, v.size])).toEqual([[2, 20], [1, 10]]);
    expect(await sameBytes((await actions.downloadFile(vaultId, a!.id)), bytes(20, 2))).toBe(true);
    expect(await sameBytes((await actions.downloadFile(vaultId, a!.id, versions[1]!.versionId)), bytes(10, 1))).toBe(true);
  });

  it('public vaults keep names in clear and files unencrypted', async () => {
    const vaultId = await actions.createVault({ title: 'Open', description: '', tags: [], terms: 'Be nice', isPublic: true, isCloud: true });
    await actions.uploadFiles(vaultId, null, [{ file: file('p.txt', 10) }]);
    await client.syncNow();
    expect(JSON.stringify(server.vaults.get(vaultId)!.ops)).toContain('p.txt');
    expect((await getVault(db, USER.id, vaultId))!.terms).toBe('Be nice');
    const [p] = await getChildren(db, USER.id, vaultId, null);
    expect(await sameBytes((await actions.downloadFile(vaultId, p!.id)), bytes(10))).toBe(true);
  });

  it('fails with the spec message and sends nothing when storage is short', async () => {
    const vaultId = await privateVault();
    server.cloudTotal = 100;
    await actions.uploadFiles(vaultId, null, [{ file: file('big.bin', 1000) }]);
    await client.syncNow();
    const [upload] = await getUploads(db, USER.id);
    expect(upload).toMatchObject({ state: 'failed', error: actions.NOT_ENOUGH_STORAGE_MESSAGE, sentBytes: 0 });
    expect(transfer.sent).toEqual([]);
    expect(await getChildren(db, USER.id, vaultId, null)).toEqual([]);

    server.cloudTotal = 1_000_000_000;
    await actions.retryUpload(upload!.uploadId);
    await client.syncNow();
    expect((await getUploads(db, USER.id))[0]!.state).toBe('done');
  });

  it('resumes after a reload from the first chunk the server lacks, reopening the file key', async () => {
    const vaultId = await privateVault();
    const size = 2 * CHUNK_SIZE + 10;
    transfer.failIndexOnce = 1;
    await actions.uploadFiles(vaultId, null, [{ file: file('r.bin', size, 3) }]);
    await client.idle();
    const [interrupted] = await getUploads(db, USER.id);
    expect(interrupted!.state).toBe('paused');
    // Chunks go one at a time, each recorded before it is sent: 0 is stored, 1 was on the wire
    // (2, sealed ahead, may be recorded too).
    expect(interrupted!.chunkHashes.slice(0, 2).map(Boolean)).toEqual([true, true]);
    expect([...server.blobs.get(interrupted!.blobId)!.chunks.keys()]).toEqual([0]);

    // "Reload": a new client and transfer pool over the same database; the picked file is gone
    // from memory, so the chunk comes from the copy kept in IndexedDB.
    stopSync();
    forgetPickedFiles();
    transfer = new FakeTransfer(server);
    crypto.calls.length = 0;
    start();
    await client.syncNow();
    expect(crypto.calls).toContain('openFileKey');
    expect(crypto.calls).not.toContain('createFileKey');
    expect(transfer.sent).toEqual([1, 2]);
    const [r] = await getChildren(db, USER.id, vaultId, null);
    expect(await sameBytes((await actions.downloadFile(vaultId, r!.id)), bytes(size, 3))).toBe(true);
  });

  it('a cancelled upload stops and queues no file operation', async () => {
    const vaultId = await privateVault();
    server.isOffline = true;
    await actions.uploadFiles(vaultId, null, [{ file: file('c.bin', 10) }]);
    const [upload] = await getUploads(db, USER.id);
    await actions.cancelUpload(upload!.uploadId);
    server.isOffline = false;
    await client.syncNow();
    expect((await getUploads(db, USER.id))[0]!.state).toBe('cancelled');
    expect(await getChildren(db, USER.id, vaultId, null)).toEqual([]);
  });

  it('refuses a chunk that does not match its signed hash', async () => {
    const vaultId = await privateVault();
    await actions.uploadFiles(vaultId, null, [{ file: file('t.bin', 100) }]);
    await client.syncNow();
    const [t] = await getChildren(db, USER.id, vaultId, null);
    const version = (await getVersions(db, USER.id, t!.id))[0]!;
    server.blobs.get(version.blobId)!.chunks.get(0)!.bytes[0]! ^= 1;
    await expect(actions.downloadFile(vaultId, t!.id)).rejects.toMatchObject({ code: 'CHUNK_TAMPERED', message: actions.CHUNK_TAMPERED_MESSAGE });
  });

  it('a streamed download writes the chunks in order, and nothing from a tampered chunk on', async () => {
    const vaultId = await privateVault();
    const size = 2 * CHUNK_SIZE + 5;
    await actions.uploadFiles(vaultId, null, [{ file: file('s.bin', size, 7) }]);
    await client.syncNow();
    const [s] = await getChildren(db, USER.id, vaultId, null);

    const written: Uint8Array[] = [];
    const download = await actions.openDownload(vaultId, s!.id);
    expect(download.size).toBe(size);
    // A slow writer: the pump must wait for each write, and still hand the chunks on in order.
    await download.pump(async (chunk) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      written.push(chunk);
    });
    expect(written.map((c) => c.byteLength)).toEqual([CHUNK_SIZE, CHUNK_SIZE, 5]);
    expect(await sameBytes(new Blob(written as Uint8Array<ArrayBuffer>[]), bytes(size, 7))).toBe(true);

    const version = (await getVersions(db, USER.id, s!.id))[0]!;
    server.blobs.get(version.blobId)!.chunks.get(1)!.bytes[9]! ^= 1;
    const afterTamper: number[] = [];
    const again = await actions.openDownload(vaultId, s!.id);
    await expect(again.pump(async (chunk) => void afterTamper.push(chunk.byteLength))).rejects.toMatchObject({
      code: 'CHUNK_TAMPERED',
      message: actions.CHUNK_TAMPERED_MESSAGE,
    });
    // Chunk 0 may have been written before chunk 1 failed; chunk 1 and later never are.
    expect(afterTamper.length).toBeLessThanOrEqual(1);
  });

  it('getVaultUploadRoom answers the room in the vault, which an upload lowers', async () => {
    const vaultId = await privateVault();
    expect(await actions.getVaultUploadRoom(vaultId)).toBe(1_000_000_000);
    await actions.uploadFiles(vaultId, null, [{ file: file('a.txt', 10) }]);
    await client.syncNow();
    expect(await actions.getVaultUploadRoom(vaultId)).toBeLessThan(1_000_000_000);
  });

  it("keeps the membership's upload allowance from the vault list on the vault record", async () => {
    const vaultId = await privateVault();
    expect((await getVault(db, USER.id, vaultId))!.membershipStorageAllowance).toBeNull();
    server.vaults.get(vaultId)!.summary.membership.storageAllowance = 0;
    await client.syncNow();
    expect((await getVault(db, USER.id, vaultId))!.membershipStorageAllowance).toBe(0);
  });

  it('pushOutbox does nothing when the outbox is empty', async () => {
    expect(await pushOutbox(client.context)).toMatchObject({ accepted: 0, rejected: 0 });
  });
});

describe('polling and the realtime socket', () => {
  it('a closed socket brings a slow poll forward to the usual interval', async () => {
    const gets: string[] = [];
    const api = { ...server.api, get: ((path, schema) => (gets.push(path), server.api.get(path, schema))) as typeof server.api.get };
    const polling = new SyncClient({ db, api, crypto, transfer, log: silent }, { pollIntervalMs: 50 });
    try {
      polling.start(USER.id, USER);
      polling.setRealtimeOpen(true);
      await polling.idle();
      // The socket is open: the next poll is POLL_INTERVAL_WITH_SOCKET_MS away, not 50 ms.
      const beforeClose = gets.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(gets.length).toBe(beforeClose);
      polling.setRealtimeOpen(false);
      await vi.waitFor(() => expect(gets.length).toBeGreaterThan(beforeClose), { timeout: 1_000 });
    } finally {
      polling.stop();
    }
  });
});
