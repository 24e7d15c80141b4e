import { describe, expect, it } from 'vitest';
import { ExportError, storedBlobStream, type FetchStoredChunk } from './exportStored';
import type { VersionRecord } from '../storage/vaultRecords';

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Three sealed-looking chunks of a version and the record that signs their hashes. */
async function storedVersion() {
  const chunks = [0, 1, 2].map((i) => new Uint8Array(i === 2 ? 100 : 4 * 1024 * 1024 + 16).fill(i + 1));
  const version = {
    versionId: 'ver',
    blobId: 'blob1',
    size: 0,
    storedSize: chunks.reduce((s, c) => s + c.byteLength, 0),
    chunkSize: 4 * 1024 * 1024,
    chunkCount: 3,
    chunkHashes: await Promise.all(chunks.map(sha256Hex)),
  } as unknown as VersionRecord;
  return { chunks, version };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const out = new Uint8Array(parts.reduce((s, p) => s + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

function serve(chunks: Uint8Array<ArrayBuffer>[], change?: (index: number, bytes: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>): { fetchChunk: FetchStoredChunk; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetchChunk: async (url) => {
      urls.push(url);
      const index = Number(url.split('/').at(-1));
      const bytes = chunks[index]!.slice();
      return change ? change(index, bytes) : bytes;
    },
  };
}

describe('encrypted export: a version\'s stored bytes (R87, R85)', () => {
  it('[R87] hands on every stored chunk in order, untouched, from the chunk route', async () => {
    const { chunks, version } = await storedVersion();
    const { fetchChunk, urls } = serve(chunks);
    let done = false;
    let progress = 0;
    const bytes = await readAll(
      storedBlobStream('v1', version, 'map.bin', { signal: new AbortController().signal, onProgress: (r) => (progress = r), onDone: () => (done = true), fetchChunk }),
    );
    expect(bytes.byteLength).toBe(version.storedSize);
    expect(Buffer.from(bytes).equals(Buffer.concat(chunks))).toBe(true);
    expect(urls).toEqual([0, 1, 2].map((i) => `/api/vaults/v1/blobs/blob1/chunks/${i}`));
    expect(progress).toBe(version.storedSize);
    expect(done).toBe(true);
  });

  it('[R87] a chunk whose hash is not the signed one stops the stream with a message naming the file', async () => {
    const { chunks, version } = await storedVersion();
    const { fetchChunk } = serve(chunks, (index, bytes) => {
      if (index === 1) bytes[10]! ^= 1;
      return bytes;
    });
    const error = await readAll(storedBlobStream('v1', version, 'map.bin', { signal: new AbortController().signal, onProgress: () => undefined, onDone: () => undefined, fetchChunk })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportError);
    expect((error as ExportError).code).toBe('CHUNK_TAMPERED');
    expect((error as ExportError).message).toContain('"map.bin"');
  });

  it('[R87] a chunk the network fails stops the stream with a message naming the file', async () => {
    const { chunks, version } = await storedVersion();
    const { fetchChunk } = serve(chunks, (index, bytes) => {
      if (index === 2) throw new Error('DOWNLOAD_FAILED: 502');
      return bytes;
    });
    const error = await readAll(storedBlobStream('v1', version, 'map.bin', { signal: new AbortController().signal, onProgress: () => undefined, onDone: () => undefined, fetchChunk })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportError);
    expect((error as ExportError).code).toBe('CHUNK_FAILED');
    expect((error as ExportError).message).toContain('"map.bin" could not be downloaded');
  });

  it('[R87] bytes beyond the signed stored size are refused, never written', async () => {
    const { chunks, version } = await storedVersion();
    const short = { ...version, storedSize: version.storedSize - 1 } as VersionRecord;
    const error = await readAll(storedBlobStream('v1', short, 'map.bin', { signal: new AbortController().signal, onProgress: () => undefined, onDone: () => undefined, fetchChunk: serve(chunks).fetchChunk })).catch(
      (e: unknown) => e,
    );
    expect((error as ExportError).code).toBe('CHUNK_TAMPERED');
  });
});
