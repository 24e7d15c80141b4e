/**
 * The whole path against the REAL server (buildApp on a temp SQLite DATA_DIR), the REAL crypto
 * API (createCryptoApi, the code the crypto worker runs) and the REAL transfer API
 * (createTransferApi, the code each transfer worker runs): the apiClient's and the transfer's
 * fetch are routed to app.inject. Two devices of one user: what one pushes and uploads, the other
 * pulls, decrypts and downloads intact; and an upload cut by a server killed mid-chunk resumes
 * after a reload with at most one chunk sent again.
 */
import { chunkHeaderFor, storedFileSize } from '../crypto/fileChunks';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../workers/transfer/createTransferApi';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import { CHUNK_SIZE, CHUNK_TAG_BYTES } from '../protocol/vaults';
import { CairnDb } from '../storage/db';
import { getChildren, getUploads, getVault } from '../storage/vaultStore';
import { downloadFileVersion } from './downloadFile';
import { startSync, stopSync } from './index';
import { SyncClient } from './SyncClient';
import { signedInServer } from './testing/realServer';
import { forgetPickedFiles } from './uploadQueue';
import * as actions from './vaultActions';

const real = signedInServer(() => stopSync());

/**
 * The network between one device and the server: counts the bytes of every chunk PUT (sent in
 * full even when the server dies under it: the worst case) and can "kill" the server, after which
 * every request fails as a refused connection does, until `revive()`.
 */
class Wire {
  putBytes = 0;
  isDown = false;
  /** The server dies while receiving the PUT of this chunk index. */
  killDuringChunk: number | null = null;

  wrap(inner: typeof fetch): typeof fetch {
    return (async (input: string | URL | Request, init: RequestInit = {}) => {
      if (this.isDown) throw new TypeError('Failed to fetch');
      const chunk = /\/chunks\/(\d+)$/.exec(String(input));
      if (init.method === 'PUT' && chunk) {
        this.putBytes += init.body instanceof Blob ? init.body.size : 0;
        if (Number(chunk[1]) === this.killDuringChunk) {
          this.killDuringChunk = null;
          this.isDown = true;
          throw new TypeError('Failed to fetch');
        }
      }
      return inner(input, init);
    }) as typeof fetch;
  }
}

async function device(wire?: Wire) {
  const crypto = createCryptoApi();
  await crypto.loadPendingWallet(real.user.phrase.split(' '));
  await crypto.activatePendingWallet();
  const fetchLike = wire ? wire.wrap(real.fetch()) : real.fetch();
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  return {
    db,
    crypto,
    api: createApiClient({ fetch: fetchLike as FetchLike }),
    transfer: createTransferApi({ fetch: fetchLike }),
  };
}

function pattern(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 13 + seed) & 255;
  return out;
}

async function sameBytes(blob: Blob, expected: Uint8Array): Promise<boolean> {
  const actual = new Uint8Array(await blob.arrayBuffer());
  if (actual.length !== expected.length) return false;
  for (let i = 0; i < actual.length; i++) if (actual[i] !== expected[i]) return false;
  return true;
}

