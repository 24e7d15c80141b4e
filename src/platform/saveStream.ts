/**
 * Where a download's plaintext goes (docs/decisions.md):
 * - the service worker's download stream when a service worker controls the page: the browser
 *   saves the bytes to disk as they arrive, so memory stays flat whatever the file size
 *   (protocol: workers/serviceWorker/downloadStreamProtocol.ts). A single file's chunks are
 *   fetched and opened by the service worker itself (`saveFromSource`); a zip's bytes are made in
 *   the page and written into the stream (`openSaveStream`);
 * - otherwise the fallback: the chunks are assembled into a Blob and saved through a temporary
 *   <a download>, so the browser holds the whole file once. That is the first visit (the service
 *   worker installs but controls the page only from the next load), a browser or context with
 *   service workers blocked, and a controller that does not answer the registration.
 */
import {
  ServiceWorkerPortMessage,
  STREAM_CANCELLED,
  downloadStreamUrl,
  type ChunkSource,
  type KeepAlive,
  type PagePortMessage,
  RegisterDownload,
} from '../../workers/serviceWorker/downloadStreamProtocol';
import { writableToPort } from '../../workers/serviceWorker/portStreams';
import { saveBlob } from './saveBlob';

export interface SaveMeta {
  fileName: string;
  /** Exact plaintext size: the stream refuses to end with fewer or more bytes. */
  size: number;
  mimeType: string;
}

export interface SaveTarget {
  /** Write the file's bytes in order, then close; abort makes the download fail. */
  writable: WritableStream<Uint8Array>;
  /** True through the service worker; false for the Blob fallback. */
  isStreamed: boolean;
}

/** How long the controller may take to answer a registration before the fallback is used (ms). */
const REGISTER_TIMEOUT_MS = 5_000;
/**
 * A message event every so often keeps the service worker from being stopped as idle (Chromium
 * stops one after 30 s without events) while the page feeds a download through a port.
 */
const KEEP_ALIVE_MS = 10_000;
/** The hidden frame stays a little after the last byte so the browser is done with it (ms). */
const FRAME_LINGER_MS = 1_000;

/** The service worker that can take a download, or null when none controls the page. */
function currentController(): ServiceWorker | null {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker.controller : null;
}

/**
 * Hands the download's description and one end of `channel` to `controller`; resolves false when
 * it does not answer in time (an older service worker without the route, or a stuck one).
 */
function register(controller: ServiceWorker, channel: MessageChannel, message: RegisterDownload): Promise<boolean> {
  const port = channel.port1;
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      port.onmessage = null;
      resolve(false);
    }, REGISTER_TIMEOUT_MS);
    port.onmessage = (event: MessageEvent) => {
      const reply = ServiceWorkerPortMessage.safeParse(event.data);
      if (reply.success && reply.data.type === 'registered') {
        clearTimeout(timer);
        port.onmessage = null;
        resolve(true);
      }
    };
    // Only the port is transferred; the message holds the name, size and type, never a key.
    controller.postMessage(message, [channel.port2]);
  });
}

/** The fallback: every chunk kept until close, then saved as one Blob. */
function blobTarget(meta: SaveMeta): SaveTarget {
  let parts: Uint8Array<ArrayBuffer>[] = [];
  let written = 0;
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      // A Blob part must not be a shared buffer's view; ours never are, but then it is copied.
      parts.push(chunk.buffer instanceof ArrayBuffer ? (chunk as Uint8Array<ArrayBuffer>) : new Uint8Array(chunk));
      written += chunk.byteLength;
    },
    close() {
      if (written !== meta.size) throw new Error(`The download ended after ${written} of its ${meta.size} bytes.`);
      saveBlob(new Blob(parts, { type: meta.mimeType }), meta.fileName);
      parts = [];
    },
    abort() {
      parts = [];
    },
  });
  return { writable, isStreamed: false };
}

/** A registered download whose hidden frame is asking for its stream; `settle` stops the keep-alive and lets the frame go. */
interface StartedStream {
  port: MessagePort;
  settle(): void;
}

/**
 * Registers `message` with the controller and points a hidden same-origin frame at its stream's
 * URL; null when no service worker controls the page or the controller does not answer in time.
 * The browser's download starts at once.
 */
