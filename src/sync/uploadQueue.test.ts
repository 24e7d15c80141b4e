/**
 * Uploads that resume (DESIGN.md sections 3 and 4): the resume check of the source, the states
 * the progress box shows, what an interruption costs on the wire, cancelling. Real Dexie on a
 * fresh fake-indexeddb, the in-memory vault server and fake transfer pool of sync.test.ts.
 */
import { chunkHeaderFor, storedFileSize } from '../crypto/fileChunks';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { summariseUploads } from '../domain/uploadRules';
import type { ApiClient } from '../platform/apiClient';
import { CHUNK_SIZE, CHUNK_SIZES, CHUNK_TAG_BYTES } from '../protocol/vaults';
import { CairnDb } from '../storage/db';
import type { UploadRecord } from '../storage/vaultRecords';
import { getChildren, getUploads } from '../storage/vaultStore';
import { startSync, stopSync } from './index';
import { SyncClient } from './SyncClient';
import { FakeVaultCrypto } from './testing/FakeVaultCrypto';
import { FakeTransfer, FakeVaultServer } from './testing/FakeVaultServer';
import { checkSourceUnchanged, SourceChangedError } from './uploadSource';
import { GROUP_FILES_MAX } from './uploadGroups';
import { FILES_AT_ONCE, forgetPickedFiles, MAX_RETRY_DELAY_MS, NOT_ENOUGH_STORAGE_MESSAGE, retryDelayMs, SMALL_FILE_BYTES, SMALL_FILES_AT_ONCE, sourceChangedMessage, sourceUnreadableMessage } from './uploadQueue';
import * as actions from './vaultActions';

const USER = { id: 'acc1', publicSigningKey: 'c'.repeat(64), address: 'A'.repeat(43) };
const LAST_MODIFIED = 1_000;

let server: FakeVaultServer;
let db: CairnDb;
let crypto: FakeVaultCrypto;
let transfer: FakeTransfer;
let client: SyncClient;
/** Bytes PUT by the transfer pools of earlier "page sessions" of this test. */
let earlierPutBytes: number;

function start(api: ApiClient = server.api): SyncClient {
  client = startSync(USER, { db, api, crypto, transfer, log: () => {} }, { pollIntervalMs: 0 });
  return client;
}

/** A reload (or a closed and reopened tab): new client and transfer pool, the picked files gone from memory. */
function reload(api?: ApiClient): SyncClient {
  stopSync();
  forgetPickedFiles();
  earlierPutBytes += transfer.putBytes;
  transfer = new FakeTransfer(server);
  return start(api);
}

function bytes(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed) & 255;
  return out;
}

function file(name: string, content: Uint8Array<ArrayBuffer>, lastModified = LAST_MODIFIED): File {
  return new File([content], name, { type: 'application/octet-stream', lastModified });
}

async function sameBytes(blob: Blob, expected: Uint8Array): Promise<boolean> {
  const actual = new Uint8Array(await blob.arrayBuffer());
  return actual.length === expected.length && actual.every((b, i) => b === expected[i]);
}

async function onlyUpload(): Promise<UploadRecord> {
  const uploads = await getUploads(db, USER.id);
  expect(uploads).toHaveLength(1);
  return uploads[0]!;
}

