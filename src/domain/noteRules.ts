/**
 * Markdown notes (spec 000 sections 3-6): a note is a markdown file named '<title>.md'. Pure rules
 * for the note editor: the file name a save gives, when Save is enabled and what it says, and
 * which files open in the editor.
 */

export const NOTE_MIME_TYPE = 'text/markdown';
export const NOTE_EXTENSION = '.md';

export const SAVE_NOTE_LABEL = 'Save note';
export const SAVE_NEW_VERSION_LABEL = 'Save new version';
/** Spec 000 section 5: an empty note, or a file that is not markdown. */
export const UNSUPPORTED_NOTE_MESSAGE = 'ERROR: Unsupported format. Not a mark down note!';
/** Spec 000 section 8: save note. */
export const SAVE_NOTE_ERROR = 'There was an error saving the note.';

/** Markdown characters dropped from a first line used as a title. */
const MARKDOWN_CHARACTERS = /[#*_`~>[\]()!|\\]/g;
/** A list or quote marker at the start of the line ('- ', '+ ', '1. '). */
const LEADING_MARKER = /^\s*(?:[-+]|\d+[.)])\s+/;

/** 'Plan.md' -> 'Plan'; a name without the extension is its own title. */
export function noteTitleOf(fileName: string): string {
  return fileName.toLowerCase().endsWith(NOTE_EXTENSION) ? fileName.slice(0, -NOTE_EXTENSION.length) : fileName;
}

/**
 * The title a note falls back to when none is typed: the first non-blank line of the text with
 * markdown characters removed (spec 000 section 4). '' when nothing is left.
 */
export function fallbackTitle(text: string): string {
  const firstLine = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  return firstLine.replace(LEADING_MARKER, '').replace(MARKDOWN_CHARACTERS, '').replace(/\s+/g, ' ').trim();
}

/**
 * The file name a save gives: the typed title, or the fallback title, plus '.md'. Null when
 * neither gives a name (an empty note), which cannot be saved.
 */
export function noteFileName(title: string, text: string): string | null {
  const name = title.trim() || fallbackTitle(text);
  if (!name) return null;
  return name.toLowerCase().endsWith(NOTE_EXTENSION) ? name : `${name}${NOTE_EXTENSION}`;
}

export interface NoteSaveState {
  title: string;
  text: string;
  /** What the note last saved (an existing note); null for a new note. */
  saved: { title: string; text: string } | null;
}

/** Save is enabled only when the text is non-empty and the text or title changed (spec 000 section 4). */
export function canSaveNote({ title, text, saved }: NoteSaveState): boolean {
  if (text.trim() === '') return false;
  if (!saved) return true;
  return text !== saved.text || title.trim() !== saved.title.trim();
}

/** 'Save note' for a new note, 'Save new version' for an existing one. */
export function saveNoteLabel(isNew: boolean): string {
  return isNew ? SAVE_NOTE_LABEL : SAVE_NEW_VERSION_LABEL;
}

/** Whether a file is a markdown note ('Edit note' is offered only for these, spec 000 section 6). */
export function isMarkdownNote(name: string, mimeType?: string): boolean {
  const type = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === NOTE_MIME_TYPE || type === 'text/x-markdown') return true;
  return /\.(md|markdown)$/i.test(name);
}

/**
 * Why a note cannot be saved or opened, or null: an empty note, or a file that is not markdown
 * (spec 000 section 5: both show UNSUPPORTED_NOTE_MESSAGE).
 */
export function noteProblem(input: { title: string; text: string; fileName?: string; mimeType?: string }): string | null {
  if (input.fileName !== undefined && !isMarkdownNote(input.fileName, input.mimeType)) return UNSUPPORTED_NOTE_MESSAGE;
  if (input.text.trim() === '' || noteFileName(input.title, input.text) === null) return UNSUPPORTED_NOTE_MESSAGE;
  return null;
}
