/**
 * Thumbnails made off the page (docs/SYNC_SPEC.md R79): createImageBitmap decodes the picked file
 * in the worker, an OffscreenCanvas scales it, and convertToBlob encodes it. WebP first (smallest,
 * keeps transparency); browsers that cannot encode WebP answer PNG for it, so JPEG follows, at
 * falling qualities until the image fits THUMBNAIL_LIMITS.BYTES. GIFs give their first frame.
 */
import { fitThumbnail } from '../../src/domain/thumbnailSize';
import { THUMBNAIL_LIMITS } from '../../src/protocol/thumbnails';
import type { ThumbnailApi, ThumbnailImage } from './ThumbnailApi';

const ATTEMPTS: readonly { type: string; quality: number }[] = [
  { type: 'image/webp', quality: 0.8 },
  { type: 'image/webp', quality: 0.6 },
  { type: 'image/jpeg', quality: 0.75 },
  { type: 'image/jpeg', quality: 0.5 },
];

export function createThumbnailApi(): ThumbnailApi {
  return {
    async makeThumbnail(file: Blob): Promise<ThumbnailImage | null> {
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
        for (const attempt of ATTEMPTS) {
          const encoded = await canvas.convertToBlob(attempt);
          // A browser without the encoder answers PNG: go on to the next type.
          if (encoded.type !== attempt.type) continue;
          if (encoded.size <= THUMBNAIL_LIMITS.BYTES) return { bytes: await encoded.arrayBuffer(), width, height };
        }
        return null;
      } finally {
        bitmap.close();
      }
    },
  };
}
