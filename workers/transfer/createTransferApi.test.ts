import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chunkHeaderFor, storedFileSize } from '../../src/crypto/fileChunks';
import { randomBytes } from '../../src/crypto/random';
import { CHUNK_SIZE } from '../../src/protocol/vaults';
import { createTransferApi } from './createTransferApi';
import type { ChunkHeader } from './TransferApi';

/**
 * The blob store port as the server exposes it (PUT/GET /api/vaults/{v}/blobs/{b}/chunks/{i}),
 * in memory: checks `x-chunk-sha256` like the server, 409 for different bytes at a stored index.
 */
function createFakeChunkServer() {
  const chunks = new Map<string, Uint8Array>();
  const requests: Array<{ method: string; url: string; headers: Record<string, string>; credentials?: RequestCredentials }> = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    requests.push({ method, url, headers, credentials: init?.credentials });
    if (method === 'PUT') {
      const body = new Uint8Array(await new Response(init?.body).arrayBuffer());
      if (createHash('sha256').update(body).digest('hex') !== headers['x-chunk-sha256']) return new Response(null, { status: 422 });
      const old = chunks.get(url);
      if (old && Buffer.compare(old, body) !== 0) return new Response(null, { status: 409 });
      chunks.set(url, body);
      return new Response(null, { status: 204 });
    }
    const stored = chunks.get(url);
    return stored ? new Response(stored.slice(), { status: 200 }) : new Response(null, { status: 404 });
  };
  return { fetch, chunks, requests };
}

const urlOf = (index: number) => `/api/vaults/v1/blobs/b1/chunks/${index}`;

type Api = ReturnType<typeof createTransferApi>;

/** Seals then sends one chunk, as the upload queue does; answers the receipt. */
async function uploadChunk(api: Api, file: Blob, index: number, header: ChunkHeader, rawKey: ArrayBuffer | null) {
  const sealed = await api.sealChunk({ file, index, header, rawKey, spoolScope: 'acc' });
  await api.putChunk({ body: sealed.body, sha256: sealed.sha256, url: urlOf(index) });
  return { sha256: sealed.sha256, storedSize: sealed.storedSize };
}

async function uploadAll(api: Api, file: Blob, header: ChunkHeader, rawKey: ArrayBuffer | null) {
  const receipts: Array<{ sha256: string; storedSize: number }> = [];
  for (let index = 0; index < header.chunkCount; index += 1) receipts.push(await uploadChunk(api, file, index, header, rawKey));
  return receipts;
}

async function downloadAll(api: ReturnType<typeof createTransferApi>, header: ChunkHeader, rawKey: ArrayBuffer | null, hashes: string[]) {
  const parts: Uint8Array[] = [];
  for (let index = 0; index < header.chunkCount; index += 1) {
    parts.push(new Uint8Array(await api.downloadChunk({ index, header, rawKey, url: urlOf(index), expectedSha256: hashes[index]! })));
  }
  return new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
}

