import { describe, expect, it } from 'vitest';
import { fillPhraseBoxes, formatBackupText, formatPhraseLine, isPhraseComplete, parsePhraseText } from './backupText';

const WORDS = 'abandon ability able about above absent absorb abstract absurd abuse access accident'.split(' ');
const EMPTY = Array<string>(12).fill('');

describe('backup text', () => {
  it('lists the 12 words numbered, 3 per row', () => {
    const text = formatBackupText(WORDS);
    const rows = text.split('\r\n').filter((line) => /^\s*\d+\. /.test(line));
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/^ 1\. abandon\s+2\. ability\s+3\. able$/);
    expect(rows[3]).toMatch(/^10\. abuse\s+11\. access\s+12\. accident$/);
  });

  it('aligns the columns', () => {
    const rows = formatBackupText(WORDS).split('\r\n').filter((line) => /^\s*\d+\. /.test(line));
    expect(rows[0]!.indexOf(' 2. ability')).toBe(rows[3]!.indexOf('11. access'));
    expect(rows[0]!.indexOf(' 3. able')).toBe(rows[3]!.indexOf('12. accident'));
  });

  it('copies as one line of single-spaced words', () => {
    expect(formatPhraseLine(WORDS)).toBe(WORDS.join(' '));
  });
});

describe('phrase input', () => {
  it('splits on any whitespace and lower-cases', () => {
    expect(parsePhraseText('  Abandon\tABILITY\n able  ')).toEqual(['abandon', 'ability', 'able']);
  });

  it('fills all boxes when a whole phrase is pasted into any box', () => {
    expect(fillPhraseBoxes(EMPTY, 7, WORDS.join('\n'))).toEqual(WORDS);
  });

  it('fills from the box when a few words are pasted', () => {
    const boxes = fillPhraseBoxes(EMPTY, 10, 'access accident extra');
    expect(boxes.slice(10)).toEqual(['access', 'accident']);
    expect(boxes.slice(0, 10)).toEqual(Array(10).fill(''));
  });

  it('sets a single typed word', () => {
    expect(fillPhraseBoxes(EMPTY, 2, 'Able')[2]).toBe('able');
    expect(fillPhraseBoxes(WORDS, 2, '')[2]).toBe('');
  });

  it('is complete when all 12 boxes hold a word', () => {
    expect(isPhraseComplete(WORDS)).toBe(true);
    expect(isPhraseComplete([...WORDS.slice(0, 11), ' '])).toBe(false);
  });
});
