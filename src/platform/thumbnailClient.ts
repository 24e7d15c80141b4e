import * as Comlink from 'comlink';
import type { ThumbnailApi, ThumbnailImage } from '../../workers/thumbnail/ThumbnailApi';

/**
 * Makes an upload's thumbnail in a worker of its own (workers/thumbnail/thumbnail.worker.ts),
 * started for the file and ended after it, so decoding a large photo never stalls the page.
 */
export async function makeThumbnailInWorker(file: Blob): Promise<ThumbnailImage | null> {
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') return null;
  const worker = new Worker(new URL('../../workers/thumbnail/thumbnail.worker.ts', import.meta.url), { type: 'module', name: 'cairn-thumbnail' });
  const remote = Comlink.wrap<ThumbnailApi>(worker);
  try {
    return await remote.makeThumbnail(file);
  } finally {
    remote[Comlink.releaseProxy]();
    worker.terminate();
  }
}
