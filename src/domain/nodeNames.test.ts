import { describe, expect, it } from 'vitest';
import { findNameClash, NAME_TEXTS, nameFormatError, nodeNameError, uploadSafeName } from './nodeNames';

const siblings = [
  { id: 'a', name: 'photo.png' },
  { id: 'b', name: 'Notes' },
  { id: 'c', name: 'café.txt' },
];

describe('nodeNames', () => {
  it('[R73] refuses a name an active item of the folder has, ignoring case and Unicode form', () => {
    expect(nodeNameError('photo.png', siblings)).toBe(NAME_TEXTS.taken('photo.png'));
    expect(nodeNameError('PHOTO.PNG', siblings)).toBe(NAME_TEXTS.taken('photo.png'));
    expect(nodeNameError('notes', siblings)).toBe(NAME_TEXTS.taken('Notes'));
    // 'é' typed as e + combining accent (as macOS spells file names) is the same name.
    expect(nodeNameError('cafe\u0301.txt', siblings)).toBe(NAME_TEXTS.taken('café.txt'));
    expect(nodeNameError('photo 2.png', siblings)).toBeNull();
  });

  it('[R73] lets an item keep its own name or change only its case', () => {
    expect(nodeNameError('Photo.png', siblings, 'a')).toBeNull();
    expect(findNameClash('photo.png', siblings, 'a')).toBeUndefined();
    expect(findNameClash('photo.png', siblings, 'b')?.id).toBe('a');
  });

  it('[R73] refuses names common file systems cannot save', () => {
    for (const name of ['a/b', 'a\\b', 'c:d', 'what?', 'star*', 'say "hi"', '<tag>', 'a|b']) {
      expect(nameFormatError(name), name).toBe(NAME_TEXTS.forbidden);
    }
    expect(nameFormatError('line\nbreak')).toBe(NAME_TEXTS.control);
    expect(nameFormatError('tab\there')).toBe(NAME_TEXTS.control);
    expect(nameFormatError('nul\u0000')).toBe(NAME_TEXTS.control);
    expect(nameFormatError('.')).toBe(NAME_TEXTS.onlyDots);
    expect(nameFormatError('..')).toBe(NAME_TEXTS.onlyDots);
    expect(nameFormatError('...')).toBe(NAME_TEXTS.onlyDots);
    expect(nameFormatError('report.')).toBe(NAME_TEXTS.trailing);
    expect(nameFormatError('report ')).toBe(NAME_TEXTS.trailing);
    expect(nameFormatError(' report')).toBe(NAME_TEXTS.leading);
    expect(nameFormatError('')).toBe(NAME_TEXTS.empty);
    for (const name of ['CON', 'con', 'Nul.txt', 'COM1', 'lpt9.log', 'aux.tar.gz']) {
      expect(nameFormatError(name), name).toBe(NAME_TEXTS.reserved(name));
    }
  });

  it('[R73] counts the length in UTF-8 bytes: 255 at most', () => {
    expect(nameFormatError('a'.repeat(255))).toBeNull();
    expect(nameFormatError('a'.repeat(256))).toBe(NAME_TEXTS.tooLong);
    // 128 two-byte letters are 256 bytes though only 128 characters.
    expect(nameFormatError('é'.repeat(127))).toBeNull();
    expect(nameFormatError('é'.repeat(128))).toBe(NAME_TEXTS.tooLong);
  });

  it('accepts ordinary names, dot files, extensions and names that only contain a reserved word', () => {
    for (const name of ['photo.png', '.env', 'report.final.pdf', 'Console', 'contract.pdf', 'Ünïcödé 名前', 'a..b', 'emoji 🎉.txt']) {
      expect(nameFormatError(name), name).toBeNull();
    }
  });
});

describe('uploadSafeName', () => {
  it('[R73] keeps a picked file under a name every system can save, and leaves good names alone', () => {
    expect(uploadSafeName('photo.png')).toBe('photo.png');
    expect(uploadSafeName('what?: a|b.txt')).toBe('what__ a_b.txt');
    expect(uploadSafeName('tab\there.txt')).toBe('tab_here.txt');
    expect(uploadSafeName('report. ')).toBe('report');
    expect(uploadSafeName('..')).toBe('_');
    expect(uploadSafeName('CON.txt')).toBe('_CON.txt');
    const long = uploadSafeName(`${'é'.repeat(200)}.pdf`);
    expect(new TextEncoder().encode(long).length).toBeLessThanOrEqual(255);
    expect(long.endsWith('é.pdf')).toBe(true);
    for (const name of ['what?: a|b.txt', '..', 'CON.txt', `${'é'.repeat(200)}.pdf`, ' x ']) expect(nameFormatError(uploadSafeName(name)), name).toBeNull();
  });
});
