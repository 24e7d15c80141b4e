import { describe, expect, it } from 'vitest';
import { canBatchDownload, toggleAll, toggleSelection } from './selectionRules';

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
  it('select-all selects the page, then clears it', () => {
    expect(toggleAll(IDS, new Set(['a'])).size).toBe(5);
    expect(toggleAll(IDS, new Set(IDS)).size).toBe(0);
  });
  it('batch download stops at 1e9 bytes', () => {
    expect(canBatchDownload(999_999_999)).toBe(true);
    expect(canBatchDownload(1_000_000_000)).toBe(false);
  });
});
