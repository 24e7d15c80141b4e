import { describe, expect, it } from 'vitest';
import {
  canSaveNote,
  fallbackTitle,
  isMarkdownNote,
  noteFileName,
  noteProblem,
  noteTitleOf,
  saveNoteLabel,
  UNSUPPORTED_NOTE_MESSAGE,
} from './noteRules';

describe('note title fallback (spec 000 section 4)', () => {
  it('uses the first line with markdown characters removed', () => {
    expect(fallbackTitle('# Weekly *plan*\nsecond line')).toBe('Weekly plan');
    expect(fallbackTitle('\n\n  ## `Budget` > [2026](x)  \nmore')).toBe('Budget 2026x');
    expect(fallbackTitle('- first item\n- second')).toBe('first item');
    expect(fallbackTitle('1. Step one')).toBe('Step one');
    expect(fallbackTitle('***\n')).toBe('');
  });

  it('names the file with the typed title, else the fallback, plus .md', () => {
    expect(noteFileName('Trip ideas', '# Anything')).toBe('Trip ideas.md');
    expect(noteFileName('  ', '# Groceries\n- milk')).toBe('Groceries.md');
    expect(noteFileName('Already.md', 'x')).toBe('Already.md');
    expect(noteFileName('', '###')).toBeNull();
    expect(noteFileName('', '')).toBeNull();
  });

  it('reads a title back from a note file name', () => {
    expect(noteTitleOf('Groceries.md')).toBe('Groceries');
    expect(noteTitleOf('README')).toBe('README');
  });
});

describe('save rules (spec 000 sections 4-5)', () => {
  it('a new note saves once it has text, with or without a title', () => {
    expect(canSaveNote({ title: '', text: '', saved: null })).toBe(false);
    expect(canSaveNote({ title: 'Title only', text: '  \n', saved: null })).toBe(false);
    expect(canSaveNote({ title: '', text: 'Body', saved: null })).toBe(true);
  });

  it('an existing note saves only when its text or title changed, and never empty', () => {
    const saved = { title: 'Plan', text: 'Body' };
    expect(canSaveNote({ title: 'Plan', text: 'Body', saved })).toBe(false);
    expect(canSaveNote({ title: 'Plan ', text: 'Body', saved })).toBe(false);
    expect(canSaveNote({ title: 'Plan', text: 'Body 2', saved })).toBe(true);
    expect(canSaveNote({ title: 'Plans', text: 'Body', saved })).toBe(true);
    expect(canSaveNote({ title: 'Plans', text: '', saved })).toBe(false);
  });

  it("labels Save 'Save note' for a new note and 'Save new version' for an existing one", () => {
    expect(saveNoteLabel(true)).toBe('Save note');
    expect(saveNoteLabel(false)).toBe('Save new version');
  });

  it('an empty note or a file that is not markdown is an unsupported format', () => {
    expect(noteProblem({ title: 'T', text: '' })).toBe(UNSUPPORTED_NOTE_MESSAGE);
    expect(noteProblem({ title: '', text: '##' })).toBe(UNSUPPORTED_NOTE_MESSAGE);
    expect(noteProblem({ title: 'T', text: 'x', fileName: 'photo.jpg', mimeType: 'image/jpeg' })).toBe(UNSUPPORTED_NOTE_MESSAGE);
    expect(noteProblem({ title: 'T', text: 'x', fileName: 'T.md', mimeType: 'text/markdown' })).toBeNull();
    expect(UNSUPPORTED_NOTE_MESSAGE).toBe('ERROR: Unsupported format. Not a mark down note!');
  });

  it("recognises markdown notes by type or extension ('Edit note' only for these)", () => {
    expect(isMarkdownNote('a.md', 'text/markdown')).toBe(true);
    expect(isMarkdownNote('a.MARKDOWN', '')).toBe(true);
    expect(isMarkdownNote('notes', 'text/markdown; charset=utf-8')).toBe(true);
    expect(isMarkdownNote('a.txt', 'text/plain')).toBe(false);
    expect(isMarkdownNote('a.pdf', 'application/pdf')).toBe(false);
  });
});
