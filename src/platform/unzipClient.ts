import * as Comlink from 'comlink';
import type { UnpackResult, UnzipApi } from '../../workers/zip/UnzipApi';

/** What unpackZip needs of a worker: a Comlink endpoint that can be ended. */
export type UnzipWorker = Comlink.Endpoint & { terminate(): void };

export interface UnpackOptions {
  /** Hears (entries handled, entries in the archive). */
  onProgress?: (done: number, total: number) => void;
  /** Aborting ends the worker at once, wherever it is in the archive. */
  signal?: AbortSignal;
  /** The worker to unpack in (tests pass one over a MessageChannel). */
  createWorker?: () => UnzipWorker;
}

const startWorker = (): UnzipWorker => new Worker(new URL('../../workers/zip/unzip.worker.ts', import.meta.url), { type: 'module', name: 'cairn-unzip' });

/**
 * Unpacks a picked .zip in a worker of its own (workers/zip/unzip.worker.ts), started for this
 * archive and ended after it, so inflating and checking never stall the page. The Files it
 * answers are Blob handles: they stay readable after the worker ends. An abort rejects with the
 * signal's reason (an AbortError by default): nothing unpacked so far is kept.
 */
export async function unpackZip(zip: File, { onProgress, signal, createWorker = startWorker }: UnpackOptions = {}): Promise<UnpackResult> {
  signal?.throwIfAborted();
  const worker = createWorker();
  const remote = Comlink.wrap<UnzipApi>(worker);
  let onAbort = () => undefined as void;
  // A terminated worker never answers: the abort settles the call instead.
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([remote.unpack(zip, onProgress ? Comlink.proxy(onProgress) : undefined), aborted]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    remote[Comlink.releaseProxy]();
    worker.terminate();
  }
}