describe('transfer worker API', () => {
  it('uploads every chunk of a file of two chunks and a bit encrypted, then downloads the same bytes', async () => {
    const server = createFakeChunkServer();
    const api = createTransferApi({ fetch: server.fetch });
    const content = randomBytes(2 * CHUNK_SIZE + 2 * 1024 * 1024);
    const file = new Blob([content]);
    const header = chunkHeaderFor(file.size, CHUNK_SIZE);
    expect(header.chunkCount).toBe(3);
    const rawKey = randomBytes(32).buffer;

    const receipts = await uploadAll(api, file, header, rawKey);
    expect(receipts.reduce((n, r) => n + r.storedSize, 0)).toBe(storedFileSize(header, true));
    for (const [index, receipt] of receipts.entries()) {
      const stored = server.chunks.get(urlOf(index))!;
      expect(createHash('sha256').update(stored).digest('hex')).toBe(receipt.sha256);
      // Nothing of the plaintext reaches the server.
      expect(Buffer.from(stored).includes(Buffer.from(content.subarray(index * CHUNK_SIZE, index * CHUNK_SIZE + 64)))).toBe(false);
    }
    expect(server.requests[0]).toMatchObject({
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/octet-stream', 'x-chunk-sha256': receipts[0]!.sha256 },
    });

    // A retried chunk re-seals identical bytes: the idempotent PUT is accepted again.
    expect(await uploadChunk(api, file, 1, header, rawKey)).toEqual(receipts[1]);
    // Sealing alone sends nothing.
    const requestCount = server.requests.length;
    await api.sealChunk({ file, index: 2, header, rawKey, spoolScope: 'acc' });
    expect(server.requests).toHaveLength(requestCount);

    const downloaded = await downloadAll(api, header, rawKey, receipts.map((r) => r.sha256));
    expect(Buffer.compare(downloaded, content)).toBe(0);
  });

  it('public vaults store the clear bytes; an empty file is one empty chunk', async () => {
    const server = createFakeChunkServer();
    const api = createTransferApi({ fetch: server.fetch });
    const content = new TextEncoder().encode('hello, public world');
    const header = chunkHeaderFor(content.length, 8);
    const receipts = await uploadAll(api, new Blob([content]), header, null);
    expect(server.chunks.get(urlOf(0))).toEqual(content.subarray(0, 8));
    expect(await downloadAll(api, header, null, receipts.map((r) => r.sha256))).toEqual(content);

    server.chunks.clear();
    const empty = chunkHeaderFor(0, 8);
    const rawKey = randomBytes(32).buffer;
    const [receipt] = await uploadAll(api, new Blob([]), empty, rawKey);
    expect(receipt!.storedSize).toBe(16);
    expect(await downloadAll(api, empty, rawKey, [receipt!.sha256])).toEqual(new Uint8Array(0));
  });

  it('a tampered stored chunk gives CHUNK_TAMPERED, whether or not its hash was replaced too', async () => {
    const server = createFakeChunkServer();
    const api = createTransferApi({ fetch: server.fetch });
    const header = chunkHeaderFor(40, 16);
    const rawKey = randomBytes(32).buffer;
    const receipts = await uploadAll(api, new Blob([randomBytes(40)]), header, rawKey);
    const stored = server.chunks.get(urlOf(1))!;
    stored[3]! ^= 1;
    const request = { index: 1, header, rawKey, url: urlOf(1), expectedSha256: receipts[1]!.sha256 };
    await expect(api.downloadChunk(request)).rejects.toThrow('CHUNK_TAMPERED');
    // Even with a matching hash (e.g. a forged receipt), authentication still fails.
    const forgedHash = createHash('sha256').update(stored).digest('hex');
    await expect(api.downloadChunk({ ...request, expectedSha256: forgedHash })).rejects.toThrow('CHUNK_TAMPERED');
    // Chunks swapped on the server: hashes differ, and with swapped hashes the nonce differs.
    server.chunks.set(urlOf(1), server.chunks.get(urlOf(0))!);
    await expect(api.downloadChunk({ ...request, expectedSha256: receipts[0]!.sha256 })).rejects.toThrow('CHUNK_TAMPERED');
  });

  it('reads a body that arrives in pieces, and refuses one a byte longer or shorter than the signed chunk', async () => {
    const server = createFakeChunkServer();
    const header = chunkHeaderFor(40, 16);
    const rawKey = randomBytes(32).buffer;
    const plain = randomBytes(40);
    const receipts = await uploadAll(createTransferApi({ fetch: server.fetch }), new Blob([plain]), header, rawKey);
    /** Serves `bytes` for every GET, 3 bytes at a time, as a network stream does. */
    const servedInPieces = (bytes: Uint8Array): typeof fetch => async () => {
      let at = 0;
      const body = new ReadableStream({
        type: 'bytes',
        pull(controller) {
          if (at >= bytes.length) {
            // A read waiting with its own buffer is answered with no bytes: the end.
            controller.close();
            return controller.byobRequest?.respond(0);
          }
          controller.enqueue(bytes.slice(at, at + 3));
          at += 3;
        },
      });
      return new Response(body, { status: 200 });
    };
    const sealed = server.chunks.get(urlOf(1))!;
    const request = { index: 1, header, rawKey, url: urlOf(1), expectedSha256: receipts[1]!.sha256 };
    const opened = await createTransferApi({ fetch: servedInPieces(sealed) }).downloadChunk(request);
    expect(new Uint8Array(opened)).toEqual(plain.slice(16, 32));
    // The signed bytes followed by one more: the body is not the chunk, even though it starts with it.
    const longer = new Uint8Array([...sealed, 0]);
    await expect(createTransferApi({ fetch: servedInPieces(longer) }).downloadChunk(request)).rejects.toThrow('CHUNK_TAMPERED');
    const shorter = sealed.slice(0, -1);
    await expect(createTransferApi({ fetch: servedInPieces(shorter) }).downloadChunk(request)).rejects.toThrow('CHUNK_TAMPERED');
  });

  it('reports failed requests and a changed source file', async () => {
    const server = createFakeChunkServer();
    const api = createTransferApi({ fetch: server.fetch });
    const header = chunkHeaderFor(20, 16);
    await expect(api.downloadChunk({ index: 0, header, rawKey: null, url: urlOf(0), expectedSha256: '00'.repeat(32) }))
      .rejects.toThrow('DOWNLOAD_FAILED: 404');
    await uploadAll(api, new Blob([randomBytes(20)]), header, null);
    await expect(uploadChunk(api, new Blob([randomBytes(20)]), 0, header, null)).rejects.toThrow('UPLOAD_FAILED: 409');
    await expect(api.sealChunk({ file: new Blob([randomBytes(21)]), index: 0, header, rawKey: null, spoolScope: 'acc' })).rejects.toThrow('FILE_CHANGED');
    await expect(api.sealChunk({ file: new Blob([randomBytes(20)]), index: 2, header, rawKey: null, spoolScope: 'acc' })).rejects.toThrow(RangeError);
    // A file the browser can no longer read (changed or deleted on disk since it was picked).
    const unreadable = new Blob([randomBytes(20)]);
    unreadable.slice = () => ({ arrayBuffer: () => Promise.reject(new DOMException('gone', 'NotReadableError')) }) as unknown as Blob;
    await expect(api.sealChunk({ file: unreadable, index: 0, header, rawKey: null, spoolScope: 'acc' })).rejects.toThrow('FILE_UNREADABLE');
  });

  it('hashChunk gives the receipt sealChunk gave for the same plaintext only, and keeps nothing; a re-seal to another receipt is dropped (resume checks)', async () => {
    const kept: number[] = [];
    const spool = { keep: async (bytes: Uint8Array<ArrayBuffer>) => (kept.push(bytes.length), { body: new Blob([bytes]), name: null }), drop: async () => {}, clear: async () => {} };
    const api = createTransferApi({ fetch: createFakeChunkServer().fetch, spool });
    const content = randomBytes(40);
    const header = chunkHeaderFor(40, 16);
    const rawKey = randomBytes(32).buffer;
    const sealed = await api.sealChunk({ file: new Blob([content]), index: 1, header, rawKey, spoolScope: 'acc' });
    expect(kept).toEqual([16 + 16]);
    expect(await api.hashChunk({ file: new Blob([content]), index: 1, header, rawKey })).toBe(sealed.sha256);
    const changed = Buffer.from(content);
    changed[20]! ^= 1;
    expect(await api.hashChunk({ file: new Blob([changed]), index: 1, header, rawKey })).not.toBe(sealed.sha256);
    expect(await api.hashChunk({ file: new Blob([content]), index: 0, header, rawKey })).not.toBe(sealed.sha256);
    // A public vault's chunk is stored clear: its receipt is the plaintext's hash.
    expect(await api.hashChunk({ file: new Blob([content]), index: 2, header, rawKey: null })).toBe(createHash('sha256').update(content.subarray(32, 40)).digest('hex'));
    expect(kept).toHaveLength(1);
    // Sealed again on a resume: kept only when it seals to the receipt recorded before.
    await expect(api.sealChunk({ file: new Blob([changed]), index: 1, header, rawKey, spoolScope: 'acc', expectedSha256: sealed.sha256 })).rejects.toThrow('FILE_CHANGED');
    expect(kept).toHaveLength(1);
    expect((await api.sealChunk({ file: new Blob([content]), index: 1, header, rawKey, spoolScope: 'acc', expectedSha256: sealed.sha256 })).sha256).toBe(sealed.sha256);
    expect(kept).toHaveLength(2);
  });
});

