/**
 * Saving a note (spec 000 section 4): a note is a markdown file, so a save is an upload through
 * the upload queue (encrypted, resumable, queued offline). A new note becomes a new file; an
 * existing one gets a new version and, when its title changed, a rename.
 */
import { NOTE_MIME_TYPE, noteFileName, UNSUPPORTED_NOTE_MESSAGE } from '../domain/noteRules';
import { requireSync } from './currentSync';
import { assertNameFits, renameNode, uploadFiles } from './vaultActions';

export class NoteSaveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoteSaveError';
  }
}

export interface SaveNoteInput {
  vaultId: string;
  /** Where a new note goes (null: the vault root); an existing note stays where it is. */
  folderId: string | null;
  title: string;
  text: string;
  /** An existing note: its file id and current name. */
  existing?: { noteId: string; name: string };
}

/** Queues the save; answers the file name given. Throws NoteSaveError for an empty note, nameRefusal for a name its folder cannot take. */
export async function saveNote(input: SaveNoteInput): Promise<string> {
  const name = noteFileName(input.title, input.text);
  if (!name || input.text.trim() === '') throw new NoteSaveError(UNSUPPORTED_NOTE_MESSAGE);
  const { ctx } = requireSync();
  // A note is a file: its name follows R73 in the folder it is saved in (the dialog shows the refusal).
  const folderId = input.existing ? ((await ctx.db.nodes.get([ctx.accountId, input.existing.noteId]))?.parentId ?? input.folderId) : input.folderId;
  if (name !== input.existing?.name) await assertNameFits(ctx, input.vaultId, folderId, name, input.existing?.noteId);
  const file = new File([input.text], name, { type: NOTE_MIME_TYPE, lastModified: ctx.now() });
  if (!input.existing) {
    await uploadFiles(input.vaultId, input.folderId, [{ file, name }]);
    return name;
  }
  const { noteId } = input.existing;
  if (name !== input.existing.name) await renameNode(input.vaultId, noteId, name);
  await uploadFiles(input.vaultId, input.folderId, [{ file, name, replaceFileId: noteId }]);
  return name;
}
