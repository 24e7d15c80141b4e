/**
 * Thumbnails made off the page (docs/SYNC_SPEC.md R79): createImageBitmap decodes the picked file
 * in the worker, an OffscreenCanvas scales it, and convertToBlob encodes it. WebP first (smallest,
 * keeps transparency); browsers that cannot encode WebP answer PNG for it, so JPEG follows, at
 * falling qualities until the image fits THUMBNAIL_LIMITS.BYTES. GIFs give their first frame.
 * PDFs give their first page, drawn by pdfjs (R79a, pdfThumbnail.ts), encoded the same way.
 */
import { fitThumbnail } from '../../src/domain/thumbnailSize';
import { THUMBNAIL_LIMITS } from '../../src/protocol/thumbnails';
import type { ThumbnailApi, ThumbnailImage } from './ThumbnailApi';
import { loadPdfjs, startPdfParser } from './loadPdfjs';
import { PDF_THUMBNAIL_LIMITS, renderPdfFirstPage } from './pdfThumbnail';

const ATTEMPTS: readonly { type: string; quality: number }[] = [
  { type: 'image/webp', quality: 0.8 },
  { type: 'image/webp', quality: 0.6 },
  { type: 'image/jpeg', quality: 0.75 },
  { type: 'image/jpeg', quality: 0.5 },
];

async function encode(canvas: OffscreenCanvas): Promise<ThumbnailImage | null> {
  for (const attempt of ATTEMPTS) {
    const encoded = await canvas.convertToBlob(attempt);
    // A browser without the encoder answers PNG: go on to the next type.
    if (encoded.type !== attempt.type) continue;
    if (encoded.size <= THUMBNAIL_LIMITS.BYTES) return { bytes: await encoded.arrayBuffer(), width: canvas.width, height: canvas.height };
  }
  return null;
}

async function makePdfThumbnail(file: Blob): Promise<ThumbnailImage | null> {
  // Checked before reading: a large PDF is never read into memory for its thumbnail.
  if (file.size > PDF_THUMBNAIL_LIMITS.BYTES) return null;
  const canvas = await renderPdfFirstPage(new Uint8Array(await file.arrayBuffer()), {
    loadPdfjs,
    startParser: startPdfParser,
    createCanvas: (width, height) => new OffscreenCanvas(width, height),
  });
  return canvas ? encode(canvas) : null;
}

export function createThumbnailApi(): ThumbnailApi {
  return {
    async makeThumbnail(file: Blob, mimeType: string): Promise<ThumbnailImage | null> {
      if (mimeType.toLowerCase() === 'application/pdf') return makePdfThumbnail(file);
      let bitmap: ImageBitmap;
      try {
        bitmap = await createImageBitmap(file);
      } catch {
        return null;
      }
      try {
        const { width, height } = fitThumbnail(bitmap.width, bitmap.height, THUMBNAIL_LIMITS.EDGE);
        const canvas = new OffscreenCanvas(width, height);
        const context = canvas.getContext('2d');
        if (!context) return null;
        context.imageSmoothingQuality = 'high';
        context.drawImage(bitmap, 0, 0, width, height);
        return await encode(canvas);
      } finally {
        bitmap.close();
      }
    },
  };
}