describe('the spooled copy of a sealed chunk', () => {
  it('is removed before putChunk answers, sent or refused: the pool may end this worker as soon as it answers', async () => {
    const files = new Set<string>();
    let made = 0;
    const spool = {
      keep: async (bytes: Uint8Array<ArrayBuffer>) => {
        const name = `acc/${++made}.chunk`;
        files.add(name);
        return { body: new Blob([bytes]), name };
      },
      // A removal that takes a moment, as a file system's does.
      drop: async (name: string) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        files.delete(name);
      },
      clear: async () => files.clear(),
    };
    const server = createFakeChunkServer();
    const api = createTransferApi({ fetch: server.fetch, spool });
    const header = chunkHeaderFor(40, 16);
    const content = randomBytes(40);
    const sealed = await api.sealChunk({ file: new Blob([content]), index: 0, header, rawKey: null, spoolScope: 'acc' });
    expect([...files]).toEqual([sealed.spooled]);
    await api.putChunk({ body: sealed.body, sha256: sealed.sha256, url: urlOf(0), spooled: sealed.spooled });
    expect([...files]).toEqual([]);

    // Refused (other bytes at a stored index): the copy goes all the same.
    const other = await api.sealChunk({ file: new Blob([randomBytes(40)]), index: 0, header, rawKey: null, spoolScope: 'acc' });
    await expect(api.putChunk({ body: other.body, sha256: other.sha256, url: urlOf(0), spooled: other.spooled })).rejects.toThrow('UPLOAD_FAILED: 409');
    expect([...files]).toEqual([]);
  });
});

