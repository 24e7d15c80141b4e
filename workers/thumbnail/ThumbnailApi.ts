/** What the thumbnail worker offers (docs/SYNC_SPEC.md R79). */
export interface ThumbnailImage {
  /** The encoded image (WebP, else JPEG), at most THUMBNAIL_LIMITS.BYTES. */
  bytes: ArrayBuffer;
  width: number;
  height: number;
}

export interface ThumbnailApi {
  /**
   * Decodes `file` (an image the browser can decode, or a PDF's first page when `mimeType` is
   * application/pdf), scales it to fit 256 px and encodes it within 64 KiB; null when it cannot be
   * decoded or encoded small enough.
   */
  makeThumbnail(file: Blob, mimeType: string): Promise<ThumbnailImage | null>;
}
