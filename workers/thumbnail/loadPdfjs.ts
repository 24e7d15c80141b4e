/// <reference path="./pdfjsWorker.d.ts" />
import type { Pdfjs } from './pdfThumbnail';

/**
 * pdfjs and its worker code (about 2 MB) are imported here, only when a PDF is picked, so they
 * stay out of the app's first load and the precache (vite.config.ts). Setting `pdfjsWorker`
 * makes pdfjs run its parser in this thread (its "fake worker"), which is already off the page,
 * instead of starting yet another worker. The legacy build: the modern one relies on
 * `Map.prototype.getOrInsertComputed`, which not every browser we support has yet.
 */
export async function loadPdfjs(): Promise<Pdfjs> {
  const [pdfjs, pdfjsWorker] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]);
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfjsWorker;
  return pdfjs as unknown as Pdfjs;
}
