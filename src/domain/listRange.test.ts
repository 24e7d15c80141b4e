import { describe, expect, it } from 'vitest';
import { currentPage, firstRowOfPage, formatRange, pageCountOf, pageOfRow, rowForKey, type RowExtent, visibleRows } from './listRange';

/** Rows of 50 px from y = 200 (the list's top on the page). */
const rows = (from: number, to: number): RowExtent[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ index: from + i, start: 200 + (from + i) * 50, end: 250 + (from + i) * 50 }));

describe('the file list pager over one scrolled list (spec 000 sections 2 and 9)', () => {
  it('counts a row as shown when its middle is on screen, below the sticky header and above the bottom bar', () => {
    // Screen from 1000 to 1700: row 16 (1000-1050) is in, row 15 (950-1000) under the header is not.
    expect(visibleRows(rows(5, 40), 1000, 1700)).toEqual({ first: 16, last: 29 });
    // Half of row 16 hidden under the header: its middle (1025) is at the edge, still out below 1026.
    expect(visibleRows(rows(5, 40), 1026, 1700)?.first).toBe(17);
    expect(visibleRows(rows(0, 3), 5000, 6000)).toBeNull();
  });

  it('has pages of 40 rows', () => {
    expect(pageCountOf(0, 40)).toBe(1);
    expect(pageCountOf(40, 40)).toBe(1);
    expect(pageCountOf(41, 40)).toBe(2);
    expect(pageCountOf(10_000, 40)).toBe(250);
    expect(pageOfRow(0, 40)).toBe(1);
    expect(pageOfRow(39, 40)).toBe(1);
    expect(pageOfRow(40, 40)).toBe(2);
    expect(firstRowOfPage(2, 40, 45)).toBe(40);
    expect(firstRowOfPage(250, 40, 10_000)).toBe(9_960);
    expect(firstRowOfPage(9, 40, 45)).toBe(44);
  });

  it('shows the page of the first row on screen, and the last page once the end is on screen', () => {
    expect(currentPage({ first: 0, last: 13 }, 10_000, 40)).toBe(1);
    expect(currentPage({ first: 40, last: 53 }, 10_000, 40)).toBe(2);
    expect(currentPage({ first: 79, last: 92 }, 10_000, 40)).toBe(2);
    // 45 rows scrolled to the bottom: rows 32-45 show, page 2 (rows 41-45) is current.
    expect(currentPage({ first: 31, last: 44 }, 45, 40)).toBe(2);
    // Everything fits on screen: the first page.
    expect(currentPage({ first: 0, last: 44 }, 45, 40)).toBe(1);
    expect(currentPage(null, 45, 40)).toBe(1);
  });

  it('words the range with an en dash and grouped thousands', () => {
    expect(formatRange({ first: 0, last: 39 }, 10_000)).toBe('1–40 of 10,000');
    expect(formatRange({ first: 9_985, last: 9_999 }, 10_000)).toBe('9,986–10,000 of 10,000');
    expect(formatRange(null, 0)).toBe('0 of 0');
  });

  it('moves the focused row with the arrows, a page at a time, and to either end', () => {
    expect(rowForKey('ArrowDown', 5, 100, 40)).toBe(6);
    expect(rowForKey('ArrowUp', 0, 100, 40)).toBe(0);
    expect(rowForKey('ArrowDown', 99, 100, 40)).toBe(99);
    expect(rowForKey('PageDown', 70, 100, 40)).toBe(99);
    expect(rowForKey('PageUp', 50, 100, 40)).toBe(10);
    expect(rowForKey('Home', 50, 100, 40)).toBe(0);
    expect(rowForKey('End', 0, 10_000, 40)).toBe(9_999);
    expect(rowForKey('a', 0, 100, 40)).toBeNull();
    expect(rowForKey('End', 0, 0, 40)).toBeNull();
  });
});
