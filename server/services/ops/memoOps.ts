/**
 * memo.* operations: chat messages and their reactions (spec 000 section 2, Chat; section 4,
 * Reactions; docs/SYNC_SPEC.md R22-R24). Private vaults only: the server keeps no memo table, as
 * it can read nothing of a memo but its id and author; a memo exists when the vault's log holds
 * its memo.create. Role (OWNER, CONTRIBUTOR) and archive checks ran before these.
 */
import { ApiError } from '../../../src/protocol/errors';
import { MEMO_LIMITS, type OperationBody } from '../../../src/protocol/vaults';
import type { VaultOpContext } from './OpContext';

type MemoOpBody = Extract<OperationBody, { type: 'memo.create' | 'memo.react' }>;

/** Nonce and Poly1305 tag around a sealed field's ciphertext (src/crypto/fieldEnvelope.ts). */
const ENVELOPE_OVERHEAD_BYTES = 24 + 16;

/**
 * The longest `c` a MEMO_LIMITS.MESSAGE_MAX-character message seals to: a UTF-16 code unit is at
 * most 3 UTF-8 bytes (a surrogate pair, 2 units, is 4), then base64url without padding.
 */
export const MESSAGE_SEALED_MAX = Math.ceil(((MEMO_LIMITS.MESSAGE_MAX * 3 + ENVELOPE_OVERHEAD_BYTES) * 4) / 3);
const REACTION_SEALED_MAX = Math.ceil(((MEMO_LIMITS.REACTION_MAX * 3 + ENVELOPE_OVERHEAD_BYTES) * 4) / 3);

export function isMemoOp(body: OperationBody): body is MemoOpBody {
  return body.type === 'memo.create' || body.type === 'memo.react';
}

function invalid(message: string): ApiError {
  return new ApiError('INVALID_OPERATION', message);
}

/** Whether the vault's log already holds a memo.create for `memoId`. */
async function memoExists(ctx: VaultOpContext, memoId: string): Promise<boolean> {
  const row = await ctx.trx
    .selectFrom('ops')
    .select('seq')
    .where('vault_id', '=', ctx.vault.id)
    .where('type', '=', 'memo.create')
    .where('object_id', '=', memoId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function applyMemoOp(ctx: VaultOpContext, body: MemoOpBody): Promise<void> {
  const { op, vault, trx } = ctx;
  // Chat is for private vaults (spec 000 section 2): a public vault has no chat tab and no memos.
  if (vault.isPublic) throw invalid('Chat is only in private vaults');
  switch (body.type) {
    case 'memo.create': {
      if ('key' in body.message && body.message.c.length > MESSAGE_SEALED_MAX) {
        throw new ApiError('VALIDATION_FAILED', `A message is at most ${MEMO_LIMITS.MESSAGE_MAX} characters`);
      }
      const node = await trx.selectFrom('nodes').select('id').where('id', '=', op.objectId).executeTakeFirst();
      if (node || op.objectId === vault.id || (await memoExists(ctx, op.objectId))) throw invalid('The object id is already used');
      return;
    }
    case 'memo.react':
      if ('key' in body.reaction && body.reaction.c.length > REACTION_SEALED_MAX) {
        throw new ApiError('VALIDATION_FAILED', 'A reaction is one emoji');
      }
      if (!(await memoExists(ctx, op.objectId))) throw invalid('The message does not exist');
      return;
  }
}