describe('[S6] sync against the real server', () => {
  it('push, pull, upload and download round-trip between two devices of one user', async () => {
    const me = real.me;
    const a = await device();
    const client = startSync(me, { db: a.db, api: a.api, crypto: a.crypto, transfer: a.transfer, log: () => {} }, { pollIntervalMs: 0 });

    const vaultId = await actions.createVault({ title: 'Real vault', description: 'about', tags: ['x'], terms: '', isPublic: false, isCloud: true });
    expect((await getVault(a.db, real.userId, vaultId))?.isPending).toBe(true);
    await client.syncNow();
    expect(await getVault(a.db, real.userId, vaultId)).toMatchObject({ name: 'Real vault', isPending: false, cursor: 1 });

    const folderId = await actions.createFolder(vaultId, null, 'Reports');
    const size = CHUNK_SIZE + 321;
    const content = pattern(size, 5);
    await actions.uploadFiles(vaultId, folderId, [{ file: new File([content as Uint8Array<ArrayBuffer>], 'q1.pdf', { type: 'application/pdf', lastModified: 5 }) }]);
    await client.syncNow();
    const [upload] = await getUploads(a.db, real.userId);
    expect(upload).toMatchObject({ state: 'done', error: null });
    expect(await a.db.outbox.count()).toBe(0);
    const [file] = await getChildren(a.db, real.userId, vaultId, folderId);
    expect(file).toMatchObject({ name: 'q1.pdf', size, mimeType: 'application/pdf', pendingOpIds: [] });
    await actions.renameNode(vaultId, file!.id, 'Q1 report.pdf');
    await client.syncNow();
    expect(await a.db.outbox.count()).toBe(0);

    // A second device: pulls, opens the vault keys, decrypts the names and downloads the file.
    const b = await device();
    const other = new SyncClient({ db: b.db, api: b.api, crypto: b.crypto, transfer: b.transfer, log: () => {} }, { pollIntervalMs: 0 });
    other.start(real.userId, me);
    await other.syncNow();
    expect(await getVault(b.db, real.userId, vaultId)).toMatchObject({ name: 'Real vault', description: 'about', tags: ['x'] });
    const [folder] = await getChildren(b.db, real.userId, vaultId, null);
    expect(folder).toMatchObject({ name: 'Reports', size });
    const [seen] = await getChildren(b.db, real.userId, vaultId, folderId);
    expect(seen).toMatchObject({ name: 'Q1 report.pdf', mimeType: 'application/pdf' });
    const blob = await downloadFileVersion(other.context, vaultId, seen!.id);
    expect(blob.type).toBe('application/pdf');
    expect(await sameBytes(blob, content)).toBe(true);
    other.stop();
  }, 60_000);

  it('a server killed during a chunk PUT, then a reload: the upload completes intact with at most one chunk sent again', async () => {
    const me = real.me;
    const wire = new Wire();
    const a = await device(wire);
    let client = startSync(me, { db: a.db, api: a.api, crypto: a.crypto, transfer: a.transfer, log: () => {} }, { pollIntervalMs: 0 });
    const vaultId = await actions.createVault({ title: 'Resumed', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    await client.syncNow();

    const size = 4 * CHUNK_SIZE + 777;
    const content = pattern(size, 11);
    wire.killDuringChunk = 2;
    await actions.uploadFiles(vaultId, null, [{ file: new File([content as Uint8Array<ArrayBuffer>], 'resumed.bin', { lastModified: 9 }) }]);
    await client.idle();
    const [paused] = await getUploads(a.db, real.userId);
    expect(paused).toMatchObject({ state: 'paused', sentBytes: 2 * CHUNK_SIZE });

    // The server comes back; the page reloads (new client and transfer worker, same IndexedDB).
    stopSync();
    forgetPickedFiles();
    wire.isDown = false;
    const transfer = createTransferApi({ fetch: wire.wrap(real.fetch()) });
    client = startSync(me, { db: a.db, api: a.api, crypto: a.crypto, transfer, log: () => {} }, { pollIntervalMs: 0 });
    await client.syncNow();
    const [upload] = await getUploads(a.db, real.userId);
    expect(upload).toMatchObject({ state: 'done', sentBytes: size });
    expect(await a.db.outbox.count()).toBe(0);

    const stored = storedFileSize(chunkHeaderFor(size), true);
    expect(wire.putBytes - stored).toBeGreaterThan(0);
    expect(wire.putBytes - stored).toBeLessThanOrEqual(CHUNK_SIZE + CHUNK_TAG_BYTES);

    const b = await device();
    const other = new SyncClient({ db: b.db, api: b.api, crypto: b.crypto, transfer: b.transfer, log: () => {} }, { pollIntervalMs: 0 });
    other.start(real.userId, me);
    await other.syncNow();
    const [seen] = await getChildren(b.db, real.userId, vaultId, null);
    expect(await sameBytes(await downloadFileVersion(other.context, vaultId, seen!.id), content)).toBe(true);
    other.stop();
    stopSync();
  }, 60_000);
});
