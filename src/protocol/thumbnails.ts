/**
 * Thumbnails of images and PDFs (issue 26, docs/SYNC_SPEC.md R79). Made on the device that
 * uploads the file, at most THUMBNAIL_LIMITS.EDGE pixels on its longer side and
 * THUMBNAIL_LIMITS.BYTES bytes (WebP, else JPEG or PNG), and uploaded as a blob of one chunk through
 * the ordinary blob routes. The version that names it (`FileVersion.thumbnail`) is signed with
 * the rest of the operation, so its hash is the uploader's word like the content's.
 *
 * Private vaults: stored = nonce(12) || AES-256-GCM(image) under the thumbnail key, which is
 * HKDF-SHA-256 of the version's file key (info THUMBNAIL_KEY_INFO): the key that seals the
 * content never seals anything else under its chunk nonces, and the server never sees the image.
 * The associated data is THUMBNAIL_KEY_INFO and the version id. Public vaults: the clear image.
 */
import { z } from 'zod';
import { Hex32, Id } from './primitives';

export const THUMBNAIL_LIMITS = {
  /** Longest side, in pixels. */
  EDGE: 256,
  /** Most bytes of the encoded image. */
  BYTES: 64 * 1024,
  /** AES-GCM nonce and tag around a private vault's image. */
  SEAL_OVERHEAD: 12 + 16,
} as const;

/** HKDF info and the associated data's prefix of a private thumbnail (src/crypto/thumbnailSeal.ts). */
export const THUMBNAIL_KEY_INFO = 'cairn thumbnail v1';

/** The MIME types that get a thumbnail; every other file shows its icon. */
export const THUMBNAIL_SOURCE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'] as const;

export const Thumbnail = z.strictObject({
  /** A blob of one chunk, announced in the same vault by the same uploader. */
  blobId: Id,
  storedSize: z.number().int().min(1).max(THUMBNAIL_LIMITS.BYTES + THUMBNAIL_LIMITS.SEAL_OVERHEAD),
  /** SHA-256 (hex) of the stored chunk. */
  sha256: Hex32,
  width: z.number().int().min(1).max(THUMBNAIL_LIMITS.EDGE),
  height: z.number().int().min(1).max(THUMBNAIL_LIMITS.EDGE),
});
export type Thumbnail = z.infer<typeof Thumbnail>;

/** Whether a file of this MIME type gets a thumbnail when uploaded. */
export function hasThumbnailSource(mimeType: string): boolean {
  return (THUMBNAIL_SOURCE_TYPES as readonly string[]).includes(mimeType.toLowerCase());
}
