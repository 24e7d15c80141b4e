import * as Comlink from 'comlink';
import type { UnpackResult, UnzipApi } from '../../workers/zip/UnzipApi';

/**
 * Unpacks a picked .zip in a worker of its own (workers/zip/unzip.worker.ts), started for this
 * archive and ended after it, so inflating and checking never stall the page. The Files it
 * answers are Blob handles: they stay readable after the worker ends. Aborting `signal` ends the
 * worker at once, wherever it is in the archive, and rejects with the signal's reason (an
 * AbortError): nothing unpacked so far is kept.
 */
export async function unpackZip(zip: File, onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<UnpackResult> {
  signal?.throwIfAborted();
  const worker = new Worker(new URL('../../workers/zip/unzip.worker.ts', import.meta.url), { type: 'module', name: 'cairn-unzip' });
  const remote = Comlink.wrap<UnzipApi>(worker);
  let onAbort = () => undefined as void;
  // A terminated worker never answers: the abort settles the call instead.
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal?.reason ?? new DOMException('Unpacking was cancelled', 'AbortError'));
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
