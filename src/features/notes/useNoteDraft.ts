import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { getDb } from '../../storage/db';
import { draftDocName, forgetDraft, forgetDraftUpdates, readDraftUpdates, registerDraft } from '../../storage/noteDraftStore';
import { getCurrentSync } from '../../sync/currentSync';
import { NoteDraftSync, replaceText, seedDraft, seedUpdate } from '../../sync/noteDrafts';
import { readDraftLimitRefusals } from './draftLimit';

/** What the draft starts from: a saved version (shared with the vault's other editors) or nothing. */
export type DraftSource =
  | { kind: 'existing'; vaultId: string; noteId: string; baseVersionId: string; savedTitle: string; savedText: string }
  | { kind: 'new'; vaultId: string; folderId: string | null };

export interface NoteDraft {
  isReady: boolean;
  title: string;
  text: string;
  setTitle: (title: string) => void;
  setText: (text: string) => void;
  /** After a save: forgets the draft on this device (its database is deleted). */
  discard: () => Promise<void>;
  /**
   * The server's DRAFT_LIMIT refusal for this note's base (SYNC_SPEC R63), else null. While set,
   * edits are no longer shared (only kept on this device) until the note is saved.
   */
  limitMessage: string | null;
}

interface Open {
  doc: Y.Doc;
  persistence: IndexeddbPersistence;
  sync: NoteDraftSync | null;
  docName: string;
  isClosed: boolean;
}

/**
 * The note editor's draft (SYNC_SPEC R25-R27): a Y.Doc persisted on this device with y-indexeddb,
 * so an unfinished note survives a reload, and, for a saved note, kept in step with the vault's
 * other devices through note.draft operations.
 */
export function useNoteDraft(accountId: string | null, source: DraftSource | null): NoteDraft {
  const [snapshot, setSnapshot] = useState({ isReady: false, title: '', text: '' });
  const open = useRef<Open | null>(null);
  const key = source ? JSON.stringify(source.kind === 'existing' ? [source.vaultId, source.noteId, source.baseVersionId] : [source.vaultId, source.folderId]) : '';
  const sourceRef = useRef(source);
  sourceRef.current = source;

  useEffect(() => {
    const current = sourceRef.current;
    if (!accountId || !current) return;
    const db = getDb();
    const target = current.kind === 'existing' ? { noteId: current.noteId, baseVersionId: current.baseVersionId } : { folderId: current.folderId };
    const docName = draftDocName(accountId, current.vaultId, target);
    const doc = new Y.Doc();
    const persistence = new IndexeddbPersistence(docName, doc);
    const state: Open = { doc, persistence, sync: null, docName, isClosed: false };
    open.current = state;
    const title = doc.getText('title');
    const text = doc.getText('text');
    const publish = () => setSnapshot((s) => ({ ...s, title: title.toString(), text: text.toString() }));
    doc.on('update', publish);
    void registerDraft(db, {
      accountId,
      docName,
      vaultId: current.vaultId,
      noteId: current.kind === 'existing' ? current.noteId : null,
      baseVersionId: current.kind === 'existing' ? current.baseVersionId : null,
      updatedAt: Date.now(),
    });
    void persistence.whenSynced.then(async () => {
      if (state.isClosed) return;
      if (current.kind === 'existing') {
        seedDraft(doc, current.savedTitle, current.savedText);
        const client = getCurrentSync();
        if (client?.isStarted) {
          state.sync = new NoteDraftSync(client.context, doc, current, {
            ignoredOrigins: [persistence],
            onError: (error) => console.warn('note draft not sent', error),
          });
          state.sync.applyPulled(await readDraftUpdates(db, accountId, current.noteId, current.baseVersionId));
          // Edits kept by y-indexeddb but never queued (a reload within the batching delay).
          void state.sync.sendUnsent(seedUpdate(current.savedTitle, current.savedText)).catch((error: unknown) => console.warn('note draft not sent', error));
        }
      }
      if (state.isClosed) return;
      setSnapshot({ isReady: true, title: title.toString(), text: text.toString() });
    });
    return () => {
      state.isClosed = true;
      doc.off('update', publish);
      void (async () => {
        await state.sync?.stop();
        await persistence.destroy();
        doc.destroy();
      })();
      open.current = null;
      setSnapshot({ isReady: false, title: '', text: '' });
    };
    // `key` names the draft; the source's saved text only seeds it.
  }, [accountId, key]);

  // Updates pulled while the editor is open.
  const source2 = source?.kind === 'existing' ? source : null;
  const pulled = useLiveQuery(
    () => (accountId && source2 ? readDraftUpdates(getDb(), accountId, source2.noteId, source2.baseVersionId) : []),
    [accountId, source2?.noteId, source2?.baseVersionId],
  );
  useEffect(() => {
    if (pulled?.length && snapshot.isReady) open.current?.sync?.applyPulled(pulled);
  }, [pulled, snapshot.isReady]);

  // Refused for the draft limit: every further draft would be refused too, so none is queued.
  // The doc and its y-indexeddb copy keep the text, which the user saves as a new version.
  const refusals = useLiveQuery(
    () => (accountId && source2 ? readDraftLimitRefusals(getDb(), accountId, source2) : []),
    [accountId, source2?.vaultId, source2?.noteId, source2?.baseVersionId],
  );
  const refusalsRef = useRef(refusals);
  refusalsRef.current = refusals;
  const limitMessage = refusals?.[0]?.error?.message ?? null;
  useEffect(() => {
    const state = open.current;
    if (limitMessage === null || !snapshot.isReady || !state?.sync) return;
    state.sync.cancel();
    state.sync = null;
  }, [limitMessage, snapshot.isReady]);

  const setTitle = useCallback((next: string) => {
    const state = open.current;
    if (state && !state.isClosed) replaceText(state.doc.getText('title'), next);
  }, []);
  const setText = useCallback((next: string) => {
    const state = open.current;
    if (state && !state.isClosed) replaceText(state.doc.getText('text'), next);
  }, []);
  const discard = useCallback(async () => {
    const state = open.current;
    if (!state || !accountId) return;
    state.isClosed = true;
    state.sync?.cancel();
    state.sync = null;
    await state.persistence.clearData();
    await forgetDraft(getDb(), accountId, state.docName);
    // A save starts drafts on the new version: the old base's updates are of no further use here.
    const current = sourceRef.current;
    if (current?.kind === 'existing') await forgetDraftUpdates(getDb(), accountId, current.noteId, current.baseVersionId);
    // The save is the answer to the draft limit: its refusals have nothing more to say.
    for (const refusal of refusalsRef.current ?? []) await getCurrentSync()?.dismissRejection(refusal.opId);
  }, [accountId]);

  return { ...snapshot, setTitle, setText, discard, limitMessage };
}
