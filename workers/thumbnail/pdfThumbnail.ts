/**
 * A PDF's thumbnail is its first page (docs/SYNC_SPEC.md R79a), drawn by pdfjs inside the
 * thumbnail worker. A PDF is hostile input, so pdfjs runs with the least it needs: no `eval` for
 * fonts (`isEvalSupported: false`), no FontFace or system fonts (glyphs are drawn as paths, which
 * needs no DOM), no XFA forms, no WebAssembly decoders, and a data factory that refuses every
 * CMap, standard-font or wasm fetch, so nothing is asked from the network. Scripts in the PDF are
 * never run: only the viewer's sandbox runs them, and it is not loaded. Only page 1 is drawn, at
 * most 256 px on its longer side; a page larger than PDF_THUMBNAIL_LIMITS.PAGE_POINTS, a file
 * larger than PDF_THUMBNAIL_LIMITS.BYTES, images above PDF_THUMBNAIL_LIMITS.IMAGE_PIXELS and a
 * render slower than PDF_THUMBNAIL_LIMITS.TIME_MS give no thumbnail (the list shows the PDF icon).
 * The parser runs in a worker of its own (loadPdfjs.ts), so this timer fires even while a hostile
 * file keeps it busy, and ending that worker stops the parse; the page also ends the thumbnail
 * worker after a longer time (src/platform/thumbnailClient.ts), drawing included.
 *
 * pdfjs and the canvas are ports: the worker imports pdfjs lazily (only when a PDF is picked) and
 * draws on an OffscreenCanvas; the Node test passes pdfjs's legacy build and @napi-rs/canvas.
 */
import { fitThumbnail } from '../../src/domain/thumbnailSize';
import { THUMBNAIL_LIMITS } from '../../src/protocol/thumbnails';

export const PDF_THUMBNAIL_LIMITS = {
  /** Give up on a page not drawn within this time. */
  TIME_MS: 5_000,
  /** Bigger PDFs are not read into memory for a thumbnail. */
  BYTES: 64 * 1024 * 1024,
  /** A side longer than the PDF format's own limit (200 inches at 72 points) is not drawn. */
  PAGE_POINTS: 14_400,
  /** pdfjs skips images with more pixels than this instead of decoding them. */
  IMAGE_PIXELS: 4096 * 4096,
} as const;

/** What pdfjs needs of a canvas; OffscreenCanvas in the worker, @napi-rs/canvas in Node. */
export interface DrawingCanvas {
  width: number;
  height: number;
  getContext(type: '2d'): unknown;
}

interface CanvasEntry<C> {
  canvas: C | null;
  context: unknown;
}

interface PdfRenderTask {
  promise: Promise<void>;
  cancel(): void;
}

interface PdfPage {
  getViewport(params: { scale: number }): { width: number; height: number };
  render(params: { canvasContext: unknown; canvas: unknown; viewport: unknown; background: string; annotationMode: number }): PdfRenderTask;
}

interface PdfLoadingTask {
  promise: Promise<{ getPage(pageNumber: number): Promise<PdfPage> }>;
  destroy(): Promise<void>;
}

/** The part of pdfjs used here (its own types describe DOM canvases; this worker has no DOM). */
export interface Pdfjs {
  getDocument(params: Record<string, unknown>): PdfLoadingTask;
  AnnotationMode: { DISABLE: number };
  PDFWorker: new (params: { port: unknown }) => { destroy(): void };
}

/** Where pdfjs parses: `params` go to getDocument, `stop` ends it once the page is drawn or not. */
export interface PdfParser {
  params: Record<string, unknown>;
  stop(): void;
}

export interface PdfThumbnailPorts<C extends DrawingCanvas> {
  /** Loads pdfjs. */
  loadPdfjs(): Promise<Pdfjs>;
  /** Starts pdfjs's parser in a worker of its own; without it, pdfjs's default (Node: in this thread). */
  startParser?(pdfjs: Pdfjs): PdfParser;
  createCanvas(width: number, height: number): C;
  /** PDF_THUMBNAIL_LIMITS.TIME_MS unless a test says otherwise. */
  timeLimitMs?: number;
}

