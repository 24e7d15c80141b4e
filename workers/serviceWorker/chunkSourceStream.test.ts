import { afterEach, describe, expect, it } from 'vitest';
import { chunkHeaderFor } from '../../src/crypto/fileChunks';
import { randomBytes } from '../../src/crypto/random';
import { createTransferApi } from '../transfer/createTransferApi';
import { readableFromChunks, SOURCE_WINDOW } from './chunkSourceStream';
import { ChunkSource, ServiceWorkerPortMessage, type PagePortMessage } from './downloadStreamProtocol';

// The service worker's end over a real MessageChannel (Node's), the page's end read as messages.
const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

const urlOf = (index: number) => `/api/vaults/v1/blobs/b1/chunks/${index}`;

/** A file sealed and stored as the server keeps it, and a fetch that serves it (and counts GETs). */
async function storedFile(size: number, chunkSize: number, isPrivate = true) {
  const stored = new Map<string, Uint8Array>();
  const fetched: string[] = [];
  const held = new Set<number>();
  const serve: typeof fetch = async (input, init) => {
    const url = String(input);
    if ((init?.method ?? 'GET') === 'PUT') {
      stored.set(url, new Uint8Array(await new Response(init?.body).arrayBuffer()));
      return new Response(null, { status: 204 });
    }
    fetched.push(url);
    const index = Number(url.split('/').pop());
    // A held chunk waits until the test's abort signal stops the fetch.
    if (held.has(index)) {
      return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)));
    }
    const bytes = stored.get(url);
    return bytes ? new Response(bytes.slice(), { status: 200 }) : new Response(null, { status: 404 });
  };
  const plain = randomBytes(size);
  const header = chunkHeaderFor(size, chunkSize);
  const rawKey = isPrivate ? randomBytes(32).buffer : null;
  const uploader = createTransferApi({ fetch: serve, caches: null });
  const chunks: ChunkSource['chunks'] = [];
  for (let index = 0; index < header.chunkCount; index += 1) {
    const sealed = await uploader.sealChunk({ file: new Blob([plain]), index, header, rawKey: rawKey?.slice(0) ?? null, spoolScope: 'acc', keepInMemory: true });
    await uploader.putChunk({ body: sealed.body, sha256: sealed.sha256, url: urlOf(index) });
    chunks.push({ url: urlOf(index), sha256: sealed.sha256 });
  }
  const source = ChunkSource.parse({ header, rawKey, chunks });
  return { plain, source, stored, fetched, held, serve };
}

/** Opens the stream as the route does; `messages` are what the page's end receives. */
function open(source: ChunkSource, serve: typeof fetch) {
  const channel = new MessageChannel();
  channels.push(channel);
  const messages: ServiceWorkerPortMessage[] = [];
  channel.port1.onmessage = (event: MessageEvent) => messages.push(ServiceWorkerPortMessage.parse(event.data));
  const readable = readableFromChunks(source, channel.port2, serve);
  return { readable, messages, page: channel.port1 };
}

async function readAll(readable: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of readable) parts.push(part);
  return new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
}

describe('a download the service worker fetches itself', () => {
  it('gives the file byte for byte, in order, and tells the page its progress and the end', async () => {
    const file = await storedFile(100, 16);
    const { readable, messages } = open(file.source, file.serve);
    expect(await readAll(readable)).toEqual(file.plain);
    await expect.poll(() => messages.at(-1)?.type).toBe('done');
    expect(messages[0]).toEqual({ type: 'started' });
    const progress = messages.filter((m) => m.type === 'progress').map((m) => m.received);
    expect(progress).toEqual([16, 32, 48, 64, 80, 96, 100]);
    expect(file.fetched).toEqual(file.source.chunks.map((c) => c.url));
  });

  it('gives a public vault\'s clear chunks as they are', async () => {
    const file = await storedFile(40, 16, false);
    expect(await readAll(open(file.source, file.serve).readable)).toEqual(file.plain);
  });

  it('fetches at most SOURCE_WINDOW chunks ahead of the one the browser reads', async () => {
    const file = await storedFile(160, 16);
    const { readable } = open(file.source, file.serve);
    const reader = readable.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // One read, one chunk queued for the next read, and the window fetched ahead of that.
    expect(file.fetched.length).toBeLessThanOrEqual(1 + 1 + SOURCE_WINDOW);
    expect(file.fetched.length).toBeLessThan(file.source.chunks.length);
    await reader.cancel();
  });

  it('fails on a tampered chunk: the page is told CHUNK_TAMPERED and no byte of it or after it is given', async () => {
    const file = await storedFile(64, 16);
    file.stored.get(urlOf(2))![5]! ^= 1;
    const { readable, messages } = open(file.source, file.serve);
    const reader = readable.getReader();
    const given: number[] = [];
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          given.push(value.length);
        }
      })(),
    ).rejects.toThrow('CHUNK_TAMPERED');
    // The download fails as soon as the bad chunk is found: chunks before it may or may not have
    // been handed on by then, never it or any after it.
    expect(given.length).toBeLessThanOrEqual(2);
    expect(given.every((length) => length === 16)).toBe(true);
    await expect.poll(() => messages.at(-1)).toEqual({ type: 'failed', message: 'CHUNK_TAMPERED' });
    expect(messages.some((m) => m.type === 'done')).toBe(false);
  });

  it("stops fetching when the page aborts, and fails the browser's download", async () => {
    const file = await storedFile(64, 16);
    file.held.add(1);
    const { readable, page } = open(file.source, file.serve);
    const reader = readable.getReader();
    await reader.read();
    page.postMessage({ type: 'abort', message: 'Download cancelled.' } satisfies PagePortMessage);
    await expect(reader.read()).rejects.toThrow('Download cancelled.');
    const count = file.fetched.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(file.fetched.length).toBe(count);
  });

  it("tells the page when the browser's download is cancelled", async () => {
    const file = await storedFile(64, 16);
    const { readable, messages } = open(file.source, file.serve);
    const reader = readable.getReader();
    await reader.read();
    await reader.cancel();
    await expect.poll(() => messages.at(-1)).toEqual({ type: 'cancel' });
  });

  it('refuses a source whose chunks are not the API\'s, or do not match its header', () => {
    const header = chunkHeaderFor(20, 16);
    const sha256 = 'ab'.repeat(32);
    const good = { header, rawKey: null, chunks: [0, 1].map((i) => ({ url: urlOf(i), sha256 })) };
    expect(ChunkSource.safeParse(good).success).toBe(true);
    expect(ChunkSource.safeParse({ ...good, chunks: [{ url: 'https://elsewhere.example/x/chunks/0', sha256 }, good.chunks[1]] }).success).toBe(false);
    expect(ChunkSource.safeParse({ ...good, chunks: good.chunks.slice(1) }).success).toBe(false);
    expect(ChunkSource.safeParse({ ...good, rawKey: new ArrayBuffer(31) }).success).toBe(false);
  });
});
