import { describe, expect, it } from 'vitest';
import { addTag, addTagsFromText, removeLastTag, shouldShowTagHint, tagPlaceholder } from './tagRules';

describe('tag entry (spec 000 section 5)', () => {
  it('adds a trimmed tag', () => {
    expect(addTag(['a'], '  photos ')).toEqual(['a', 'photos']);
  });
  it('ignores blanks and duplicates', () => {
    expect(addTag(['a'], '   ')).toEqual(['a']);
    expect(addTag(['a'], ' a ')).toEqual(['a']);
  });
  it('splits pasted text on commas and keeps the unfinished piece', () => {
    expect(addTagsFromText([], 'x, y,,x, z')).toEqual({ tags: ['x', 'y'], rest: ' z' });
  });
  it('Backspace on an empty input removes the last tag only', () => {
    expect(removeLastTag(['a', 'b'], '')).toEqual(['a']);
    expect(removeLastTag(['a', 'b'], 'c')).toEqual(['a', 'b']);
    expect(removeLastTag([], '')).toEqual([]);
  });
  it('hints while text is typed with no tags', () => {
    expect(shouldShowTagHint([], 'ab')).toBe(true);
    expect(shouldShowTagHint([], ' ')).toBe(false);
    expect(shouldShowTagHint(['a'], 'ab')).toBe(false);
  });
  it('uses the two placeholders', () => {
    expect(tagPlaceholder([])).toBe('Add a tag (separate by comma)');
    expect(tagPlaceholder(['a'])).toBe('Add a tag...');
  });
});
