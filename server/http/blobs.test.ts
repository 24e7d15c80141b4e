/** Uploads: announce, chunk PUT/GET, file versions that match what was uploaded, quota, freeing. */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, expect, it } from 'vitest';
import { BLOB_BATCH_LIMITS, BlobBatchStatusResponse, BlobStatusResponse, CHUNK_MAX_BYTES, CHUNK_SIZE, CHUNK_SIZES, StorageResponse, VAULT_LIMITS } from '../../src/protocol/vaults';
import { NOT_ENOUGH_STORAGE_MESSAGE } from '../services/BlobService';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { countVaultRows, expectAccepted, expectRejected, makeFile, newId, operationBytesOf, sealed, sha256Hex, VaultActor, versionOf } from '../testing/vaults';

const CLOUD_ALLOWANCE = 10 * CHUNK_SIZE;

function blobFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'blobs');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name);
}

describeEachDatabase('uploads', (env) => {
  let api: ApiClient;
  let owner: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp({ config: { storageAllowances: { cloud: CLOUD_ALLOWANCE, permanent: 2 * CHUNK_SIZE } } }));
    owner = await VaultActor.create(env, api);
  });

  /** The caller's figures, cloudUsed without the operation logs' share (opStorage.test.ts tests that): uploads only. */
  async function storage(actor = owner) {
    const figures = StorageResponse.parse((await api.get('/api/storage', { token: actor.token })).body);
    return { ...figures, cloudUsed: figures.cloudUsed - (await operationBytesOf(env.db, actor.userId)) };
  }

  it('keeps the spec allowances by default', async () => {
    const app = await env.buildApp();
    const other = await VaultActor.create(env, new ApiClient(app));
    expect(StorageResponse.parse((await new ApiClient(app).get('/api/storage', { token: other.token })).body)).toEqual({
      cloudTotal: VAULT_LIMITS.FREE_CLOUD_BYTES,
      cloudUsed: 0,
      permanentTotal: VAULT_LIMITS.FREE_PERMANENT_BYTES,
      permanentUsed: 0,
      cloudLogUsed: 0,
      permanentLogUsed: 0,
    });
    await app.close();
  });

  it('uploads chunks idempotently, checks hashes, and commits a file whose hashes match', async () => {
    const vaultId = await owner.createVault();
    const file = makeFile(CHUNK_SIZE + 1000);
    const [first, second] = file.chunks;
    if (!first || !second) throw new Error('two chunks expected');
    const blobId = newId();
    const announced = await owner.announce(vaultId, blobId, file.storedSize, 2);
    expect(BlobStatusResponse.parse(announced.body)).toEqual({ blobId, storedChunks: [], committed: false });
    expect((await storage()).cloudUsed).toBe(file.storedSize);

    expectError(await owner.putChunk(vaultId, blobId, 0, first, sha256Hex(second)), 422, 'UNPROCESSABLE');
    expectError(await owner.putChunk(vaultId, blobId, 2, first), 422, 'UNPROCESSABLE');
    expectStatus(await owner.putChunk(vaultId, blobId, 0, first), 200);
    expectStatus(await owner.putChunk(vaultId, blobId, 0, first), 200);
    expectError(await owner.putChunk(vaultId, blobId, 0, second), 409, 'CONFLICT');
    expect(BlobStatusResponse.parse((await owner.announce(vaultId, blobId, file.storedSize, 2)).body).storedChunks).toEqual([0]);

    // Not complete yet: file.create is refused and nothing changes.
    const version = versionOf(blobId, file, false);
    const fileId = newId();
    const before = await countVaultRows(env.db);
    expectRejected(await owner.apply(vaultId, fileId, { type: 'file.create', parentId: null, name: sealed(), version }), 'INVALID_OPERATION');
    expect(await countVaultRows(env.db)).toEqual(before);

    expectStatus(await owner.putChunk(vaultId, blobId, 1, second), 200);
    const status = await api.get(`/api/vaults/${vaultId}/blobs/${blobId}`, { token: owner.token });
    expect(BlobStatusResponse.parse(status.body)).toEqual({ blobId, storedChunks: [0, 1], committed: false });

    // Hashes that differ from what is stored are refused.
    const wrong = { ...version, chunkHashes: [version.chunkHashes[0] ?? '', sha256Hex(Buffer.from('other'))] };
    expectRejected(await owner.apply(vaultId, fileId, { type: 'file.create', parentId: null, name: sealed(), version: wrong }), 'INVALID_OPERATION');
    expectAccepted(await owner.apply(vaultId, fileId, { type: 'file.create', parentId: null, name: sealed(), version }));

    const chunk = await owner.getChunk(vaultId, blobId, 1);
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['content-type']).toBe('application/octet-stream');
    // Offline copies are the app's own (Cache Storage), never the HTTP cache's.
    expect(chunk.headers['cache-control']).toBe('no-store');
    expect(Buffer.compare(chunk.rawPayload, second)).toBe(0);
    expect(BlobStatusResponse.parse((await api.get(`/api/vaults/${vaultId}/blobs/${blobId}`, { token: owner.token })).body).committed).toBe(true);

    // A committed blob is one version only; a new version needs its own upload.
    expectRejected(await owner.apply(vaultId, fileId, { type: 'file.addVersion', version: { ...version, versionId: newId() } }), 'INVALID_OPERATION');
    const next = makeFile(10);
    const nextVersion = await owner.upload(vaultId, next);
    expectAccepted(await owner.apply(vaultId, fileId, { type: 'file.addVersion', version: nextVersion }));
    const node = await env.db.selectFrom('nodes').selectAll().where('id', '=', fileId).executeTakeFirstOrThrow();
    expect({ size: Number(node.size), count: Number(node.version_count), latest: node.latest_version_id }).toEqual({
      size: file.storedSize + next.storedSize,
      count: 2,
      latest: nextVersion.versionId,
    });
    const vault = await env.db.selectFrom('vaults').select('size').where('id', '=', vaultId).executeTakeFirstOrThrow();
    expect(Number(vault.size)).toBe(file.storedSize + next.storedSize);
  });

  it('keeps nothing of a chunk refused for its hash, its size or its index, and stores a good one whole', async () => {
    const vaultId = await owner.createVault();
    const file = makeFile(CHUNK_SIZE);
    const [chunk] = file.chunks;
    if (!chunk) throw new Error('one chunk expected');
    const blobId = newId();
    await owner.announce(vaultId, blobId, file.storedSize, 1);
    const hash = sha256Hex(chunk);
    // The blob's folder, temporary files included.
    const blobDir = path.join(env.dataDir, 'blobs', blobId);
    const filesOfBlob = () => (fs.existsSync(blobDir) ? fs.readdirSync(blobDir) : []);

    const flipped = Buffer.from(chunk);
    flipped[flipped.length - 1]! ^= 1;
    expectError(await owner.putChunk(vaultId, blobId, 0, flipped, hash), 422, 'UNPROCESSABLE');
    expectError(await owner.putChunk(vaultId, blobId, 0, Buffer.concat([chunk, Buffer.alloc(CHUNK_MAX_BYTES - chunk.length + 1)])), 413, 'PAYLOAD_TOO_LARGE');
    expectError(await owner.putChunk(vaultId, blobId, 1, chunk), 422, 'UNPROCESSABLE');
    // Sent without a length (chunked): stopped once past a chunk's bytes.
    const unannounced = await api.app.inject({
      method: 'PUT',
      url: `/api/vaults/${vaultId}/blobs/${blobId}/chunks/0`,
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/octet-stream', 'x-chunk-sha256': hash },
      payload: Readable.from([chunk, Buffer.alloc(CHUNK_MAX_BYTES)]),
    });
    expect(unannounced.statusCode).toBe(413);
    expect(unannounced.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    // The rest of the body is not read: the connection closes after the answer.
    expect(unannounced.headers.connection).toBe('close');
    expect(filesOfBlob()).toEqual([]);
    expect(BlobStatusResponse.parse((await api.get(`/api/vaults/${vaultId}/blobs/${blobId}`, { token: owner.token })).body).storedChunks).toEqual([]);

    expectStatus(await owner.putChunk(vaultId, blobId, 0, chunk), 200);
    expectStatus(await owner.putChunk(vaultId, blobId, 0, chunk), 200);
    expect(filesOfBlob()).toEqual([`0-${hash}`]);
    expect(Buffer.compare((await owner.getChunk(vaultId, blobId, 0)).rawPayload, chunk)).toBe(0);
  });

  it('commits versions in 4 MiB chunks (uploaded before chunks grew) and in CHUNK_SIZE chunks; a chunk count that does not fit the chunk size is refused', async () => {
    const vaultId = await owner.createVault();
    const [first, current] = CHUNK_SIZES;
    expect(first).toBe(4 * 1024 * 1024);
    const size = 2 * current + 10;
    for (const chunkSize of CHUNK_SIZES) {
      const file = makeFile(size, { chunkSize });
      expect(file.chunks.length).toBe(chunkSize === first ? 5 : 3);
      const version = await owner.upload(vaultId, file);
      expect(version.chunkSize).toBe(chunkSize);
      expectAccepted(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version }));
      const last = await owner.getChunk(vaultId, version.blobId, file.chunks.length - 1);
      expect(Buffer.compare(last.rawPayload, file.chunks.at(-1)!)).toBe(0);
    }
    // The same 4 MiB chunks signed as CHUNK_SIZE chunks do not add up, and another size is no format.
    const small = makeFile(size, { chunkSize: first });
    const version = await owner.upload(vaultId, small);
    const before = await countVaultRows(env.db);
    expectRejected(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version: { ...version, chunkSize: current } }), 'INVALID_OPERATION');
    const odd = { ...version, chunkSize: (1024 * 1024) as typeof current };
    expectError(await owner.pushRaw([await owner.sign(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version: odd })]), 400, 'VALIDATION_FAILED');
    expect(await countVaultRows(env.db)).toEqual(before);
  });

  it('refuses a version whose sizes do not match its upload, or an upload by someone else', async () => {
    const vaultId = await owner.createVault();
    const file = makeFile(100);
    const version = await owner.upload(vaultId, file);
    expectRejected(
      await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version: { ...version, size: 99 } }),
      'INVALID_OPERATION',
    );
    expectRejected(
      await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version: { ...version, blobId: newId() } }),
      'INVALID_OPERATION',
    );
    // Chunks never add up to more than announced.
    const blobId = newId();
    expectStatus(await owner.announce(vaultId, blobId, 20, 1), 200);
    expectError(await owner.putChunk(vaultId, blobId, 0, Buffer.alloc(40)), 422, 'UNPROCESSABLE');
    // A body that is not octets is refused before anything else.
    const json = await api.request('PUT', `/api/vaults/${vaultId}/blobs/${blobId}/chunks/0`, { a: 1 }, { token: owner.token });
    expectError(json, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses an announcement beyond the allowance with NOT_ENOUGH_STORAGE and reserves nothing', async () => {
    const actor = await VaultActor.create(env, api);
    const vaultId = await actor.createVault();
    // Both vaults first: their logs take cloud storage too, and the cloud is filled below.
    const permanentId = await actor.createVault({ isCloud: false });
    const logs = await operationBytesOf(env.db, actor.userId);
    expectStatus(await actor.announce(vaultId, newId(), CLOUD_ALLOWANCE - logs - 100, 10), 200);
    const before = await countVaultRows(env.db);
    const refused = await actor.announce(vaultId, newId(), 101, 1);
    expectError(refused, 422, 'NOT_ENOUGH_STORAGE');
    expect(JSON.stringify(refused.body)).toContain(NOT_ENOUGH_STORAGE_MESSAGE);
    expect(await countVaultRows(env.db)).toEqual(before);
    expect((await storage(actor)).cloudUsed).toBe(CLOUD_ALLOWANCE - logs - 100);
    expectStatus(await actor.announce(vaultId, newId(), 100, 1), 200);

    // Permanent vaults count against the permanent allowance.
    expectError(await actor.announce(permanentId, newId(), 2 * CHUNK_SIZE + 1, 3), 422, 'NOT_ENOUGH_STORAGE');
    expectStatus(await actor.announce(permanentId, newId(), 100, 1), 200);
    expect(await storage(actor)).toMatchObject({ cloudUsed: CLOUD_ALLOWANCE - logs, permanentUsed: 100 });
  });

  it('announces a group of small uploads in one request, all of them or none, and stores their chunks from one body', async () => {
    const actor = await VaultActor.create(env, api);
    const vaultId = await actor.createVault();
    const files = [makeFile(10), makeFile(2_000), makeFile(0)];
    const blobIds = files.map(() => newId());
    const blobs = files.map((file, i) => ({ blobId: blobIds[i]!, storedSize: file.storedSize, chunkCount: 1 }));
    // A stranger may not; nothing is reserved.
    const stranger = await VaultActor.create(env, api);
    expectError(await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs }, { token: stranger.token }), 404, 'NOT_FOUND');
    const announced = await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs }, { token: actor.token });
    expectStatus(announced, 200);
    expect(BlobBatchStatusResponse.parse(announced.body).blobs).toEqual(blobIds.map((blobId) => ({ blobId, storedChunks: [], committed: false })));
    expect((await storage(actor)).cloudUsed).toBe(files.reduce((sum, f) => sum + f.storedSize, 0));

    expectError(await stranger.putChunkBatch(vaultId, files.map((file, i) => ({ blobId: blobIds[i]!, bytes: file.chunks[0]! }))), 404, 'NOT_FOUND');
    expectStatus(await actor.putChunkBatch(vaultId, files.map((file, i) => ({ blobId: blobIds[i]!, bytes: file.chunks[0]! }))), 200);
    // Again: the same bytes are accepted, as a PUT's are.
    expectStatus(await actor.putChunkBatch(vaultId, files.map((file, i) => ({ blobId: blobIds[i]!, bytes: file.chunks[0]! }))), 200);
    const again = BlobBatchStatusResponse.parse((await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs }, { token: actor.token })).body);
    expect(again.blobs.map((b) => b.storedChunks)).toEqual([[0], [0], [0]]);
    for (const [i, file] of files.entries()) {
      expect(Buffer.compare((await actor.getChunk(vaultId, blobIds[i]!, 0)).rawPayload, file.chunks[0]!)).toBe(0);
      expectAccepted(await actor.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version: versionOf(blobIds[i]!, file, false) }));
    }

    // A group that does not fit together reserves none of its uploads.
    const room = CLOUD_ALLOWANCE - (await operationBytesOf(env.db, actor.userId)) - (await storage(actor)).cloudUsed;
    const before = await countVaultRows(env.db);
    const tooMuch = await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs: [{ blobId: newId(), storedSize: room - 10, chunkCount: Math.ceil((room - 10) / CHUNK_SIZE) }, { blobId: newId(), storedSize: 11, chunkCount: 1 }] }, { token: actor.token });
    expectError(tooMuch, 422, 'NOT_ENOUGH_STORAGE');
    expect(await countVaultRows(env.db)).toEqual(before);
    expectStatus(await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs: [{ blobId: newId(), storedSize: room - 10, chunkCount: Math.ceil((room - 10) / CHUNK_SIZE) }, { blobId: newId(), storedSize: 10, chunkCount: 1 }] }, { token: actor.token }), 200);
    // The same upload twice in one group, or more than the limit, is refused before anything is read.
    const twice = { blobId: newId(), storedSize: 1, chunkCount: 1 };
    expectError(await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs: [twice, twice] }, { token: actor.token }), 400, 'VALIDATION_FAILED');
    const many = Array.from({ length: BLOB_BATCH_LIMITS.ITEMS_MAX + 1 }, () => ({ blobId: newId(), storedSize: 0, chunkCount: 1 }));
    expectError(await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs: many }, { token: actor.token }), 400, 'VALIDATION_FAILED');
  });

  it('refuses a chunk batch whose manifest or bytes are wrong, keeping nothing of the refused chunk', async () => {
    const actor = await VaultActor.create(env, api);
    const vaultId = await actor.createVault();
    const [good, bad] = [makeFile(100), makeFile(200)];
    const [goodId, badId] = [newId(), newId()];
    expectStatus(await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs: [{ blobId: goodId, storedSize: good.storedSize, chunkCount: 1 }, { blobId: badId, storedSize: bad.storedSize, chunkCount: 1 }] }, { token: actor.token }), 200);
    const chunks = [{ blobId: goodId, bytes: good.chunks[0]! }, { blobId: badId, bytes: bad.chunks[0]!, sha256: sha256Hex(Buffer.from('other')) }];
    // Bytes beyond what the manifest names, a manifest that is not JSON, or one of another shape.
    expectError(await actor.putChunkBatch(vaultId, chunks.slice(0, 1), { extra: Buffer.from('more') }), 400, 'VALIDATION_FAILED');
    expectError(await actor.putChunkBatch(vaultId, chunks.slice(0, 1), { manifest: '{' }), 400, 'VALIDATION_FAILED');
    expectError(await actor.putChunkBatch(vaultId, chunks.slice(0, 1), { manifest: { chunks: [{ blobId: goodId, index: -1, size: 1, sha256: 'x' }] } }), 400, 'VALIDATION_FAILED');
    expect(BlobBatchStatusResponse.parse((await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs: [{ blobId: goodId, storedSize: good.storedSize, chunkCount: 1 }] }, { token: actor.token })).body).blobs[0]!.storedChunks).toEqual([]);
    // A chunk whose bytes do not match its hash refuses the request; the one before it is kept.
    expectError(await actor.putChunkBatch(vaultId, chunks), 422, 'UNPROCESSABLE');
    const status = BlobBatchStatusResponse.parse(
      (await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs: [{ blobId: goodId, storedSize: good.storedSize, chunkCount: 1 }, { blobId: badId, storedSize: bad.storedSize, chunkCount: 1 }] }, { token: actor.token })).body,
    );
    expect(status.blobs.map((b) => b.storedChunks)).toEqual([[0], []]);
    expect(blobFiles(env.dataDir).filter((name) => name.endsWith(sha256Hex(Buffer.from('other'))))).toEqual([]);
    // As JSON, the route does not take it at all.
    expect((await api.post(`/api/vaults/${vaultId}/blobs/chunks`, { chunks: [] }, { token: actor.token })).status).toBe(415);
    // Signed out, neither route answers.
    expectError(await api.post(`/api/vaults/${vaultId}/blobs/batch`, { blobs: [{ blobId: newId(), storedSize: 1, chunkCount: 1 }] }), 401, 'UNAUTHENTICATED');
    expectError(await new VaultActor(api, actor.user, '', actor.userId).putChunkBatch(vaultId, chunks.slice(0, 1)), 401, 'UNAUTHENTICATED');
  });

  it('releases a cancelled upload: its reservation and chunk files go, a second release is harmless', async () => {
    const actor = await VaultActor.create(env, api);
    const vaultId = await actor.createVault();
    const file = makeFile(CHUNK_SIZE + 10);
    const blobId = newId();
    expectStatus(await actor.announce(vaultId, blobId, file.storedSize, 2), 200);
    expectStatus(await actor.putChunk(vaultId, blobId, 0, file.chunks[0]!), 200);
    expect((await storage(actor)).cloudUsed).toBe(file.storedSize);
    const chunkHash = sha256Hex(file.chunks[0]!);
    expect(blobFiles(env.dataDir).filter((name) => name.endsWith(chunkHash))).toHaveLength(1);

    // Nobody else may release it.
    const other = await VaultActor.create(env, api);
    expectError(await api.request('DELETE', `/api/vaults/${vaultId}/blobs/${blobId}`, undefined, { token: other.token }), 404, 'NOT_FOUND');

    expectStatus(await api.request('DELETE', `/api/vaults/${vaultId}/blobs/${blobId}`, undefined, { token: actor.token }), 200);
    expect((await storage(actor)).cloudUsed).toBe(0);
    expect(blobFiles(env.dataDir).filter((name) => name.endsWith(chunkHash))).toEqual([]);
    expectStatus(await api.request('DELETE', `/api/vaults/${vaultId}/blobs/${blobId}`, undefined, { token: actor.token }), 200);
    expectError(await actor.putChunk(vaultId, blobId, 1, file.chunks[1]!), 404, 'NOT_FOUND');

    // A committed upload is a file version: it is not released.
    const version = await actor.upload(vaultId, makeFile(100));
    expectAccepted(await actor.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version }));
    expectError(await api.request('DELETE', `/api/vaults/${vaultId}/blobs/${version.blobId}`, undefined, { token: actor.token }), 409, 'CONFLICT');
    expect((await actor.getChunk(vaultId, version.blobId, 0)).statusCode).toBe(200);
  });

  it('frees the bytes of every version under a deleted folder in a cloud vault', async () => {
    const actor = await VaultActor.create(env, api);
    const vaultId = await actor.createVault();
    const folder = newId();
    expectAccepted(await actor.apply(vaultId, folder, { type: 'folder.create', parentId: null, name: sealed() }));
    const fileId = newId();
    const v1 = await actor.upload(vaultId, makeFile(1000));
    expectAccepted(await actor.apply(vaultId, fileId, { type: 'file.create', parentId: folder, name: sealed(), version: v1 }));
    const v2 = await actor.upload(vaultId, makeFile(2000));
    expectAccepted(await actor.apply(vaultId, fileId, { type: 'file.addVersion', version: v2 }));
    expect((await storage(actor)).cloudUsed).toBe(v1.storedSize + v2.storedSize);
    const before = blobFiles(env.dataDir);
    const hashes = [...v1.chunkHashes, ...v2.chunkHashes];
    expect(before.filter((name) => hashes.some((h) => name.endsWith(h)))).toHaveLength(2);

    expectAccepted(await actor.apply(vaultId, folder, { type: 'node.hide' }));
    expectAccepted(await actor.apply(vaultId, folder, { type: 'node.delete' }));
    expect((await storage(actor)).cloudUsed).toBe(0);
    expect(blobFiles(env.dataDir).filter((name) => hashes.some((h) => name.endsWith(h)))).toEqual([]);
    expect((await actor.getChunk(vaultId, v1.blobId, 0)).statusCode).toBe(404);
    const file = await env.db.selectFrom('nodes').select('status').where('id', '=', fileId).executeTakeFirstOrThrow();
    expect(file.status).toBe('DELETED');
  });

  it('keeps the bytes of a cleared file in a permanent vault', async () => {
    const actor = await VaultActor.create(env, api);
    const vaultId = await actor.createVault({ isCloud: false });
    const fileId = newId();
    const version = await actor.upload(vaultId, makeFile(500));
    expectAccepted(await actor.apply(vaultId, fileId, { type: 'file.create', parentId: null, name: sealed(), version }));
    expectAccepted(await actor.apply(vaultId, fileId, { type: 'node.hide' }));
    expectAccepted(await actor.apply(vaultId, fileId, { type: 'node.delete' }));
    expect((await storage(actor)).permanentUsed).toBe(version.storedSize);
    expect((await actor.getChunk(vaultId, version.blobId, 0)).statusCode).toBe(200);
  });

  it('lets a public vault store clear chunks with no file key', async () => {
    const vaultId = await owner.createVault({ isPublic: true });
    const file = makeFile(0, { isPublic: true });
    const version = await owner.upload(vaultId, file, { isPublic: true });
    expect(version.storedSize).toBe(0);
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: { clear: 'empty.txt' }, version }));
  });
});