/** Cache Storage in memory, as much of it as the transfer API uses. */
function createMemoryCaches() {
  const stores = new Map<string, Map<string, Response>>();
  const open = async (name: string) => {
    let store = stores.get(name);
    if (!store) stores.set(name, (store = new Map()));
    const entries = store;
    return {
      match: async (url: RequestInfo | URL) => entries.get(String(url))?.clone(),
      put: async (url: RequestInfo | URL, response: Response) => void entries.set(String(url), response.clone()),
      delete: async (url: RequestInfo | URL) => entries.delete(String(url)),
    } as unknown as Cache;
  };
  return { caches: { open } as unknown as CacheStorage, stores };
}

describe('offline copies of chunks (SYNC_SPEC R15)', () => {
  async function uploaded() {
    const server = createFakeChunkServer();
    const content = randomBytes(CHUNK_SIZE + 999);
    const header = chunkHeaderFor(content.length, CHUNK_SIZE);
    const rawKey = randomBytes(32).buffer;
    const receipts = await uploadAll(createTransferApi({ fetch: server.fetch, caches: null }), new Blob([content]), header, rawKey);
    return { server, content, header, rawKey, hashes: receipts.map((r) => r.sha256) };
  }

  it('R15: a chunk opened once is kept encrypted in the cache and opens again with the network gone', async () => {
    const { server, content, header, rawKey, hashes } = await uploaded();
    const { caches, stores } = createMemoryCaches();
    let online = true;
    const fetch: typeof globalThis.fetch = (input, init) => (online ? server.fetch(input, init) : Promise.reject(new TypeError('Failed to fetch')));
    const api = createTransferApi({ fetch, caches });
    const open = async () => {
      const parts: Uint8Array[] = [];
      for (let index = 0; index < header.chunkCount; index += 1) {
        parts.push(new Uint8Array(await api.downloadChunk({ index, header, rawKey, url: urlOf(index), expectedSha256: hashes[index]!, cacheName: 'cairn-chunks-a1' })));
      }
      return Buffer.concat(parts);
    };
    expect(Buffer.compare(await open(), content)).toBe(0);
    // What is cached is the stored ciphertext, never the plaintext.
    const cached = Buffer.from(await stores.get('cairn-chunks-a1')!.get(urlOf(0))!.clone().arrayBuffer());
    expect(cached.equals(Buffer.from(server.chunks.get(urlOf(0))!))).toBe(true);
    expect(cached.includes(Buffer.from(content.subarray(0, 64)))).toBe(false);

    online = false;
    expect(Buffer.compare(await open(), content)).toBe(0);
    // Without a cache name nothing is looked up: offline, that fails as the server out of reach.
    await expect(api.downloadChunk({ index: 0, header, rawKey, url: urlOf(0), expectedSha256: hashes[0]! })).rejects.toThrow(/^UNREACHABLE: Failed to fetch$/);
  });

  it('R15: a tampered cached copy is refused and dropped, and the next open fetches it again', async () => {
    const { server, header, rawKey, hashes } = await uploaded();
    const { caches, stores } = createMemoryCaches();
    const api = createTransferApi({ fetch: server.fetch, caches });
    const request = { index: 0, header, rawKey, url: urlOf(0), expectedSha256: hashes[0]!, cacheName: 'c' };
    await api.downloadChunk(request);
    const good = new Uint8Array(await stores.get('c')!.get(urlOf(0))!.clone().arrayBuffer());
    const bad = good.slice();
    bad[10]! ^= 1;
    stores.get('c')!.set(urlOf(0), new Response(bad));
    await expect(api.downloadChunk(request)).rejects.toThrow('CHUNK_TAMPERED');
    expect(stores.get('c')!.has(urlOf(0))).toBe(false);
    const before = server.requests.length;
    await api.downloadChunk(request);
    expect(server.requests.length).toBe(before + 1);
  });

  it('R15: cacheChunk fetches a missing chunk once, checked, without decrypting', async () => {
    const { server, hashes } = await uploaded();
    const { caches } = createMemoryCaches();
    const api = createTransferApi({ fetch: server.fetch, caches });
    const first = await api.cacheChunk({ url: urlOf(1), expectedSha256: hashes[1]!, cacheName: 'c' });
    expect(first).toEqual({ size: server.chunks.get(urlOf(1))!.length, fetched: true });
    expect(await api.cacheChunk({ url: urlOf(1), expectedSha256: hashes[1]!, cacheName: 'c' })).toEqual({ size: first.size, fetched: false });
    await expect(api.cacheChunk({ url: urlOf(0), expectedSha256: hashes[1]!, cacheName: 'c' })).rejects.toThrow('CHUNK_TAMPERED');
  });
});
