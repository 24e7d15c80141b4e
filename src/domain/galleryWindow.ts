/** The gallery's thumbnail strip (spec 000 section 9: a window of 50 files that shifts by 5). */

export const GALLERY_WINDOW_SIZE = 50;
export const GALLERY_WINDOW_SHIFT = 5;

/**
 * The first index of the strip's window so that `current` is inside it. The window stays put
 * while the current item moves inside it; when the current item reaches either edge the window
 * shifts by `shift` (or as far as needed for a jump) towards it, never past the list's ends.
 */
export function shiftGalleryWindow(
  start: number,
  current: number,
  total: number,
  size: number = GALLERY_WINDOW_SIZE,
  shift: number = GALLERY_WINDOW_SHIFT,
): number {
  if (total <= size) return 0;
  const maxStart = total - size;
  const clamp = (value: number) => Math.min(Math.max(value, 0), maxStart);
  let next = clamp(start);
  const target = Math.min(Math.max(current, 0), total - 1);
  // At (or past) the first slot: bring `shift` earlier items into view.
  if (target <= next && next > 0) next = clamp(Math.min(next - shift, target - shift));
  // At (or past) the last slot: bring `shift` later items into view.
  else if (target >= next + size - 1 && next < maxStart) next = clamp(Math.max(next + shift, target - size + 1 + shift));
  return next;
}

/** The window [start, end) of the strip, as `slice` arguments. */
export function galleryWindowRange(start: number, total: number, size: number = GALLERY_WINDOW_SIZE): { start: number; end: number } {
  const from = Math.max(0, Math.min(start, Math.max(0, total - size)));
  return { start: from, end: Math.min(total, from + size) };
}

/** The neighbour of `current` in a direction, wrapping at neither end; -1 for an empty list. */
export function stepGalleryIndex(current: number, direction: -1 | 1, total: number): number {
  if (total === 0) return -1;
  return Math.min(Math.max(current + direction, 0), total - 1);
}
