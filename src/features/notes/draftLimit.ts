/**
 * The draft limit seen from the device (SYNC_SPEC R63): the server refused this note's drafts on
 * its base version with DRAFT_LIMIT. Those refusals stay in the outbox (R9) until the note is
 * saved, which starts a new base and dismisses them.
 */
import type { CairnDb } from '../../storage/db';
import type { OutboxRecord } from '../../storage/vaultRecords';

/** The refused drafts of `noteId` on `baseVersionId` whose refusal is DRAFT_LIMIT, in queuing order. */
export async function readDraftLimitRefusals(
  db: CairnDb,
  accountId: string,
  target: { vaultId: string; noteId: string; baseVersionId: string },
): Promise<OutboxRecord[]> {
  const records = await db.outbox.where('[accountId+vaultId]').equals([accountId, target.vaultId]).toArray();
  return records
    .filter(
      (r) =>
        r.status === 'rejected' &&
        r.error?.code === 'DRAFT_LIMIT' &&
        r.op.objectId === target.noteId &&
        r.op.body.type === 'note.draft' &&
        r.op.body.baseVersionId === target.baseVersionId,
    )
    .sort((a, b) => a.queuedAt - b.queuedAt);
}
