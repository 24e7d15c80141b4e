/**
 * Note drafts on this device (docs/SYNC_SPEC.md R25-R27). A draft is a Yjs document persisted by
 * y-indexeddb in its own IndexedDB database; `noteDrafts` lists those databases by name so log out
 * (wipeAccountData) can delete them, since they live outside the 'cairn' database. Pulled
 * note.draft updates are kept in `noteDraftUpdates`, written in the pull's own transaction, and
 * applied to the document by the note editor while it is open or when it opens.
 */
import type { CachedOp } from './vaultRecords';
import type { CairnDb } from './db';

export interface NoteDraftRecord {
  accountId: string;
  /** The y-indexeddb database name (see draftDocName). */
  docName: string;
  vaultId: string;
  /** The note's file id; null for a note not saved yet. */
  noteId: string | null;
  /** The version the draft started from; null for a new note. */
  baseVersionId: string | null;
  updatedAt: number;
}

export interface NoteDraftUpdateRecord {
  accountId: string;
  opId: string;
  vaultId: string;
  noteId: string;
  baseVersionId: string;
  seq: number;
  /** The Yjs update, base64url, as opened from the operation's `draft` field. */
  update: string;
}

/**
 * The y-indexeddb name of a draft: prefixed with the account id (two accounts on one device never
 * share a draft), then the vault, then the note and its base version, or the folder of a new note.
 */
export function draftDocName(accountId: string, vaultId: string, target: { noteId: string; baseVersionId: string } | { folderId: string | null }): string {
  const tail = 'noteId' in target ? `${target.noteId}.${target.baseVersionId}` : `new.${target.folderId ?? 'root'}`;
  return `cairn-note.${accountId}.${vaultId}.${tail}`;
}

/** Remembers a draft database (so log out deletes it). */
export function registerDraft(db: CairnDb, record: NoteDraftRecord): Promise<unknown> {
  return db.noteDrafts.put(record);
}

export function forgetDraft(db: CairnDb, accountId: string, docName: string): Promise<void> {
  return db.noteDrafts.delete([accountId, docName]);
}

/** Drops the pulled updates of a draft this device is done with (its note was saved from it). */
export function forgetDraftUpdates(db: CairnDb, accountId: string, noteId: string, baseVersionId: string): Promise<number> {
  return db.noteDraftUpdates.where('[accountId+noteId+baseVersionId]').equals([accountId, noteId, baseVersionId]).delete();
}

/** The draft databases of an account. */
export async function listDraftNames(db: CairnDb, accountId: string): Promise<string[]> {
  return (await db.noteDrafts.where('accountId').equals(accountId).toArray()).map((r) => r.docName);
}

/**
 * Keeps the verified note.draft operations of a pulled page. Called inside the pull's transaction
 * (it returns Dexie's own promise, adding no async level that could lose the transaction's zone).
 */
export function saveDraftUpdates(db: CairnDb, accountId: string, records: CachedOp[]): Promise<unknown> {
  const rows: NoteDraftUpdateRecord[] = [];
  for (const { seq, op, isVerified, fields } of records) {
    if (!isVerified || op.body.type !== 'note.draft' || !fields.draft) continue;
    rows.push({ accountId, opId: op.id, vaultId: op.vaultId, noteId: op.objectId, baseVersionId: op.body.baseVersionId, seq, update: fields.draft });
  }
  return rows.length ? db.noteDraftUpdates.bulkPut(rows) : Promise.resolve();
}

/** The pulled updates of one note's draft on `baseVersionId`, in seq order. */
export async function readDraftUpdates(db: CairnDb, accountId: string, noteId: string, baseVersionId: string): Promise<NoteDraftUpdateRecord[]> {
  const rows = await db.noteDraftUpdates.where('[accountId+noteId+baseVersionId]').equals([accountId, noteId, baseVersionId]).toArray();
  return rows.sort((a, b) => a.seq - b.seq);
}
