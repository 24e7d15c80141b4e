import type { PdfParser, Pdfjs } from './pdfThumbnail';

/**
 * pdfjs is imported here, only when a PDF is picked, so it stays out of the app's first load and
 * the precache (vite.config.ts). The legacy build: the modern one relies on
 * `Map.prototype.getOrInsertComputed`, which not every browser we support has yet.
 */
export async function loadPdfjs(): Promise<Pdfjs> {
  return (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as Pdfjs;
}

/**
 * pdfjs's parser runs in a worker of its own (pdfjs.worker.ts), as pdfjs intends: the thumbnail
 * worker's time limit can then fire while a hostile file keeps the parser busy, and ending it
 * stops the parse. Loaded only now, for this PDF.
 */
export function startPdfParser(pdfjs: Pdfjs): PdfParser {
  const worker = new Worker(new URL('./pdfjs.worker.ts', import.meta.url), { type: 'module', name: 'cairn-pdfjs' });
  const pdfWorker = new pdfjs.PDFWorker({ port: worker });
  return {
    params: { worker: pdfWorker },
    stop() {
      pdfWorker.destroy();
      worker.terminate();
    },
  };
}
