/**
 * Both ends of a download stream over a MessagePort (protocol: downloadStreamProtocol.ts). The
 * page writes into `writableToPort`, the service worker answers the download with a Response over
 * `readableFromPort`. Plain streams over a port, so tests run both ends in Node over a real
 * MessageChannel.
 *
 * Memory: the page sends a chunk only against a `pull` credit, and the service worker asks for
 * one only while its queue is below READABLE_HIGH_WATER_MARK, so a slow disk holds the page back
 * rather than filling either side.
 */
import { releaseBuffer } from '../../src/platform/releaseBuffer';
import { PagePortMessage, ServiceWorkerPortMessage, STREAM_CANCELLED, type PagePortMessage as PageMessage } from './downloadStreamProtocol';

/** Chunks the service worker queues ahead of the browser's download writer (8 MiB each here). */
export const READABLE_HIGH_WATER_MARK = 2;

function post(port: MessagePort, message: PageMessage, transfer: Transferable[] = []): void {
  port.postMessage(message, transfer);
}

/**
 * Service-worker end: a byte stream fed from `port`, made when the browser requests the download
 * (it tells the page `started`). It asks the page for chunks as the browser reads, closes on `end`, errors on `abort` or on anything that is not this protocol (so the
 * browser fails the download rather than saving wrong bytes), and tells the page on `cancel`.
 */
export function readableFromPort(port: MessagePort): ReadableStream<Uint8Array<ArrayBuffer>> {
  let wake: (() => void) | null = null;
  let isDone = false;
  const resolvePull = () => {
    wake?.();
    wake = null;
  };
  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      start(controller) {
        const finish = (error?: Error) => {
          if (isDone) return;
          isDone = true;
          if (error) controller.error(error);
          else controller.close();
          resolvePull();
          port.onmessage = null;
          port.close();
        };
        port.onmessage = (event: MessageEvent) => {
          if (isDone) return;
          const message = PagePortMessage.safeParse(event.data);
          if (!message.success) return finish(new Error('The download stream received a malformed message.'));
          switch (message.data.type) {
            case 'chunk':
              // A copy the service worker allocates itself (docs/decisions.md, issue 19): Chromium
              // collected the buffers that arrive by transfer late in this small-heap worker, so
              // they piled up with the download's size (72 to 176 MiB in the bench); its own
              // copies are collected young, and what it holds stays flat (under 110 MiB). The
              // buffer that came is freed at once (releaseBuffer.ts).
              controller.enqueue(new Uint8Array(message.data.bytes).slice());
              releaseBuffer(message.data.bytes);
              resolvePull();
              break;
            case 'end':
              finish();
              break;
            case 'abort':
              finish(new Error(message.data.message));
              break;
          }
        };
        port.postMessage({ type: 'started' } satisfies ServiceWorkerPortMessage);
      },
      pull() {
        if (isDone) return;
        const arrived = new Promise<void>((resolve) => (wake = resolve));
        port.postMessage({ type: 'pull' } satisfies ServiceWorkerPortMessage);
        return arrived;
      },
      cancel() {
        if (isDone) return;
        isDone = true;
        resolvePull();
        port.postMessage({ type: 'cancel' } satisfies ServiceWorkerPortMessage);
        port.onmessage = null;
        port.close();
      },
    },
    new CountQueuingStrategy({ highWaterMark: READABLE_HIGH_WATER_MARK }),
  );
}

export interface WritableToPortOptions {
  /** Bytes announced as Content-Length: the stream refuses to send more or to end with fewer. */
  size: number;
  /** How long to wait for the service worker's `started` before failing (ms). */
  startTimeoutMs?: number;
  /** Called once when the stream ends, fails or is cancelled. */
  onSettled?: () => void;
}

/**
 * Page end: a WritableStream of plaintext chunks sent to the service worker over `port`. Writes
 * wait for `started` (the browser took the download) and then for a `pull` credit each; buffers
 * are transferred, so a chunk that fills its whole ArrayBuffer is never copied (and is detached
 * once written). A cancelled download errors the stream with Error(STREAM_CANCELLED); an aborted
 * stream, or a byte count other than `size`, makes the service worker fail the download.
 */
export function writableToPort(port: MessagePort, options: WritableToPortOptions): WritableStream<Uint8Array> {
  const { size, startTimeoutMs = 15_000 } = options;
  let credits = 0;
  let written = 0;
  let failure: Error | null = null;
  let isSettled = false;
  let waiter: { resolve: () => void; reject: (error: Error) => void } | null = null;
  let onStarted: (() => void) | null = null;
  let streamController: WritableStreamDefaultController | null = null;

  function settle() {
    if (isSettled) return;
    isSettled = true;
    port.onmessage = null;
    port.close();
    options.onSettled?.();
  }
  /** Tells the service worker to fail the download, then lets go of the port. */
  function abortRemote(message: string) {
    if (isSettled) return;
    post(port, { type: 'abort', message: message.slice(0, 1000) });
    settle();
  }
  function failLocally(error: Error) {
    failure ??= error;
    waiter?.reject(failure);
    waiter = null;
    streamController?.error(failure);
    settle();
  }

  port.onmessage = (event: MessageEvent) => {
    const message = ServiceWorkerPortMessage.safeParse(event.data);
    if (!message.success) return;
    switch (message.data.type) {
      case 'started':
        onStarted?.();
        break;
      case 'pull':
        credits += 1;
        waiter?.resolve();
        waiter = null;
        break;
      case 'cancel':
        failLocally(new Error(STREAM_CANCELLED));
        break;
      case 'registered':
        break;
    }
  };

  return new WritableStream<Uint8Array>(
    {
      start(controller) {
        streamController = controller;
        return new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => {
            const error = new Error('The download did not start: the service worker did not answer.');
            abortRemote(error.message);
            reject(error);
          }, startTimeoutMs);
          onStarted = () => {
            clearTimeout(timer);
            onStarted = null;
            resolve();
          };
        });
      },
      async write(chunk) {
        if (failure) throw failure;
        if (written + chunk.byteLength > size) {
          const message = `The download has more bytes than its announced ${size}.`;
          abortRemote(message);
          throw new Error(message);
        }
        while (credits === 0) {
          await new Promise<void>((resolve, reject) => (waiter = { resolve, reject }));
        }
        credits -= 1;
        // Read the length first: a transferred buffer is detached (length 0) once posted.
        const length = chunk.byteLength;
        // A view of part of a buffer (or of a shared one) is copied: transferring its buffer would
        // send bytes that are not the chunk's, or fail.
        const isWhole = chunk.buffer instanceof ArrayBuffer && chunk.byteOffset === 0 && length === chunk.buffer.byteLength;
        const buffer = isWhole ? (chunk.buffer as ArrayBuffer) : new Uint8Array(chunk).buffer;
        post(port, { type: 'chunk', bytes: buffer }, [buffer]);
        written += length;
      },
      close() {
        if (failure) throw failure;
        if (written !== size) {
          const message = `The download ended after ${written} of its ${size} bytes.`;
          abortRemote(message);
          throw new Error(message);
        }
        post(port, { type: 'end' });
        settle();
      },
      abort(reason) {
        abortRemote(reason instanceof Error ? reason.message : String(reason ?? 'The download was stopped.'));
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
}
