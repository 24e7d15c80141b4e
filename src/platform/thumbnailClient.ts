import * as Comlink from 'comlink';
import type { ThumbnailApi, ThumbnailImage } from '../../workers/thumbnail/ThumbnailApi';

/**
 * How long a thumbnail may take, loading pdfjs included, before its worker is ended and the file
 * goes up without one. Longer than the PDF renderer's own limit (PDF_THUMBNAIL_LIMITS.TIME_MS).
 */
const THUMBNAIL_WORKER_TIME_LIMIT_MS = 15_000;

/**
 * Makes an upload's thumbnail in a worker of its own (workers/thumbnail/thumbnail.worker.ts),
 * started for the file and ended after it, so decoding a large photo never stalls the page.
 */
export async function makeThumbnailInWorker(file: Blob, mimeType: string): Promise<ThumbnailImage | null> {
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') return null;
  const worker = new Worker(new URL('../../workers/thumbnail/thumbnail.worker.ts', import.meta.url), { type: 'module', name: 'cairn-thumbnail' });
  const remote = Comlink.wrap<ThumbnailApi>(worker);
  try {
    // The worker's own time limit cannot fire while a hostile PDF keeps its thread busy: this
    // one ends the worker, whatever it is doing (R79a).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), THUMBNAIL_WORKER_TIME_LIMIT_MS);
    });
    try {
      return await Promise.race([remote.makeThumbnail(file, mimeType), limit]);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    remote[Comlink.releaseProxy]();
    worker.terminate();
  }
}
