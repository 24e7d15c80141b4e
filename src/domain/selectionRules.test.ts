import { describe, expect, it } from 'vitest';
import { canBatchDownload, selectionSummary, toggleAll, toggleSelection } from './selectionRules';

const IDS = ['a', 'b', 'c', 'd', 'e'];

describe('selection (spec 000 section 5)', () => {
  it('a plain click toggles one row', () => {
    expect([...toggleSelection(IDS, new Set(['a']), 'c', 'a', false)]).toEqual(['a', 'c']);
    expect([...toggleSelection(IDS, new Set(['a', 'c']), 'c', 'a', false)]).toEqual(['a']);
  });
  it('shift-click selects the range from the anchor, in either direction', () => {
    expect([...toggleSelection(IDS, new Set(['b']), 'd', 'b', true)].sort()).toEqual(['b', 'c', 'd']);
    expect([...toggleSelection(IDS, new Set(['d']), 'a', 'd', true)].sort()).toEqual(['a', 'b', 'c', 'd']);
  });
  it('shift-click on a selected row clears the range', () => {
    expect([...toggleSelection(IDS, new Set(IDS), 'd', 'b', true)].sort()).toEqual(['a', 'e']);
  });
  it('shift without an anchor on the page toggles only the row', () => {
    expect([...toggleSelection(IDS, new Set(), 'c', 'zz', true)]).toEqual(['c']);
  });
  it('select-all selects every item of the folder, then clears it', () => {
    expect(toggleAll(IDS, new Set(['a'])).size).toBe(5);
    expect(toggleAll(IDS, new Set(IDS)).size).toBe(0);
  });
  it('a shift range spans rows far apart in a long list', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `n${i}`);
    const range = toggleSelection(ids, new Set(['n3']), 'n9000', 'n3', true);
    expect(range.size).toBe(8_998);
    expect(range.has('n3') && range.has('n4500') && range.has('n9000') && !range.has('n9001')).toBe(true);
  });
  it('says how many items there are, and how many are selected', () => {
    expect(selectionSummary(0, 1)).toBe('1 item');
    expect(selectionSummary(0, 10_000)).toBe('10,000 items');
    expect(selectionSummary(12, 10_000)).toBe('12 selected');
    expect(selectionSummary(10_000, 10_000)).toBe('All 10,000 selected');
    expect(selectionSummary(1, 1)).toBe('1 selected');
  });
  it('counts the rows of new files still uploading with the items (not "0 items" above four uploading rows)', () => {
    expect(selectionSummary(0, 0, 4)).toBe('4 items');
    expect(selectionSummary(0, 0, 1)).toBe('1 item');
    expect(selectionSummary(0, 3, 2)).toBe('5 items');
    // Uploading rows cannot be selected: the selection counts the items.
    expect(selectionSummary(3, 3, 2)).toBe('All 3 selected');
  });
  it('batch download stops at 1e9 bytes', () => {
    expect(canBatchDownload(999_999_999)).toBe(true);
    expect(canBatchDownload(1_000_000_000)).toBe(false);
  });
});
