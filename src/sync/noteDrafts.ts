/**
 * Collaborative note drafts (docs/SYNC_SPEC.md R25-R27). A draft is a Y.Doc holding two Y.Texts,
 * 'title' and 'text'. Local edits are merged for about a second (Y.mergeUpdates) and queued as one
 * `note.draft` operation through the outbox, so they are signed, sealed, kept offline and pushed
 * later like any change; pulled updates (src/storage/noteDraftStore.ts) are applied to the doc.
 *
 * Seeding: every device starts a note's draft from the text of the same version. Two devices that
 * each inserted that text with their own client ids would both be merged in, doubling it; so the
 * seed is made by a doc with the fixed client id 0 and one fixed insert, which gives byte-identical
 * updates everywhere, and Yjs applies an update it already holds as a no-op.
 */
import * as Y from 'yjs';
import { base64UrlToBytes, bytesToBase64Url } from '../crypto/encoding';
import { DRAFT_UPDATE_MAX } from '../protocol/vaults';
import { type NoteDraftUpdateRecord, readDraftUpdates } from '../storage/noteDraftStore';
import { requireVault } from './members';
import { enqueueOperation } from './outbox';
import type { SyncContext } from './SyncContext';
import { makeFields } from './vaultActions';

/** How long keystrokes are gathered into one operation. */
export const DRAFT_BATCH_MS = 1_000;
/** Origins of changes that must not be sent again: the seed and updates from other devices. */
export const SEED_ORIGIN = Symbol('note-seed');
export const REMOTE_ORIGIN = Symbol('note-remote');

/** The update that seeds a draft from a saved version: identical on every device (client id 0). */
export function seedUpdate(title: string, text: string): Uint8Array {
  const doc = new Y.Doc({ gc: true });
  doc.clientID = 0;
  doc.transact(() => {
    doc.getText('title').insert(0, title);
    doc.getText('text').insert(0, text);
  });
  const update = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return update;
}

/** Applies the seed (a no-op when the doc already holds it). */
export function seedDraft(doc: Y.Doc, title: string, text: string): void {
  Y.applyUpdate(doc, seedUpdate(title, text), SEED_ORIGIN);
}

/**
 * Turns `ytext` into `next` with the smallest edit at one place (the common prefix and suffix are
 * kept), so a textarea's change merges with other devices' edits elsewhere in the text.
 */
export function replaceText(ytext: Y.Text, next: string): void {
  const current = ytext.toString();
  if (current === next) return;
  let start = 0;
  const shortest = Math.min(current.length, next.length);
  while (start < shortest && current[start] === next[start]) start += 1;
  let end = 0;
  while (end < shortest - start && current[current.length - 1 - end] === next[next.length - 1 - end]) end += 1;
  ytext.doc!.transact(() => {
    const removed = current.length - start - end;
    if (removed > 0) ytext.delete(start, removed);
    const inserted = next.slice(start, next.length - end);
    if (inserted) ytext.insert(start, inserted);
  });
}

/** Signs, seals and queues one note.draft operation carrying `update`. */
export async function queueDraftUpdate(ctx: SyncContext, vaultId: string, noteId: string, baseVersionId: string, update: Uint8Array): Promise<void> {
  const encoded = bytesToBase64Url(update);
  if (encoded.length > DRAFT_UPDATE_MAX) throw new Error('DRAFT_TOO_LARGE');
  const { isPublic } = await requireVault(ctx, vaultId);
  const fields = await makeFields(ctx, vaultId, noteId, isPublic, { draft: encoded });
  await enqueueOperation(ctx, {
    vaultId,
    objectId: noteId,
    body: { type: 'note.draft', baseVersionId, update: fields.draft },
    fields: { draft: encoded },
  });
}

export interface DraftTarget {
  vaultId: string;
  noteId: string;
  baseVersionId: string;
}

/**
 * Keeps one open draft in step with the vault: sends its local edits, batched, and applies pulled
 * updates. `ignoredOrigins`: origins whose changes are not local edits (y-indexeddb's loading of
 * the stored doc).
 */
export class NoteDraftSync {
  private pending: Uint8Array[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly applied = new Set<string>();
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: SyncContext,
    private readonly doc: Y.Doc,
    private readonly target: DraftTarget,
    private readonly options: { batchMs?: number; ignoredOrigins?: unknown[]; onError?: (error: unknown) => void } = {},
  ) {
    doc.on('update', this.onUpdate);
  }

  private readonly onUpdate = (update: Uint8Array, origin: unknown) => {
    if (origin === SEED_ORIGIN || origin === REMOTE_ORIGIN || this.options.ignoredOrigins?.includes(origin)) return;
    this.pending.push(update);
    this.timer ??= setTimeout(() => void this.flush(), this.options.batchMs ?? DRAFT_BATCH_MS);
  };

  /** Queues what was edited since the last flush as one operation (in order with earlier ones). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.length) return this.sending;
    const merged = Y.mergeUpdates(this.pending.splice(0));
    const { vaultId, noteId, baseVersionId } = this.target;
    this.sending = this.sending
      .then(() => queueDraftUpdate(this.ctx, vaultId, noteId, baseVersionId, merged))
      .catch((error: unknown) => this.options.onError?.(error));
    return this.sending;
  }

  /** Applies pulled updates not applied yet (own ones coming back change nothing). */
  applyPulled(records: readonly NoteDraftUpdateRecord[]): void {
    for (const record of records) {
      if (this.applied.has(record.opId)) continue;
      this.applied.add(record.opId);
      try {
        Y.applyUpdate(this.doc, base64UrlToBytes(record.update), REMOTE_ORIGIN);
      } catch (error) {
        // A malformed update (a hostile member's) must not break the editor.
        this.options.onError?.(error);
      }
    }
  }

  /**
   * Queues what the doc holds beyond the seed, the pulled updates and the drafts still queued:
   * edits made within the batching delay before a reload, which y-indexeddb kept but no operation
   * carries. Called once when a stored draft is opened (R25).
   */
  async sendUnsent(seed: Uint8Array): Promise<void> {
    const { noteId, baseVersionId } = this.target;
    const known = new Y.Doc();
    Y.applyUpdate(known, seed);
    const pulled = await readDraftUpdates(this.ctx.db, this.ctx.accountId, noteId, baseVersionId);
    const queued = (await this.ctx.db.outbox.where('[accountId+vaultId]').equals([this.ctx.accountId, this.target.vaultId]).toArray())
      .filter((r) => r.op.objectId === noteId && r.op.body.type === 'note.draft' && r.op.body.baseVersionId === baseVersionId && r.status !== 'rejected')
      .map((r) => r.fields.draft);
    for (const update of [...pulled.map((r) => r.update), ...queued]) {
      if (!update) continue;
      try {
        Y.applyUpdate(known, base64UrlToBytes(update));
      } catch {
        // Skipped, as when applied to the draft.
      }
    }
    const isKnown = Y.equalSnapshots(Y.snapshot(this.doc), Y.snapshot(known));
    const unsent = isKnown ? null : Y.encodeStateAsUpdate(this.doc, Y.encodeStateVector(known));
    known.destroy();
    if (!unsent) return;
    this.pending.push(unsent);
    await this.flush();
  }

  /** Stops listening and drops what was not sent (the draft was saved as a version). */
  cancel(): void {
    this.doc.off('update', this.onUpdate);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
  }

  /** Stops listening and sends what is left. */
  stop(): Promise<void> {
    this.doc.off('update', this.onUpdate);
    return this.flush();
  }
}
