/**
 * The transfer workers' implementation of `TransferApi` (see TransferApi.ts for the contract and
 * src/crypto/fileChunks.ts for the chunk format). Pure over an injected `fetch`, so tests run it
 * in Node against an in-memory server; `transfer.worker.ts` only exposes one instance.
 *
 * Each call handles one chunk: memory stays at a few chunks per worker whatever the file size.
 */
import { transfer } from 'comlink';
import { bytesToBase64Url } from '../../src/crypto/encoding';
import { decryptChunk, encryptChunk, importFileKey, plainChunkRange, sha256Hex, type FileKey } from '../../src/crypto/fileChunks';
import { CHUNK_BATCH_CONTENT_TYPE, CHUNK_TAG_BYTES } from '../../src/protocol/vaults';
import { releaseBuffer } from '../../src/platform/releaseBuffer';
import { createChunkSpool, type ChunkSpool } from './chunkSpool';
import type { ChunkHeader, HashChunkRequest, TransferApi } from './TransferApi';

export interface TransferApiOptions {
  fetch: typeof fetch;
  /** Cache Storage for offline chunks; default `globalThis.caches` when the platform has it. */
  caches?: CacheStorage | null;
  /** Where sealed chunks wait for their PUT; default the origin private file system when there. */
  spool?: ChunkSpool;
}

/**
 * Imported keys by raw key: a download or upload calls once per chunk with the same key, and
 * re-importing each time would cost more than sealing a small chunk. Keys arrive structured-cloned
 * (a new ArrayBuffer per call), so a WeakMap by buffer would never hit; the cache is keyed by the
 * key's own bytes and kept small (a few files in flight per worker).
 */
const KEY_CACHE_SIZE = 8;

function checkedRange(index: number, header: ChunkHeader): { start: number; end: number } {
  try {
    return plainChunkRange(index, header);
  } catch (error) {
    throw new RangeError(`bad chunk ${index}: ${(error as Error).message}`);
  }
}

/**
 * A body's bytes, read through a Blob: Chromium reads a response into a Blob in its browser
 * process, off this thread, and faster than into an ArrayBuffer here (read a piece at a time on
 * this thread, the service worker's download took half as long again; docs/decisions.md).
 */
async function readBody(response: Response): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await (await response.blob()).arrayBuffer());
}

