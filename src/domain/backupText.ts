/**
 * The recovery phrase as text: the downloadable backup (spec 001 section 9: the 12 words listed
 * 3 per row) and the parsing of a typed or pasted phrase.
 */

export const PHRASE_WORD_COUNT = 12;
const WORDS_PER_ROW = 3;

export const BACKUP_FILE_NAME = 'cairn-recovery-phrase.txt';

/**
 * The backup file's text: a heading, a warning, then the numbered words 3 per row in aligned
 * columns. Lines end with CRLF so the file reads well in every platform's text editor.
 */
export function formatBackupText(words: readonly string[]): string {
  const numbered = words.map((word, i) => `${String(i + 1).padStart(2, ' ')}. ${word}`);
  const width = Math.max(0, ...numbered.map((cell) => cell.length));
  const rows: string[] = [];
  for (let i = 0; i < numbered.length; i += WORDS_PER_ROW) {
    const cells = numbered.slice(i, i + WORDS_PER_ROW);
    rows.push(cells.map((cell, j) => (j < cells.length - 1 ? cell.padEnd(width + 4, ' ') : cell)).join(''));
  }
  return [
    'Cairn recovery phrase',
    '',
    'These 12 words are the only way to recover your account if you forget your password.',
    'Keep them offline and private: anyone who has them can open your account.',
    '',
    ...rows,
    '',
  ].join('\r\n');
}

/** The phrase as copied to the clipboard: the words in order, separated by single spaces. */
export function formatPhraseLine(words: readonly string[]): string {
  return words.join(' ');
}

/** Splits typed or pasted text into lower-case words (any whitespace separates them). */
export function parsePhraseText(text: string): string[] {
  return text.toLowerCase().split(/\s+/).filter((word) => word.length > 0);
}

/**
 * The 12 boxes after `text` was typed or pasted into box `index`. Several words fill the boxes
 * from `index` on, except a whole phrase (12 words or more), which fills them all from the first.
 */
export function fillPhraseBoxes(boxes: readonly string[], index: number, text: string): string[] {
  const next = Array.from({ length: PHRASE_WORD_COUNT }, (_, i) => boxes[i] ?? '');
  const words = parsePhraseText(text);
  if (words.length <= 1) {
    next[index] = words[0] ?? '';
    return next;
  }
  const start = words.length >= PHRASE_WORD_COUNT ? 0 : index;
  words.slice(0, PHRASE_WORD_COUNT - start).forEach((word, i) => {
    next[start + i] = word;
  });
  return next;
}

export function isPhraseComplete(boxes: readonly string[]): boolean {
  return boxes.length === PHRASE_WORD_COUNT && boxes.every((word) => word.trim().length > 0);
}
