/**
 * The file list is one scrolled list, and its toolbar keeps the spec's pagination (section 2,
 * "File list toolbar: ... pagination"; section 9, page size 40) as a view onto it: it shows which
 * rows are on screen and jumps by pages of 40 rows.
 */

/** A rendered row's extent along the scroll axis (any unit, the same as the viewport's). */
export interface RowExtent {
  index: number;
  start: number;
  end: number;
}

export interface RowRange {
  first: number;
  last: number;
}

/**
 * The first and last rows whose middle lies in the viewport [top, bottom): a row half hidden under
 * the sticky header does not count as shown. `rows` in index order. Null when none is.
 */
export function visibleRows(rows: readonly RowExtent[], top: number, bottom: number): RowRange | null {
  let first = -1;
  let last = -1;
  for (const row of rows) {
    const middle = (row.start + row.end) / 2;
    if (middle < top || middle >= bottom) continue;
    if (first < 0) first = row.index;
    last = row.index;
  }
  return first < 0 ? null : { first, last };
}

export function pageCountOf(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** 1-based page of a 0-based row index. */
export function pageOfRow(index: number, pageSize: number): number {
  return Math.floor(index / pageSize) + 1;
}

/** 0-based index of the first row of a 1-based page, clamped to the list. */
export function firstRowOfPage(page: number, pageSize: number, count: number): number {
  return Math.max(0, Math.min((page - 1) * pageSize, count - 1));
}

/**
 * The page the pager shows as current: the first visible row's, except when the last row is on
 * screen (and the first is not), where it is the last page, since a short last page cannot be
 * scrolled up to the top of the screen.
 */
export function currentPage(range: RowRange | null, count: number, pageSize: number): number {
  if (!range) return 1;
  if (range.last === count - 1 && range.first > 0) return pageCountOf(count, pageSize);
  return pageOfRow(range.first, pageSize);
}

const COUNT_FORMAT = new Intl.NumberFormat('en-US');

export function formatCount(count: number): string {
  return COUNT_FORMAT.format(count);
}

/** '1–14 of 10,000' (1-based, inclusive, en dash). */
export function formatRange(range: RowRange | null, count: number): string {
  if (!range || count === 0) return `0 of ${formatCount(count)}`;
  return `${formatCount(range.first + 1)}–${formatCount(range.last + 1)} of ${formatCount(count)}`;
}

/**
 * The row a key moves the focus to from row `current` (arrows by one, Page Up/Down by a page,
 * Home/End to the ends); null for other keys or an empty list.
 */
export function rowForKey(key: string, current: number, count: number, pageSize: number): number | null {
  if (count === 0) return null;
  const clamp = (index: number) => Math.max(0, Math.min(index, count - 1));
  switch (key) {
    case 'ArrowDown':
      return clamp(current + 1);
    case 'ArrowUp':
      return clamp(current - 1);
    case 'PageDown':
      return clamp(current + pageSize);
    case 'PageUp':
      return clamp(current - pageSize);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