/** A fresh implementation with its own key cache. */
export function createTransferApi(options: TransferApiOptions): TransferApi {
  const doFetch = options.fetch;
  const cacheStorage = options.caches !== undefined ? options.caches : (globalThis.caches ?? null);
  const keys = new Map<string, Promise<FileKey>>();
  const spool = options.spool ?? createChunkSpool();

  function fileKey(raw: ArrayBuffer): Promise<FileKey> {
    const id = bytesToBase64Url(new Uint8Array(raw));
    let key = keys.get(id);
    if (key) {
      // Most recently used last: Map keeps insertion order.
      keys.delete(id);
    } else {
      key = importFileKey(raw);
      // A failed import must not stay cached.
      key.catch(() => keys.delete(id));
    }
    keys.set(id, key);
    while (keys.size > KEY_CACHE_SIZE) keys.delete(keys.keys().next().value!);
    return key;
  }

  async function readSlice(file: Blob, start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
    try {
      return new Uint8Array(await file.slice(start, end).arrayBuffer());
    } catch (error) {
      // Chromium refuses to read a picked file changed, moved or deleted since it was picked
      // (NotReadableError, NotFoundError): a fact about the source, not a network hiccup.
      throw new Error('FILE_UNREADABLE', { cause: error });
    }
  }

  /**
   * The stored bytes of the chunk at `url`, checked against the hash its uploader signed: from
   * the cache when there, else fetched (and then kept in the cache). Bytes nobody signed are never
   * decrypted or shown; a cached copy that fails the check is dropped, so the next try refetches.
   * `size`, when known, is the stored size the chunk must have: a body of any other length is
   * refused as tampered before it is hashed.
   */
  async function storedChunk(url: string, expectedSha256: string, cacheName: string | undefined, size?: number): Promise<Uint8Array<ArrayBuffer>> {
    const cache = cacheName && cacheStorage ? await cacheStorage.open(cacheName).catch(() => null) : null;
    const cached = cache ? await cache.match(url) : undefined;
    let stored: Uint8Array<ArrayBuffer>;
    if (cached) {
      stored = await readBody(cached);
    } else {
      // No answer at all (offline, or the server out of reach) is told apart from a refusal: the
      // page then says the file is not kept on this device instead of a generic failure.
      const response = await doFetch(url, { method: 'GET', credentials: 'same-origin' }).catch((error: unknown) => {
        throw new Error(`UNREACHABLE: ${error instanceof Error ? error.message : String(error)}`);
      });
      if (!response.ok) throw new Error(`DOWNLOAD_FAILED: ${response.status}`);
      stored = await readBody(response);
    }
    if ((size !== undefined && stored.length !== size) || (await sha256Hex(stored)) !== expectedSha256.toLowerCase()) {
      releaseBuffer(stored.buffer);
      if (cached) await cache?.delete(url);
      throw new Error('CHUNK_TAMPERED');
    }
    if (cache && !cached) {
      // Ciphertext only (public vaults: what anyone may read); a full disk only costs the offline copy.
      const headers = { 'content-type': 'application/octet-stream', 'content-length': String(stored.length) };
      await cache.put(url, new Response(new Blob([stored]), { headers })).catch(() => undefined);
    }
    return stored;
  }

  /** Chunk `index` of `file` as stored: sealed under `rawKey`, or clear for a public vault. */
  async function storedBytes({ file, index, header, rawKey }: HashChunkRequest): Promise<Uint8Array<ArrayBuffer>> {
    const { start, end } = checkedRange(index, header);
    // The header was made from the file's size; a file changed since must start a new version.
    if (file.size !== header.size) throw new Error('FILE_CHANGED');
    const plain = await readSlice(file, start, end);
    if (plain.length !== end - start) throw new Error('FILE_CHANGED');
    if (!rawKey) return plain;
    try {
      return await encryptChunk(await fileKey(rawKey), index, header, plain);
    } finally {
      releaseBuffer(plain.buffer);
    }
  }

  return {
    async sealChunk(request) {
      const stored = await storedBytes(request);
      const sha256 = await sha256Hex(stored);
      if (request.expectedSha256 && request.expectedSha256 !== sha256) throw new Error('FILE_CHANGED');
      // A Blob, not the bytes: Chromium sends an ArrayBuffer body through the renderer at about
      // 19 MiB/s here, a Blob at over 200 (docs/decisions.md); and a Blob crosses to the caller
      // and back to a worker by reference, never copied. A spooled one is a file on disk, so the
      // browser holds no chunk's bytes in memory while it waits (chunkSpool.ts).
      const storedSize = stored.length;
      // Both keep a copy (a Blob copies its parts; the spool writes them to disk): the bytes here
      // are freed now, not at this worker's next collection.
      const { body, name } = request.keepInMemory ? { body: new Blob([stored]), name: null } : await spool.keep(stored, request.spoolScope);
      releaseBuffer(stored.buffer);
      return { body, spooled: name, sha256, storedSize };
    },

    async putChunk({ body, sha256, url, spooled }) {
      try {
        const response = await doFetch(url, {
          method: 'PUT',
          body,
          headers: { 'content-type': 'application/octet-stream', 'x-chunk-sha256': sha256 },
          credentials: 'same-origin',
        });
        if (!response.ok) throw new Error(`UPLOAD_FAILED: ${response.status}`);
      } finally {
        // Sent or not, this sealed copy is done with: a retry seals the chunk again. Awaited (a
        // removal takes about a millisecond, and drop never rejects): the pool recycles a worker
        // as soon as it has no call in flight, and a removal still running then would be cut off,
        // leaving the file behind.
        if (spooled) await spool.drop(spooled);
      }
    },

    async putChunks({ url, chunks }) {
      try {
        const manifest = { chunks: chunks.map(({ blobId, index, sha256, body }) => ({ blobId, index, size: body.size, sha256 })) };
        const response = await doFetch(url, {
          method: 'POST',
          body: new Blob([`${JSON.stringify(manifest)}\n`, ...chunks.map((chunk) => chunk.body)]),
          headers: { 'content-type': CHUNK_BATCH_CONTENT_TYPE },
          credentials: 'same-origin',
        });
        if (!response.ok) throw new Error(`UPLOAD_FAILED: ${response.status}`);
      } finally {
        for (const { spooled } of chunks) if (spooled) await spool.drop(spooled);
      }
    },

    clearSpool: (scope) => spool.clear(scope),
    dropSpooled: (name) => spool.drop(name),

    async downloadChunk({ index, header, rawKey, url, expectedSha256, cacheName }) {
      const { start, end } = checkedRange(index, header);
      const stored = await storedChunk(url, expectedSha256, cacheName, end - start + (rawKey ? CHUNK_TAG_BYTES : 0));
      let plain = stored;
      if (rawKey) {
        try {
          plain = await decryptChunk(await fileKey(rawKey), index, header, stored);
        } finally {
          // The sealed bytes are done with once opened (or refused): freed now, not at this
          // worker's next collection (releaseBuffer.ts).
          releaseBuffer(stored.buffer);
        }
      }
      if (plain.length !== end - start) throw new Error('CHUNK_TAMPERED');
      const buffer = plain.byteOffset === 0 && plain.byteLength === plain.buffer.byteLength ? plain.buffer : plain.slice().buffer;
      return transfer(buffer, [buffer]);
    },

    async cacheChunk({ url, expectedSha256, cacheName }) {
      const cache = cacheStorage ? await cacheStorage.open(cacheName) : null;
      if (!cache) throw new Error('OFFLINE_CACHE_UNAVAILABLE');
      const cached = await cache.match(url);
      if (cached) return { size: Number(cached.headers.get('content-length') ?? 0), fetched: false };
      const stored = await storedChunk(url, expectedSha256, cacheName);
      return { size: stored.length, fetched: true };
    },

    async hashChunk(request) {
      const stored = await storedBytes(request);
      const sha256 = await sha256Hex(stored);
      releaseBuffer(stored.buffer);
      return sha256;
    },
  };
}
