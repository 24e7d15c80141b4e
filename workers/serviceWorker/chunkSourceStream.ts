/**
 * Service-worker end of a single file's download (protocol: downloadStreamProtocol.ts,
 * `ChunkSource`): the service worker fetches the file's chunks itself, checks each against the
 * hash its uploader signed and opens it with the same code as the transfer workers
 * (createTransferApi's `downloadChunk`), and answers the browser's download with the plaintext in
 * order. The page only follows: `progress` after each chunk, then `done` or `failed`.
 *
 * Why here and not in the page (docs/decisions.md, issue 25): a chunk posted from the page to the
 * service worker over a MessagePort is copied on the way, about 14 CPU-ms per MiB on each side
 * here, a third of the whole download's cost; fetched here, the bytes never cross a thread.
 */
import { createTransferApi } from '../transfer/createTransferApi';
import { pumpInOrder } from '../../src/sync/pumpInOrder';
import { PagePortMessage, type ChunkSource, type ServiceWorkerPortMessage } from './downloadStreamProtocol';

/**
 * Chunks fetched or opened ahead of the one the browser is writing (8 MiB each at most): as many
 * requests in flight as the bench's no-app download keeps, so the network stays busy while this
 * thread checks and opens a chunk, and memory is bounded whatever the size.
 */
export const SOURCE_WINDOW = 4;

function post(port: MessagePort, message: ServiceWorkerPortMessage): void {
  port.postMessage(message);
}

/**
 * A byte stream of the file's verified plaintext, fetched with `doFetch` (the service worker's
 * own fetch). A chunk that fails its hash or its authentication errors the stream (the browser
 * marks the download failed, never complete) and the page is told why; nothing after it is
 * fetched or written. `abort` from the page fails it the same way; the browser's cancel stops the
 * fetching and is told to the page as `cancel`.
 */
export function readableFromChunks(source: ChunkSource, port: MessagePort, doFetch: typeof fetch): ReadableStream<Uint8Array<ArrayBuffer>> {
  const stopped = new AbortController();
  const api = createTransferApi({ fetch: (input, init) => doFetch(input, { ...init, signal: stopped.signal }) });
  const { header, rawKey, chunks, cacheName } = source;
  let received = 0;
  let isFinished = false;
  /** Resolves the chunk waiting for the browser to want more (the stream's backpressure). */
  let onWanted: (() => void) | null = null;

  function finish(): void {
    if (isFinished) return;
    isFinished = true;
    stopped.abort();
    port.onmessage = null;
    port.close();
  }

  function openChunk(index: number): Promise<ArrayBuffer> {
    const { url, sha256 } = chunks[index]!;
    return api.downloadChunk({
      index,
      header,
      // Copied per call: a key given to a call is that call's.
      rawKey: rawKey ? rawKey.slice(0) : null,
      url,
      expectedSha256: sha256,
      ...(cacheName ? { cacheName } : {}),
    });
  }

  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      start(controller) {
        port.onmessage = (event: MessageEvent) => {
          const message = PagePortMessage.safeParse(event.data);
          if (!message.success || message.data.type !== 'abort' || isFinished) return;
          controller.error(new Error(message.data.message));
          finish();
        };
        post(port, { type: 'started' });
        // Chunks are fetched and opened up to SOURCE_WINDOW ahead of the one queued for the
        // browser, and handed on strictly in order, each only once the browser wants more.
        pumpInOrder({
          count: chunks.length,
          concurrency: SOURCE_WINDOW,
          window: SOURCE_WINDOW,
          produce: openChunk,
          consume: async (plain) => {
            if ((controller.desiredSize ?? 0) <= 0) await new Promise<void>((resolve) => (onWanted = resolve));
            received += plain.byteLength;
            controller.enqueue(new Uint8Array(plain));
            post(port, { type: 'progress', received });
          },
          signal: stopped.signal,
        })
          .then(() => {
            // Every chunk was checked against its signed hash and its header range, so the bytes
            // are exactly the announced size; the check stays as a last guard.
            if (received !== header.size) throw new Error(`The download ended after ${received} of its ${header.size} bytes.`);
            controller.close();
            post(port, { type: 'done' });
            finish();
          })
          .catch((error: unknown) => {
            if (isFinished) return;
            controller.error(error);
            post(port, { type: 'failed', message: (error instanceof Error ? error.message : String(error)).slice(0, 1000) });
            finish();
          });
      },
      pull() {
        onWanted?.();
        onWanted = null;
      },
      cancel() {
        if (isFinished) return;
        post(port, { type: 'cancel' });
        finish();
      },
    },
    // One chunk queued ahead of the browser's writer; the rest wait as fetches, not as bytes.
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
}
