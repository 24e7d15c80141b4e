/**
 * Chat actions (spec 000 section 2, Chat; section 4, Reactions; docs/SYNC_SPEC.md R22-R24): each
 * seals its field under the vault key and queues one operation through the outbox, so a message
 * or reaction shows at once (pending) and is pushed when online. Role and archive checks are the
 * screen's to show (memoRules.chatPermission) and the server's to enforce.
 */
import { checkMessage, type MessageProblem } from '../domain/memoRules';
import { MEMO_LIMITS } from '../protocol/vaults';
import { getMemo } from '../storage/memoStore';
import { requireSync } from './currentSync';
import { requireVault } from './members';
import { enqueueOperation } from './outbox';
import { makeFields } from './vaultActions';

/** Why a chat action was refused on this device before anything was queued. */
export class MemoInputError extends Error {
  constructor(readonly code: MessageProblem | 'PUBLIC_VAULT' | 'NO_SUCH_MEMO' | 'BAD_REACTION') {
    super(code);
    this.name = 'MemoInputError';
  }
}

/** Posts `text` (trimmed) to the vault's chat; answers the new memo's id. */
export async function postMemo(vaultId: string, text: string): Promise<string> {
  const { ctx } = requireSync();
  const checked = checkMessage(text);
  if (checked.problem !== null) throw new MemoInputError(checked.problem);
  if ((await requireVault(ctx, vaultId)).isPublic) throw new MemoInputError('PUBLIC_VAULT');
  const memoId = ctx.newId();
  const fields = await makeFields(ctx, vaultId, memoId, false, { message: checked.text });
  await enqueueOperation(ctx, { vaultId, objectId: memoId, body: { type: 'memo.create', message: fields.message }, fields: { message: checked.text } });
  return memoId;
}

/**
 * Adds my reaction `emoji` to a memo, or removes it when it is already mine (spec 000 section 4:
 * a user may add a given emoji once; clicking one's own reaction removes it). Answers whether it
 * is now added.
 */
export async function toggleReaction(vaultId: string, memoId: string, emoji: string): Promise<boolean> {
  const { ctx } = requireSync();
  if (!emoji || emoji.length > MEMO_LIMITS.REACTION_MAX) throw new MemoInputError('BAD_REACTION');
  const memo = await getMemo(ctx.db, ctx.accountId, memoId);
  if (!memo || memo.vaultId !== vaultId) throw new MemoInputError('NO_SUCH_MEMO');
  const mine = memo.reactions.find((r) => r.authorKey === ctx.user.publicSigningKey && r.emoji === emoji);
  const isAdded = !mine?.isAdded;
  const fields = await makeFields(ctx, vaultId, memoId, false, { reaction: emoji });
  await enqueueOperation(ctx, { vaultId, objectId: memoId, body: { type: 'memo.react', reaction: fields.reaction, isAdded }, fields: { reaction: emoji } });
  return isAdded;
}
