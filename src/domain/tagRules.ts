/**
 * Tag entry in the vault metadata form (spec 000 section 5): a tag is added on a comma keypress,
 * trimmed; blanks and duplicates are ignored; Backspace on an empty input removes the last tag.
 */

export const TAG_HINT = 'Finish entering a tag with a comma.';
export const TAG_PLACEHOLDER_EMPTY = 'Add a tag (separate by comma)';
export const TAG_PLACEHOLDER_MORE = 'Add a tag...';

/** The tags after committing `text` (the input's content when a comma is typed). */
export function addTag(tags: readonly string[], text: string): string[] {
  const tag = text.trim();
  if (tag === '' || tags.includes(tag)) return [...tags];
  return [...tags, tag];
}

/** Pasted or typed text holding commas: every complete piece becomes a tag, the rest stays typed. */
export function addTagsFromText(tags: readonly string[], text: string): { tags: string[]; rest: string } {
  const pieces = text.split(',');
  const rest = pieces.pop() ?? '';
  return { tags: pieces.reduce<string[]>((acc, piece) => addTag(acc, piece), [...tags]), rest };
}

/** Backspace on an empty input drops the last tag; otherwise nothing changes. */
export function removeLastTag(tags: readonly string[], inputText: string): string[] {
  if (inputText !== '' || tags.length === 0) return [...tags];
  return tags.slice(0, -1);
}

/** The hint shows while text is typed and no tag exists yet. */
export function shouldShowTagHint(tags: readonly string[], inputText: string): boolean {
  return tags.length === 0 && inputText.trim() !== '';
}

export function tagPlaceholder(tags: readonly string[]): string {
  return tags.length === 0 ? TAG_PLACEHOLDER_EMPTY : TAG_PLACEHOLDER_MORE;
}
