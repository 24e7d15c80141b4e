import { describe, expect, it } from 'vitest';
import { galleryWindowRange, shiftGalleryWindow, stepGalleryIndex } from './galleryWindow';

describe('shiftGalleryWindow (spec 000 section 9: window 50, shifts of 5)', () => {
  it('keeps the window at 0 when everything fits', () => {
    expect(shiftGalleryWindow(0, 30, 40)).toBe(0);
    expect(shiftGalleryWindow(7, 3, 50)).toBe(0);
  });

  it('stays put while the current item is inside the window', () => {
    expect(shiftGalleryWindow(0, 10, 200)).toBe(0);
    expect(shiftGalleryWindow(20, 40, 200)).toBe(20);
  });

  it('shifts by 5 when the current item reaches the last slot', () => {
    expect(shiftGalleryWindow(0, 49, 200)).toBe(5);
    expect(shiftGalleryWindow(5, 54, 200)).toBe(10);
  });

  it('shifts back by 5 when the current item reaches the first slot', () => {
    expect(shiftGalleryWindow(10, 10, 200)).toBe(5);
    expect(shiftGalleryWindow(5, 5, 200)).toBe(0);
  });

  it('does not shift past either end of the list', () => {
    expect(shiftGalleryWindow(0, 0, 200)).toBe(0);
    expect(shiftGalleryWindow(148, 197, 200)).toBe(150);
    expect(shiftGalleryWindow(150, 199, 200)).toBe(150);
    expect(shiftGalleryWindow(0, 52, 52)).toBe(2);
  });

  it('follows a jump far outside the window (a link to a file deep in the folder)', () => {
    expect(shiftGalleryWindow(0, 120, 200)).toBe(76);
    expect(shiftGalleryWindow(100, 3, 200)).toBe(0);
  });

  it('clamps a stale start after the list shrank', () => {
    expect(shiftGalleryWindow(180, 60, 100)).toBe(50);
  });
});

describe('galleryWindowRange', () => {
  it('answers slice bounds within the list', () => {
    expect(galleryWindowRange(5, 200)).toEqual({ start: 5, end: 55 });
    expect(galleryWindowRange(5, 20)).toEqual({ start: 0, end: 20 });
    expect(galleryWindowRange(0, 0)).toEqual({ start: 0, end: 0 });
  });
});

describe('stepGalleryIndex', () => {
  it('moves one item and stops at the ends', () => {
    expect(stepGalleryIndex(3, 1, 10)).toBe(4);
    expect(stepGalleryIndex(9, 1, 10)).toBe(9);
    expect(stepGalleryIndex(0, -1, 10)).toBe(0);
    expect(stepGalleryIndex(0, 1, 0)).toBe(-1);
  });
});
