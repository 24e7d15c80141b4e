import { configure, Uint8ArrayReader, Uint8ArrayWriter, ZipReader } from '@zip.js/zip.js';
import { describe, expect, it } from 'vitest';
import { pumpInOrder } from '../../sync/pumpInOrder';
import { bytesZipSource, pumpInto, writeZipToDisk, type ZipSource } from './saveFileToDisk';

configure({ useWebWorkers: false });

/** A file the writer saves into: the bytes it was given, and whether it was closed or aborted. */
function memoryTarget() {
  const parts: Uint8Array[] = [];
  const state = { closed: false, aborted: false };
  const writable = new WritableStream<Uint8Array>({
    write: (chunk) => void parts.push(chunk.slice()),
    close: () => void (state.closed = true),
    abort: () => void (state.aborted = true),
  });
  return { writable, state, bytes: () => Buffer.concat(parts) };
}

/** A source whose stream gives `chunks` and then fails with `error` (or ends). */
function streamedSource(path: string, chunks: Uint8Array[], error?: unknown): ZipSource {
  const size = chunks.reduce((s, c) => s + c.byteLength, 0) + (error ? 1 : 0);
  return {
    path,
    size,
    updatedAt: 0,
    heldBytes: size,
    open: async (_signal, onProgress, onDone) => {
      let at = 0;
      let sent = 0;
      return {
        size,
        input: new ReadableStream<Uint8Array>({
          pull(controller) {
            if (at < chunks.length) {
              sent += chunks[at]!.byteLength;
              controller.enqueue(chunks[at++]!);
              onProgress(sent);
            } else if (error) controller.error(error);
            else {
              onDone();
              controller.close();
            }
          },
        }),
      };
    },
  };
}

const encoder = new TextEncoder();

describe('the streamed zip writer (batch downloads and exports, R94)', () => {
  it('[R94] writes every source as a stored entry at its path, and counts files and bytes', async () => {
    const target = memoryTarget();
    const reports: [number, number, string][] = [];
    await writeZipToDisk(
      'x.zip',
      [streamedSource('Maps/a.bin', [new Uint8Array([1, 2, 3]), new Uint8Array([4])]), bytesZipSource('.cairn/chat.json', encoder.encode('{"memos":[]}'), 0)],
      new AbortController().signal,
      (received, total, files) => reports.push([received, total, `${files?.done}/${files?.total}`]),
      { target: target.writable },
    );
    expect(target.state.closed).toBe(true);
    const reader = new ZipReader(new Uint8ArrayReader(target.bytes()));
    const entries = await reader.getEntries();
    expect(entries.map((e) => [e.filename, e.compressionMethod])).toEqual([
      ['Maps/a.bin', 0],
      ['.cairn/chat.json', 0],
    ]);
    const first = entries[0]!;
    if (first.directory) throw new Error('a file entry was written as a directory');
    expect([...(await first.getData(new Uint8ArrayWriter()))]).toEqual([1, 2, 3, 4]);
    expect(reports.at(-1)).toEqual([16, 16, '2/2']);
  });

  it('[R95] a failing entry stops the zip with the error its describer gives, and the target is aborted', async () => {
    const target = memoryTarget();
    const failure = new Error('CHUNK_TAMPERED');
    const error = await writeZipToDisk(
      'x.zip',
      [bytesZipSource('a.txt', encoder.encode('fine'), 0), streamedSource('Maps/b.bin', [new Uint8Array(10)], failure), bytesZipSource('c.txt', encoder.encode('never'), 0)],
      new AbortController().signal,
      () => undefined,
      { target: target.writable, describeError: (source, cause) => new Error(`stopped at ${source.path}`, { cause }) },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('stopped at Maps/b.bin');
    expect((error as Error).cause).toBe(failure);
    expect(target.state.aborted).toBe(true);
    expect(target.state.closed).toBe(false);
  });
});

describe('pumpInto', () => {
  it('stops at once when the stream is errored under it (the browser cancelled the download), without waiting for the next chunk', async () => {
    let streamController: WritableStreamDefaultController | null = null;
    const writable = new WritableStream<Uint8Array>({ start: (controller) => void (streamController = controller) });
    const written: number[] = [];
    // Chunk 0 arrives at once; chunk 1 never does (a slow network).
    const download = {
      size: 2,
      mimeType: 'application/octet-stream',
      // Not used by pumpInto (the service worker's own fetching is saveFromSource's).
      source: { header: { size: 2, chunkSize: 1, chunkCount: 2 }, rawKey: null, chunks: [] },
      pump: (write: (chunk: Uint8Array<ArrayBuffer>) => Promise<void>, options?: { signal?: AbortSignal }) =>
        pumpInOrder<Uint8Array<ArrayBuffer>>({
          count: 2,
          concurrency: 2,
          window: 2,
          produce: (index) => (index === 0 ? Promise.resolve(new Uint8Array([7])) : new Promise<Uint8Array<ArrayBuffer>>(() => undefined)),
          consume: async (chunk) => {
            written.push(chunk[0]!);
            await write(chunk);
          },
          ...(options?.signal ? { signal: options.signal } : {}),
        }),
    };
    const pumping = pumpInto(download, writable, new AbortController().signal, () => undefined);
    await expect.poll(() => written).toEqual([7]);
    streamController!.error(new Error('cancelled by the browser'));
    await expect(pumping).rejects.toThrow('cancelled by the browser');
  });
});