async function privateVault(): Promise<string> {
  const vaultId = await actions.createVault({ title: 'Vault', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
  await client.syncNow();
  return vaultId;
}

/** Uploads `content` and stops it with the server gone during the PUT of chunk `crashAt`. */
async function interruptedUpload(vaultId: string, name: string, content: Uint8Array<ArrayBuffer>, crashAt: number): Promise<UploadRecord> {
  transfer.crashDuring = crashAt;
  await actions.uploadFiles(vaultId, null, [{ file: file(name, content) }]);
  await client.idle();
  const upload = await onlyUpload();
  expect(upload.state).toBe('paused');
  expect([...server.blobs.get(upload.blobId)!.chunks.keys()]).toEqual([...Array(crashAt).keys()]);
  return upload;
}

beforeEach(() => {
  server = new FakeVaultServer(USER);
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  crypto = new FakeVaultCrypto();
  transfer = new FakeTransfer(server);
  earlierPutBytes = 0;
  start();
});

afterEach(async () => {
  await client.idle();
  stopSync();
  vi.unstubAllGlobals();
  db.close();
});

describe('[R48] the copy of the picked file: written meanwhile, and not needed to upload', () => {
  const quotaError = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

  it('no room for every copy: the uploads go on from the picked files, the copies that fit are kept, the others named', async () => {
    const vaultId = await privateVault();
    const big = bytes(2 * CHUNK_SIZE + 3, 7);
    const small = bytes(100, 8);
    vi.spyOn(db.uploadFiles, 'bulkAdd').mockRejectedValue(quotaError());
    const add = db.uploadFiles.add.bind(db.uploadFiles);
    const keptSizes: number[] = [];
    vi.spyOn(db.uploadFiles, 'add').mockImplementation((item) => {
      if (item.file.size > 1_000) return Dexie.Promise.reject(quotaError());
      keptSizes.push(item.file.size);
      return add(item);
    });
    const { notKept } = await actions.uploadFiles(vaultId, null, [{ file: file('big.bin', big) }, { file: file('small.txt', small) }]);
    expect(await notKept).toEqual(['big.bin']);
    expect(keptSizes).toEqual([100]);

    await client.syncNow();
    expect((await getUploads(db, USER.id)).map((u) => u.state)).toEqual(['done', 'done']);
    const nodes = await getChildren(db, USER.id, vaultId, null);
    const bigNode = nodes.find((n) => n.name === 'big.bin')!;
    expect(await sameBytes(await actions.downloadFile(vaultId, bigNode.id), big)).toBe(true);
    // Finished uploads keep no copy.
    expect(await db.uploadFiles.count()).toBe(0);
  });

  it('a refused batch that wrote some copies after all: those count as kept', async () => {
    const vaultId = await privateVault();
    const add = db.uploadFiles.add.bind(db.uploadFiles);
    // As a bulk write does: the small copy is written, the big one refused.
    vi.spyOn(db.uploadFiles, 'bulkAdd').mockImplementation((items) =>
      Dexie.Promise.resolve(add(items.find((item) => item.file.size < 1_000)!)).then(() => Dexie.Promise.reject(quotaError())),
    );
    vi.spyOn(db.uploadFiles, 'add').mockImplementation((item) => (item.file.size > 1_000 ? Dexie.Promise.reject(quotaError()) : add(item)));
    const { notKept } = await actions.uploadFiles(vaultId, null, [{ file: file('big.bin', bytes(CHUNK_SIZE + 1, 2)) }, { file: file('small.txt', bytes(10)) }]);
    expect(await notKept).toEqual(['big.bin']);
  });

  it('after a reload, an upload without a copy fails naming its file instead of disappearing', async () => {
    const vaultId = await privateVault();
    vi.spyOn(db.uploadFiles, 'bulkAdd').mockRejectedValue(quotaError());
    vi.spyOn(db.uploadFiles, 'add').mockRejectedValue(quotaError());
    const upload = await interruptedUpload(vaultId, 'huge.bin', bytes(3 * CHUNK_SIZE, 9), 1);
    server.isOffline = false;
    reload();
    await client.syncNow();
    expect(await onlyUpload()).toMatchObject({ uploadId: upload.uploadId, state: 'failed', error: sourceUnreadableMessage('huge.bin') });
    expect(transfer.putBytes).toBe(0);
  });

  it('sending does not wait for the copy, and a copy written after its upload finished is removed', async () => {
    const vaultId = await privateVault();
    const content = bytes(CHUNK_SIZE + 5, 4);
    const bulkAdd = db.uploadFiles.bulkAdd.bind(db.uploadFiles);
    // The copy is held back until the upload is done (a copy of gigabytes takes seconds).
    const uploadDone = (async () => {
      while ((await getUploads(db, USER.id))[0]?.state !== 'done') await new Promise((resolve) => setTimeout(resolve, 5));
    })();
    vi.spyOn(db.uploadFiles, 'bulkAdd').mockImplementation((items) => Dexie.Promise.resolve(uploadDone).then(() => bulkAdd(items)));
    const { notKept } = await actions.uploadFiles(vaultId, null, [{ file: file('late.bin', content) }]);
    await client.syncNow();
    expect(await notKept).toEqual([]);
    expect(await onlyUpload()).toMatchObject({ state: 'done' });
    expect(await db.uploadFiles.count()).toBe(0);
  });

  it('any other refusal of the copy: the upload goes on and the file is named', async () => {
    const vaultId = await privateVault();
    vi.spyOn(db.uploadFiles, 'bulkAdd').mockRejectedValue(new DOMException('broken', 'UnknownError'));
    vi.spyOn(db.uploadFiles, 'add').mockRejectedValue(new DOMException('broken', 'UnknownError'));
    const { notKept } = await actions.uploadFiles(vaultId, null, [{ file: file('a.bin', bytes(10)) }]);
    expect(await notKept).toEqual(['a.bin']);
    await client.syncNow();
    expect(await onlyUpload()).toMatchObject({ state: 'done' });
  });
});

describe('[R1] resume check: the source must be the one whose chunks were sent', () => {
  const size = 3 * CHUNK_SIZE + 10;

  it('after a reload, resumes from the first chunk the server lacks when the kept copy is unchanged', async () => {
    const vaultId = await privateVault();
    const content = bytes(size, 3);
    const interrupted = await interruptedUpload(vaultId, 'same.bin', content, 2);
    // Every chunk sealed has its hashes recorded before it is sent; 3 may be recorded too (sealed ahead).
    expect(interrupted.chunkHashes.slice(0, 3).map(Boolean)).toEqual([true, true, true]);
    server.isOffline = false;

    // The box after a reload: resuming while the queue asks the server what it holds.
    const statesAtAnnounce: string[] = [];
    const api: ApiClient = {
      ...server.api,
      post: async (path, body, schema) => {
        if (path.endsWith('/blobs')) statesAtAnnounce.push((await onlyUpload()).state);
        return server.api.post(path, body, schema);
      },
    };
    reload(api);
    await client.syncNow();
    expect(statesAtAnnounce).toEqual(['resuming']);
    expect(transfer.sent).toEqual([2, 3]);
    expect(await onlyUpload()).toMatchObject({ state: 'done', sentBytes: size, error: null });
    const [node] = await getChildren(db, USER.id, vaultId, null);
    expect(await sameBytes(await actions.downloadFile(vaultId, node!.id), content)).toBe(true);
  });

  it('an upload queued before chunks grew to CHUNK_SIZE goes on in its 4 MiB chunks, and its version says so', async () => {
    const vaultId = await privateVault();
    const legacySize = CHUNK_SIZES[0];
    expect(legacySize).toBeLessThan(CHUNK_SIZE);
    const content = bytes(2 * legacySize + 10, 5);
    // Queued while the server is out of reach, then written back as the former code wrote it.
    server.isOffline = true;
    await actions.uploadFiles(vaultId, null, [{ file: file('old.bin', content) }]);
    await client.idle();
    await db.uploads.toCollection().modify((r) => {
      delete r.chunkSize;
      r.chunkCount = 3;
      r.chunkHashes = [null, null, null];
    });
    server.isOffline = false;
    reload();
    await client.syncNow();
    expect(transfer.sent).toEqual([0, 1, 2]);
    expect(await onlyUpload()).toMatchObject({ state: 'done', sentBytes: content.length });
    const [node] = await getChildren(db, USER.id, vaultId, null);
    expect(await db.versions.get([USER.id, node!.latestVersionId!])).toMatchObject({ chunkSize: legacySize, chunkCount: 3 });
    expect(await sameBytes(await actions.downloadFile(vaultId, node!.id), content)).toBe(true);
  });

  it('fails naming the file when the plaintext of the last chunk the server holds differs', async () => {
    const vaultId = await privateVault();
    const content = bytes(size, 3);
    const upload = await interruptedUpload(vaultId, 'report.pdf', content, 2);
    server.isOffline = false;
    const changed = content.slice();
    changed[CHUNK_SIZE + 7]! ^= 1; // in chunk 1, the last one stored
    await db.uploadFiles.put({ accountId: USER.id, uploadId: upload.uploadId, file: file('report.pdf', changed) });

    reload();
    await client.syncNow();
    expect(await onlyUpload()).toMatchObject({ state: 'failed', error: sourceChangedMessage('report.pdf') });
    expect(sourceChangedMessage('report.pdf')).toContain('"report.pdf"');
    expect(transfer.putBytes).toBe(0);
    expect([...server.blobs.get(upload.blobId)!.chunks.keys()]).toEqual([0, 1]);
    expect(await db.outbox.count()).toBe(0);
    expect(await getChildren(db, USER.id, vaultId, null)).toEqual([]);
  });

  it('fails when the size or the last-modified time differs', async () => {
    const vaultId = await privateVault();
    const content = bytes(size, 3);
    const upload = await interruptedUpload(vaultId, 'a.bin', content, 1);
    server.isOffline = false;
    await db.uploadFiles.put({ accountId: USER.id, uploadId: upload.uploadId, file: file('a.bin', bytes(size + 1, 3)) });
    reload();
    await client.syncNow();
    expect(await onlyUpload()).toMatchObject({ state: 'failed', error: sourceChangedMessage('a.bin') });
    expect(transfer.putBytes).toBe(0);

    // Node's structured clone keeps a File as a plain Blob (no lastModified), Chromium's keeps
    // the File: the check itself, on the File the browser would answer.
    const record = await onlyUpload();
    const ctx = client.context;
    const rawKey = await ctx.crypto.openFileKey(record.vaultId, record.versionId, record.sealedFileKey!);
    await expect(checkSourceUnchanged(ctx, record, file('a.bin', content), [0], rawKey)).resolves.toBeUndefined();
    await expect(checkSourceUnchanged(ctx, record, file('a.bin', content, LAST_MODIFIED + 1), [0], rawKey)).rejects.toThrow(SourceChangedError);
  });

  it('never re-seals a chunk from other plaintext: a changed interrupted chunk fails before anything is sent', async () => {
    const vaultId = await privateVault();
    const content = bytes(size, 3);
    const upload = await interruptedUpload(vaultId, 'half.bin', content, 2);
    server.isOffline = false;
    // Chunks 0 and 1 (stored) unchanged; chunk 2, sealed and partly sent before, differs.
    const changed = content.slice();
    changed[2 * CHUNK_SIZE + 1]! ^= 1;
    await db.uploadFiles.put({ accountId: USER.id, uploadId: upload.uploadId, file: file('half.bin', changed) });
    reload();
    await client.syncNow();
    expect(await onlyUpload()).toMatchObject({ state: 'failed', error: sourceChangedMessage('half.bin') });
    expect(transfer.putBytes).toBe(0);
  });

  it('goes on from the kept copy when the picked file can no longer be read', async () => {
    const vaultId = await privateVault();
    const content = bytes(size, 5);
    let reads = 0;
    // A picked file changed on disk after its first chunk was read: the browser refuses reads.
    class ChangedOnDisk extends File {
      override slice(...args: Parameters<Blob['slice']>): Blob {
        reads += 1;
        if (reads > 1) return { arrayBuffer: () => Promise.reject(new DOMException('changed', 'NotReadableError')) } as unknown as Blob;
        return super.slice(...args);
      }
    }
    await actions.uploadFiles(vaultId, null, [{ file: new ChangedOnDisk([content], 'live.bin', { lastModified: LAST_MODIFIED }) }]);
    await client.syncNow();
    expect(await onlyUpload()).toMatchObject({ state: 'done', error: null });
    expect(transfer.sent).toEqual([0, 1, 2, 3]);
    const [node] = await getChildren(db, USER.id, vaultId, null);
    expect(await sameBytes(await actions.downloadFile(vaultId, node!.id), content)).toBe(true);
  });
});

describe('[R2] an interruption costs at most one chunk sent again', () => {
  it('a server killed during a PUT, then a reload: every chunk but the interrupted one is sent once', async () => {
    const vaultId = await privateVault();
    const size = 5 * CHUNK_SIZE + 1000;
    const content = bytes(size, 9);
    await interruptedUpload(vaultId, 'big.bin', content, 3);
    server.isOffline = false;
    reload();
    await client.syncNow();
    const upload = await onlyUpload();
    expect(upload.state).toBe('done');
    const stored = storedFileSize(chunkHeaderFor(size), true);
    const resent = earlierPutBytes + transfer.putBytes - stored;
    expect(resent).toBeGreaterThan(0);
    expect(resent).toBeLessThanOrEqual(CHUNK_SIZE + CHUNK_TAG_BYTES);
    const [node] = await getChildren(db, USER.id, vaultId, null);
    expect(await sameBytes(await actions.downloadFile(vaultId, node!.id), content)).toBe(true);
  });

  it('a failed PUT in the same page session is retried alone, and progress counts only what the server holds', async () => {
    const vaultId = await privateVault();
    const size = 4 * CHUNK_SIZE;
    transfer.failIndexOnce = 2;
    await actions.uploadFiles(vaultId, null, [{ file: file('retry.bin', bytes(size)) }]);
    await client.idle();
    const paused = await onlyUpload();
    expect(paused).toMatchObject({ state: 'paused', sentBytes: 2 * CHUNK_SIZE });
    expect(summariseUploads([paused])).toMatchObject({ stage: 'paused', percent: 50 });
    client.context.requestUploads();
    await client.idle();
    expect(await onlyUpload()).toMatchObject({ state: 'done', sentBytes: size });
    expect(transfer.sent).toEqual([0, 1, 2, 3]);
    expect(transfer.putBytes - storedFileSize(chunkHeaderFor(size), true)).toBe(CHUNK_SIZE + CHUNK_TAG_BYTES);
  });
});

describe('[R14] the spool of sealed chunks', () => {
  it('a pause with chunks sealed ahead leaves none of them on disk, and a resumed upload leaves nothing', async () => {
    const vaultId = await privateVault();
    transfer.spool = new Set();
    const size = 6 * CHUNK_SIZE;
    // Offline during chunk 1: chunks 2 to 4 are sealed ahead of a PUT that never comes.
    let offline!: () => void;
    const wentOffline = new Promise<void>((resolve) => (offline = resolve));
    transfer.onPut = async (index) => {
      if (index !== 1) return;
      server.isOffline = true;
      offline();
      // Long enough for the chunks ahead to be sealed while this PUT fails.
      await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await actions.uploadFiles(vaultId, null, [{ file: file('ahead.bin', bytes(size)) }]);
    await wentOffline;
    await client.idle();
    expect((await onlyUpload()).state).toBe('paused');
    await vi.waitFor(() => expect([...transfer.spool!]).toEqual([]));

    transfer.onPut = null;
    server.isOffline = false;
    client.context.requestUploads();
    await client.idle();
    expect(await onlyUpload()).toMatchObject({ state: 'done', sentBytes: size });
    await vi.waitFor(() => expect([...transfer.spool!]).toEqual([]));
  });
});

describe('[R14] one record write per chunk', () => {
  it('each further chunk costs one write of the upload record (its hashes with the progress before it)', async () => {
    const vaultId = await privateVault();
    const put = vi.spyOn(db.uploads, 'put');
    const writesFor = async (name: string, chunks: number) => {
      put.mockClear();
      await actions.uploadFiles(vaultId, null, [{ file: file(name, bytes(chunks * CHUNK_SIZE - 5)) }]);
      await client.idle();
      expect((await getUploads(db, USER.id)).find((u) => u.name === name)).toMatchObject({ state: 'done', sentBytes: chunks * CHUNK_SIZE - 5 });
      return put.mock.calls.length;
    };
    const one = await writesFor('one.bin', 1);
    expect(await writesFor('six.bin', 6)).toBe(one + 5);
  });
});

describe('[R14] files sent at once', () => {
  /**
   * Runs `start` (which sets `files` sending) with every PUT held at its start; answers how many
   * were started before the first was let through, once all of `files` are done.
   */
  async function putsAtOnce(files: File[], start: () => Promise<unknown>): Promise<number> {
    let started = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    transfer.onPut = async () => {
      started += 1;
      await gate;
    };
    await start();
    // Until PUTs have started and no more start.
    for (let seen = -1; started === 0 || seen !== started; ) {
      seen = started;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const atOnce = started;
    transfer.onPut = null;
    release();
    await client.idle();
    const names = new Set(files.map((f) => f.name));
    expect((await getUploads(db, USER.id)).filter((u) => names.has(u.name)).map((u) => u.state)).toEqual(files.map(() => 'done'));
    return atOnce;
  }

  it('larger files go FILES_AT_ONCE at a time; small files resumed alone go SMALL_FILES_AT_ONCE at a time', async () => {
    const vaultId = await privateVault();
    const larger = Array.from({ length: FILES_AT_ONCE + 2 }, (_, i) => file(`larger-${i}.bin`, bytes(SMALL_FILE_BYTES + 1, i)));
    expect(await putsAtOnce(larger, () => actions.uploadFiles(vaultId, null, larger.map((f) => ({ file: f }))))).toBe(FILES_AT_ONCE);
    // Small uploads interrupted in a group go on one at a time (with the checks of a resume).
    const small = Array.from({ length: SMALL_FILES_AT_ONCE + 5 }, (_, i) => file(`small-${i}.txt`, bytes(1_000, i)));
    transfer.failIndexOnce = 0;
    await actions.uploadFiles(vaultId, null, small.map((f) => ({ file: f })));
    await client.idle();
    expect((await getUploads(db, USER.id)).filter((u) => u.name.startsWith('small-')).map((u) => u.state)).toEqual(small.map(() => 'paused'));
    transfer.failIndexOnce = null;
    expect(
      await putsAtOnce(small, async () => {
        void client.syncNow();
      }),
    ).toBe(SMALL_FILES_AT_ONCE);
  });
});

describe('[R14] a pick of many small files goes a group at a time', () => {
  const pick = (count: number, prefix = 'note') => Array.from({ length: count }, (_, i) => file(`${prefix}-${String(i).padStart(3, '0')}.txt`, bytes(2_000 + i, i)));

  async function expectOnServer(vaultId: string, files: File[]) {
    const nodes = await getChildren(db, USER.id, vaultId, null);
    for (const f of files) {
      const node = nodes.find((n) => n.name === f.name);
      expect(node, f.name).toBeDefined();
      expect(await sameBytes(await actions.downloadFile(vaultId, node!.id), new Uint8Array(await f.arrayBuffer())), f.name).toBe(true);
    }
  }

  it('one announcement and one request per group; every file arrives whole, its operation pushed once', async () => {
    const vaultId = await privateVault();
    const files = pick(GROUP_FILES_MAX + 5);
    await actions.uploadFiles(vaultId, null, files.map((f) => ({ file: f })));
    await client.syncNow();
    expect((await getUploads(db, USER.id)).map((u) => u.state)).toEqual(files.map(() => 'done'));
    expect(server.batchAnnouncements).toBe(2);
    // Two groups, sent at once.
    expect([...transfer.batches].sort((a, b) => a - b)).toEqual([5, GROUP_FILES_MAX]);
    expect(transfer.putBytes).toBe(files.reduce((sum, f) => sum + f.size + CHUNK_TAG_BYTES, 0));
    // Signed and pushed: the server holds every file operation, once.
    const created = server.vaults.get(vaultId)!.ops.filter((o) => o.op.body.type === 'file.create').map((o) => o.op.objectId);
    expect([...created].sort()).toEqual((await getUploads(db, USER.id)).map((u) => u.fileId).sort());
    expect(await db.outbox.count()).toBe(0);
    expect(await db.uploadFiles.count()).toBe(0);
    await expectOnServer(vaultId, files);
  });

  it('a group interrupted on the wire resumes file by file, each chunk sent at most once more', async () => {
    const vaultId = await privateVault();
    const files = pick(10);
    transfer.crashDuring = 0;
    await actions.uploadFiles(vaultId, null, files.map((f) => ({ file: f })));
    await client.idle();
    const paused = await getUploads(db, USER.id);
    // The keys and hashes were recorded before the bytes left.
    expect(paused.map((u) => [u.state, Boolean(u.sealedFileKey), Boolean(u.chunkHashes[0])])).toEqual(files.map(() => ['paused', true, true]));
    const firstTry = transfer.putBytes;
    server.isOffline = false;
    reload();
    await client.syncNow();
    expect((await getUploads(db, USER.id)).map((u) => u.state)).toEqual(files.map(() => 'done'));
    expect(earlierPutBytes).toBe(firstTry);
    expect(transfer.putBytes).toBeLessThanOrEqual(firstTry);
    await expectOnServer(vaultId, files);
  });

  it('when the group does not fit the storage left, each file asks alone: those that fit go up, the others fail with the message', async () => {
    const vaultId = await privateVault();
    const files = pick(6);
    const stored = (f: File) => f.size + CHUNK_TAG_BYTES;
    expect(server.blobs.size).toBe(0);
    server.cloudTotal = stored(files[0]!) + stored(files[1]!) + 1;
    await actions.uploadFiles(vaultId, null, files.map((f) => ({ file: f })));
    await client.syncNow();
    const uploads = [...(await getUploads(db, USER.id))].sort((a, b) => a.createdAt - b.createdAt);
    expect(uploads.map((u) => u.state)).toEqual(['done', 'done', 'failed', 'failed', 'failed', 'failed']);
    expect(uploads[2]!.error).toBe(NOT_ENOUGH_STORAGE_MESSAGE);
    await expectOnServer(vaultId, files.slice(0, 2));
  });

  it('a file cancelled while its group is being sealed is not sent; the others are', async () => {
    const vaultId = await privateVault();
    const files = pick(5);
    const seal = transfer.sealChunk.bind(transfer);
    let cancelled = false;
    vi.spyOn(transfer, 'sealChunk').mockImplementation(async (request) => {
      if (!cancelled) {
        cancelled = true;
        const third = [...(await getUploads(db, USER.id))].sort((a, b) => a.createdAt - b.createdAt)[2]!;
        await actions.cancelUpload(third.uploadId);
      }
      return seal(request);
    });
    await actions.uploadFiles(vaultId, null, files.map((f) => ({ file: f })));
    await client.syncNow();
    const uploads = [...(await getUploads(db, USER.id))].sort((a, b) => a.createdAt - b.createdAt);
    expect(uploads.map((u) => u.state)).toEqual(['done', 'done', 'cancelled', 'done', 'done']);
    expect(transfer.batches).toEqual([4]);
    expect((await getChildren(db, USER.id, vaultId, null)).map((n) => n.name).sort()).toEqual([files[0]!, files[1]!, files[3]!, files[4]!].map((f) => f.name));
  });
});

describe('[R3] paused while offline or the server is unreachable, going on by itself', () => {
  function stubBrowser(isOnline: boolean) {
    const win = new EventTarget();
    const nav = { onLine: isOnline, userAgent: 'node' };
    vi.stubGlobal('window', win);
    vi.stubGlobal('navigator', nav);
    vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
    return {
      goOffline: () => {
        nav.onLine = false;
        win.dispatchEvent(new Event('offline'));
      },
      goOnline: () => {
        nav.onLine = true;
        win.dispatchEvent(new Event('online'));
      },
      setOnLine: (value: boolean) => {
        nav.onLine = value;
      },
    };
  }

  it('an upload picked offline waits paused, and goes on when the browser is online again', async () => {
    const vaultId = await privateVault();
    stopSync();
    const browser = stubBrowser(true);
    start();
    browser.setOnLine(false);
    const content = bytes(2 * CHUNK_SIZE + 3, 4);
    await actions.uploadFiles(vaultId, null, [{ file: file('offline.bin', content) }]);
    await client.idle();
    expect(await onlyUpload()).toMatchObject({ state: 'paused', sentBytes: 0 });
    expect(transfer.putBytes).toBe(0);

    browser.goOnline();
    await client.idle();
    expect(await onlyUpload()).toMatchObject({ state: 'done' });
    const [node] = await getChildren(db, USER.id, vaultId, null);
    expect(await sameBytes(await actions.downloadFile(vaultId, node!.id), content)).toBe(true);
  });

  it('small files picked offline wait paused, and go a group at a time when the browser is online again', async () => {
    const vaultId = await privateVault();
    stopSync();
    const browser = stubBrowser(true);
    start();
    browser.setOnLine(false);
    const files = Array.from({ length: 20 }, (_, i) => file(`offline-${i}.txt`, bytes(1_000 + i, i)));
    await actions.uploadFiles(vaultId, null, files.map((f) => ({ file: f })));
    await client.idle();
    expect((await getUploads(db, USER.id)).map((u) => u.state)).toEqual(files.map(() => 'paused'));
    expect(transfer.putBytes).toBe(0);

    browser.goOnline();
    await client.idle();
    expect((await getUploads(db, USER.id)).map((u) => u.state)).toEqual(files.map(() => 'done'));
    // Nothing of them was sealed while offline: they are still fresh, so they go as one group.
    expect(transfer.batches).toEqual([files.length]);
    expect(transfer.sent).toHaveLength(files.length);
  });

  it('going offline mid-upload shows paused at once; back online it resumes without re-sending stored chunks', async () => {
    const vaultId = await privateVault();
    stopSync();
    const browser = stubBrowser(true);
    start();
    const states: string[] = [];
    transfer.onPut = async (index) => {
      if (index !== 1) return;
      transfer.onPut = null;
      server.isOffline = true;
      browser.goOffline();
      // The 'offline' handler marks the upload paused before the failed PUT comes back.
      await vi.waitFor(async () => expect((await onlyUpload()).state).toBe('paused'));
      states.push((await onlyUpload()).state);
    };
    const content = bytes(3 * CHUNK_SIZE, 6);
    await actions.uploadFiles(vaultId, null, [{ file: file('flaky.bin', content) }]);
    await client.idle();
    expect(states).toEqual(['paused']);
    expect(await onlyUpload()).toMatchObject({ state: 'paused', sentBytes: CHUNK_SIZE });

    server.isOffline = false;
    browser.goOnline();
    await client.idle();
    expect(await onlyUpload()).toMatchObject({ state: 'done' });
    expect(transfer.sent).toEqual([0, 1, 2]);
    const [node] = await getChildren(db, USER.id, vaultId, null);
    expect(await sameBytes(await actions.downloadFile(vaultId, node!.id), content)).toBe(true);
  });

  it('retries back off exponentially with jitter, up to a cap', () => {
    expect(retryDelayMs(1, () => 0)).toBe(500);
    expect(retryDelayMs(1, () => 1)).toBe(1_000);
    expect(retryDelayMs(3, () => 1)).toBe(4_000);
    expect(retryDelayMs(4, () => 0.5)).toBe(6_000);
    expect(retryDelayMs(50, () => 1)).toBe(MAX_RETRY_DELAY_MS);
  });
});

describe('[R4] cancelling', () => {
  it('stops sending, queues no file operation and releases the reservation on the server', async () => {
    const vaultId = await privateVault();
    await actions.uploadFiles(vaultId, null, [{ file: file('stop.bin', bytes(4 * CHUNK_SIZE)) }]);
    const { uploadId, blobId } = await onlyUpload();
    transfer.onPut = async (index) => {
      if (index === 1) await actions.cancelUpload(uploadId);
    };
    await client.syncNow();
    expect(transfer.sent).toEqual([0, 1]);
    expect(await onlyUpload()).toMatchObject({ state: 'cancelled', isReleased: true });
    expect(server.released).toEqual([blobId]);
    expect(server.blobs.has(blobId)).toBe(false);
    expect(await db.outbox.count()).toBe(0);
    expect(await getChildren(db, USER.id, vaultId, null)).toEqual([]);
  });

  it('a paused upload can be cancelled; the release waits for the server', async () => {
    const vaultId = await privateVault();
    await interruptedUpload(vaultId, 'later.bin', bytes(2 * CHUNK_SIZE), 1);
    const { uploadId, blobId } = await onlyUpload();
    await actions.cancelUpload(uploadId);
    await client.idle();
    expect(await onlyUpload()).toMatchObject({ state: 'cancelled', isReleased: false });
    expect(server.blobs.has(blobId)).toBe(true);

    server.isOffline = false;
    reload();
    await client.syncNow();
    expect(await onlyUpload()).toMatchObject({ state: 'cancelled', isReleased: true });
    expect(server.blobs.has(blobId)).toBe(false);
    expect(transfer.putBytes).toBe(0);
  });

  it('a finalising or finished upload is not cancelled', async () => {
    const vaultId = await privateVault();
    await actions.uploadFiles(vaultId, null, [{ file: file('kept.bin', bytes(100)) }]);
    await client.syncNow();
    const { uploadId } = await onlyUpload();
    await actions.cancelUpload(uploadId);
    await client.syncNow();
    expect(await onlyUpload()).toMatchObject({ state: 'done' });
    expect(server.released).toEqual([]);
    expect((await getChildren(db, USER.id, vaultId, null)).map((n) => n.name)).toEqual(['kept.bin']);
  });
});

describe('[R21] two tabs over one profile', () => {
  /** A second tab: its own queue and transfer pool over the same IndexedDB and server. */
  function secondTab(api: ApiClient, tabTransfer: FakeTransfer): SyncClient {
    const tab = new SyncClient({ db, api, crypto, transfer: tabTransfer, log: () => {} }, { pollIntervalMs: 0 });
    tab.start(USER.id, USER);
    return tab;
  }

  it('an upload finished by one tab stays finished when a slower tab fails on it afterwards', async () => {
    const vaultId = await privateVault();
    const content = bytes(2 * CHUNK_SIZE + 7, 8);
    const interrupted = await interruptedUpload(vaultId, 'shared.bin', content, 1);
    server.isOffline = false;

    // The second tab takes the paused upload up and stops at its announce, until released.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let announced!: () => void;
    const atAnnounce = new Promise<void>((resolve) => (announced = resolve));
    const slowApi: ApiClient = {
      ...server.api,
      post: async (path, body, schema) => {
        if (path.endsWith('/blobs')) {
          announced();
          await gate;
        }
        return server.api.post(path, body, schema);
      },
    };
    const tab = secondTab(slowApi, new FakeTransfer(server));
    try {
      tab.context.requestUploads();
      await atAnnounce;
      expect((await onlyUpload()).state).toBe('resuming');

      // The first tab finishes it meanwhile: file operation queued, the kept copy freed.
      client.context.requestUploads();
      await client.idle();
      expect(await onlyUpload()).toMatchObject({ state: 'done' });
      expect(await db.uploadFiles.get([USER.id, interrupted.uploadId])).toBeUndefined();

      // The second tab finds no copy of the file any more: the upload stays done, not failed.
      release();
      await tab.idle();
      expect(await onlyUpload()).toMatchObject({ state: 'done', error: null });
      await client.syncNow();
      // Pushed and accepted: nothing of it is left in the outbox.
      expect(await db.outbox.where('accountId').equals(USER.id).toArray()).toEqual([]);
      const [node] = await getChildren(db, USER.id, vaultId, null);
      expect(await sameBytes(await actions.downloadFile(vaultId, node!.id), content)).toBe(true);
    } finally {
      tab.stop();
    }
  });

  it('with Web Locks, the tabs take turns: the upload is sent once', async () => {
    // The part of the LockManager the queue uses: one holder per name, the others wait in order.
    const tails = new Map<string, Promise<unknown>>();
    const locks = {
      request: (name: string, work: () => Promise<unknown>) => {
        const run = (tails.get(name) ?? Promise.resolve()).then(work);
        tails.set(name, run.catch(() => undefined));
        return run;
      },
    };
    vi.stubGlobal('navigator', { onLine: true, userAgent: 'node', locks });
    const vaultId = await privateVault();
    const content = bytes(3 * CHUNK_SIZE + 1, 9);
    const otherTransfer = new FakeTransfer(server);
    const tab = secondTab(server.api, otherTransfer);
    try {
      await actions.uploadFiles(vaultId, null, [{ file: file('once.bin', content) }]);
      tab.context.requestUploads();
      await Promise.all([client.idle(), tab.idle()]);
      expect(await onlyUpload()).toMatchObject({ state: 'done' });
      expect(transfer.sent.length + otherTransfer.sent.length).toBe(4);
      await client.syncNow();
      const [node] = await getChildren(db, USER.id, vaultId, null);
      expect(await sameBytes(await actions.downloadFile(vaultId, node!.id), content)).toBe(true);
    } finally {
      tab.stop();
    }
  });
});
