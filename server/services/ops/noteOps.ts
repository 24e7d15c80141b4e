/**
 * note.* operations (docs/SYNC_SPEC.md R25-R27). A note is a markdown file; `note.draft` carries a
 * sealed Yjs update of its unsaved draft. The server cannot read the update: it checks only that
 * the note is an ACTIVE file of the vault and that the draft's base is one of its committed
 * versions, then sequences it like any operation so every member's device pulls it.
 */
import { ApiError } from '../../../src/protocol/errors';
import { DRAFT_LIMIT_MESSAGE, DRAFT_LIMITS, type OperationBody } from '../../../src/protocol/vaults';
import { findNode } from '../vaultRows';
import type { VaultOpContext } from './OpContext';

export function isNoteOp(body: OperationBody): body is Extract<OperationBody, { type: `note.${string}` }> {
  return body.type.startsWith('note.');
}

export async function applyNoteOp(ctx: VaultOpContext, body: Extract<OperationBody, { type: `note.${string}` }>): Promise<void> {
  const { trx, op, vault } = ctx;
  switch (body.type) {
    case 'note.draft': {
      const node = await findNode(trx, vault.id, op.objectId);
      if (!node || node.kind !== 'file' || node.status !== 'ACTIVE') {
        throw new ApiError('INVALID_OPERATION', 'The note does not exist or is hidden');
      }
      const base = await trx
        .selectFrom('blobs')
        .select('id')
        .where('node_id', '=', node.id)
        .where('version_id', '=', body.baseVersionId)
        .where('status', '=', 'committed')
        .executeTakeFirst();
      if (!base) throw new ApiError('INVALID_OPERATION', 'The draft is not based on a version of this note');
      await countDraft(ctx, body);
      return;
    }
  }
}

/**
 * Counts the draft against its note and base version (SYNC_SPEC R63): past DRAFT_LIMITS it is
 * refused, so one note's drafts cannot grow the log, and every device's replay of them, without
 * bound. Saving starts a new base, and a new count. Serialised by the vault row's lock.
 */
async function countDraft(ctx: VaultOpContext, body: Extract<OperationBody, { type: 'note.draft' }>): Promise<void> {
  const { trx, op, vault } = ctx;
  const chars = 'c' in body.update ? body.update.c.length : body.update.clear.length;
  const counted = await trx
    .selectFrom('note_drafts')
    .select(['count', 'bytes'])
    .where('note_id', '=', op.objectId)
    .where('base_version_id', '=', body.baseVersionId)
    .executeTakeFirst();
  const count = Number(counted?.count ?? 0) + 1;
  const bytes = Number(counted?.bytes ?? 0) + chars;
  if (count > DRAFT_LIMITS.OPS_PER_BASE || bytes > DRAFT_LIMITS.CHARS_PER_BASE) throw new ApiError('DRAFT_LIMIT', DRAFT_LIMIT_MESSAGE);
  await trx
    .insertInto('note_drafts')
    .values({ vault_id: vault.id, note_id: op.objectId, base_version_id: body.baseVersionId, count, bytes })
    .onConflict((oc) => oc.columns(['note_id', 'base_version_id']).doUpdateSet({ count, bytes }))
    .execute();
}
