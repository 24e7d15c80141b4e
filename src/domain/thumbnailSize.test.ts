import { describe, expect, it } from 'vitest';
import { fitThumbnail } from './thumbnailSize';

describe('[R79] fitThumbnail', () => {
  it('fits the longer side into the edge and keeps the proportions', () => {
    expect(fitThumbnail(4000, 3000, 256)).toEqual({ width: 256, height: 192 });
    expect(fitThumbnail(1080, 1920, 256)).toEqual({ width: 144, height: 256 });
  });
  it('never enlarges a small image, and never goes under a pixel', () => {
    expect(fitThumbnail(40, 30, 256)).toEqual({ width: 40, height: 30 });
    expect(fitThumbnail(10_000, 3, 256)).toEqual({ width: 256, height: 1 });
  });
  it('refuses an image without a size', () => {
    expect(() => fitThumbnail(0, 10, 256)).toThrow(RangeError);
  });
});