async function startStream(message: RegisterDownload): Promise<StartedStream | null> {
  const controller = currentController();
  if (!controller) return null;
  const channel = new MessageChannel();
  if (!(await register(controller, channel, message))) {
    channel.port1.close();
    return null;
  }
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.title = 'Download';
  const keepAlive = setInterval(() => currentController()?.postMessage({ type: 'cairn-download-keepalive' } satisfies KeepAlive), KEEP_ALIVE_MS);
  let isSettled = false;
  frame.src = downloadStreamUrl(message.id);
  document.body.append(frame);
  return {
    port: channel.port1,
    settle() {
      if (isSettled) return;
      isSettled = true;
      clearInterval(keepAlive);
      setTimeout(() => frame.remove(), FRAME_LINGER_MS);
    },
  };
}

/**
 * A target for one download: the service worker's stream when one controls the page, else the
 * Blob fallback. Streamed, the browser's download starts at once (a hidden same-origin frame
 * navigates to the stream's URL) and completes only once every byte was written and the stream
 * closed; an aborted or short stream makes the browser mark it failed.
 */
export async function openSaveStream(meta: SaveMeta): Promise<SaveTarget> {
  const started = await startStream({ type: 'cairn-download-register', id: crypto.randomUUID(), ...meta });
  if (!started) return blobTarget(meta);
  const writable = writableToPort(started.port, { size: meta.size, onSettled: started.settle });
  return { writable, isStreamed: true };
}

/** How long the service worker may take to start a download with a source before it fails (ms). */
const SOURCE_START_TIMEOUT_MS = 15_000;

/**
 * Saves one file whose chunks the service worker fetches, checks and opens itself (`source`, see
 * downloadStreamProtocol.ts): the page only follows its progress. Resolves false at once when no
 * service worker can take it (the caller then streams the file through the page); else true once
 * every byte was handed to the browser. Rejects with Error(message) as the service worker's fetch
 * failed ('CHUNK_TAMPERED', 'UNREACHABLE: …', …), Error(STREAM_CANCELLED) when the browser's
 * download was cancelled, and `signal`'s reason when it aborts (the browser's download then fails).
 */
export async function saveFromSource(meta: SaveMeta, source: ChunkSource, signal: AbortSignal, onProgress: (received: number) => void): Promise<boolean> {
  signal.throwIfAborted();
  const message: RegisterDownload = { type: 'cairn-download-register', id: crypto.randomUUID(), ...meta, source };
  // What the service worker would refuse (and so never answer) goes through the page instead.
  if (!RegisterDownload.safeParse(message).success) return false;
  // Structured-cloned to the service worker: the key is copied, the caller keeps its own.
  const started = await startStream(message);
  if (!started) return false;
  const { port, settle } = started;
  await new Promise<void>((resolve, reject) => {
    const startTimer = setTimeout(() => fail(new Error('The download did not start: the service worker did not answer.'), true), SOURCE_START_TIMEOUT_MS);
    const onAbort = () => fail(signal.reason instanceof Error ? signal.reason : new Error('The download was stopped.'), true);
    function end() {
      clearTimeout(startTimer);
      signal.removeEventListener('abort', onAbort);
      port.onmessage = null;
      port.close();
      settle();
    }
    function fail(error: Error, tellWorker: boolean) {
      if (tellWorker) port.postMessage({ type: 'abort', message: error.message.slice(0, 1000) } satisfies PagePortMessage);
      end();
      reject(error);
    }
    signal.addEventListener('abort', onAbort, { once: true });
    // Stopped while the service worker was being asked: it is told at once.
    if (signal.aborted) return onAbort();
    port.onmessage = (event: MessageEvent) => {
      const message = ServiceWorkerPortMessage.safeParse(event.data);
      if (!message.success) return;
      switch (message.data.type) {
        case 'started':
          clearTimeout(startTimer);
          break;
        case 'progress':
          onProgress(message.data.received);
          break;
        case 'done':
          end();
          resolve();
          break;
        case 'failed':
          fail(new Error(message.data.message), false);
          break;
        case 'cancel':
          fail(new Error(STREAM_CANCELLED), false);
          break;
        default:
          break;
      }
    };
  });
  return true;
}