class TimeLimitExceeded extends Error {}

/**
 * Draws page 1 of `bytes` scaled to fit THUMBNAIL_LIMITS.EDGE; null (never a throw) when it is
 * not a PDF pdfjs can read, the page is too large, or drawing takes too long.
 */
export async function renderPdfFirstPage<C extends DrawingCanvas>(bytes: Uint8Array, ports: PdfThumbnailPorts<C>): Promise<C | null> {
  if (bytes.length === 0 || bytes.length > PDF_THUMBNAIL_LIMITS.BYTES) return null;
  let pdfjs: Pdfjs;
  try {
    pdfjs = await ports.loadPdfjs();
  } catch {
    return null;
  }

  // pdfjs's own factories reach for `document`: these make OffscreenCanvases, apply no SVG
  // filters (a thumbnail needs no transfer maps or high-contrast colours) and fetch nothing.
  class CanvasFactory {
    create(width: number, height: number): CanvasEntry<C> {
      if (!(width > 0 && height > 0)) throw new Error('Invalid canvas size');
      const canvas = ports.createCanvas(width, height);
      return { canvas, context: canvas.getContext('2d') };
    }
    reset(entry: CanvasEntry<C>, width: number, height: number): void {
      if (!entry.canvas || !(width > 0 && height > 0)) throw new Error('Invalid canvas size');
      entry.canvas.width = width;
      entry.canvas.height = height;
    }
    destroy(entry: CanvasEntry<C>): void {
      if (entry.canvas) entry.canvas.width = entry.canvas.height = 0;
      entry.canvas = null;
      entry.context = null;
    }
  }
  class FilterFactory {
    addFilter(): string {
      return 'none';
    }
    addHCMFilter(): string {
      return 'none';
    }
    addAlphaFilter(): string {
      return 'none';
    }
    addLuminosityFilter(): string {
      return 'none';
    }
    addHighlightHCMFilter(): string {
      return 'none';
    }
    destroy(): void {}
  }
  class BinaryDataFactory {
    async fetch(): Promise<never> {
      throw new Error('A thumbnail loads nothing from the network');
    }
  }

  let parser: PdfParser | undefined;
  let task: PdfLoadingTask;
  try {
    parser = ports.startParser?.(pdfjs);
    task = pdfjs.getDocument({
      ...parser?.params,
      data: bytes.slice(),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      useWorkerFetch: false,
      useWasm: false,
      enableXfa: false,
      stopAtErrors: false,
      maxImageSize: PDF_THUMBNAIL_LIMITS.IMAGE_PIXELS,
      disableAutoFetch: true,
      disableStream: true,
      verbosity: 0,
      CanvasFactory,
      FilterFactory,
      BinaryDataFactory,
    });
  } catch {
    parser?.stop();
    return null;
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  let renderTask: PdfRenderTask | undefined;
  const timeLimit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeLimitExceeded()), ports.timeLimitMs ?? PDF_THUMBNAIL_LIMITS.TIME_MS);
  });
  const draw = async (): Promise<C | null> => {
    const document = await task.promise;
    const page = await document.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    if (!(natural.width >= 1 && natural.height >= 1)) return null;
    if (Math.max(natural.width, natural.height) > PDF_THUMBNAIL_LIMITS.PAGE_POINTS) return null;
    const { width, height } = fitThumbnail(natural.width, natural.height, THUMBNAIL_LIMITS.EDGE);
    const scale = Math.min(width / natural.width, height / natural.height);
    const canvas = ports.createCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    renderTask = page.render({
      canvasContext: context,
      canvas,
      viewport: page.getViewport({ scale }),
      background: '#ffffff',
      // Annotations (form fields, links, notes) are left out: less of a hostile file is run.
      annotationMode: pdfjs.AnnotationMode.DISABLE,
    });
    await renderTask.promise;
    return canvas;
  };
  try {
    return await Promise.race([draw(), timeLimit]);
  } catch {
    renderTask?.cancel();
    return null;
  } finally {
    clearTimeout(timer);
    // Frees the parsed document; a failure here must not turn a drawn page into no thumbnail.
    await task.destroy().catch(() => undefined);
    parser?.stop();
  }
}
