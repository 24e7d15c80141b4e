/**
 * The size of a thumbnail (docs/SYNC_SPEC.md R79): the image scaled to fit `edge` pixels on its
 * longer side, keeping its proportions, never enlarged, never under one pixel.
 */
export function fitThumbnail(width: number, height: number, edge: number): { width: number; height: number } {
  if (!(width > 0 && height > 0)) throw new RangeError('fitThumbnail: an image has a size');
  const scale = Math.min(1, edge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
