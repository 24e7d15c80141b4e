import * as Comlink from 'comlink';
import type { UnpackResult, UnzipApi } from '../../workers/zip/UnzipApi';

/**
 * Unpacks a picked .zip in a worker of its own (workers/zip/unzip.worker.ts), started for this
 * archive and ended after it, so inflating and checking never stall the page. The Files it
 * answers are Blob handles: they stay readable after the worker ends.
 */
export async function unpackZip(zip: File, onProgress?: (done: number, total: number) => void): Promise<UnpackResult> {
  const worker = new Worker(new URL('../../workers/zip/unzip.worker.ts', import.meta.url), { type: 'module', name: 'cairn-unzip' });
  const remote = Comlink.wrap<UnzipApi>(worker);
  try {
    return await remote.unpack(zip, onProgress ? Comlink.proxy(onProgress) : undefined);
  } finally {
    remote[Comlink.releaseProxy]();
    worker.terminate();
  }
}
