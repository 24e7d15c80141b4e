/**
 * note.* operations (docs/SYNC_SPEC.md R25-R27). A note is a markdown file; `note.draft` carries a
 * sealed Yjs update of its unsaved draft. The server cannot read the update: it checks only that
 * the note is an ACTIVE file of the vault and that the draft's base is one of its committed
 * versions, then sequences it like any operation so every member's device pulls it.
 */
import { ApiError } from '../../../src/protocol/errors';
import type { OperationBody } from '../../../src/protocol/vaults';
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
      return;
    }
  }
}
