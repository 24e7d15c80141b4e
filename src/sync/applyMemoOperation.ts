/**
 * Chat in the projection (docs/SYNC_SPEC.md R22-R24): memo.create adds a message, memo.react sets
 * one member's reaction with one emoji. Pure, like applyOperation.ts, which calls it: the same
 * operations in the same order give the same memos, and applying one twice changes nothing.
 */
import type { OperationBody } from '../protocol/vaults';
import type { VaultState } from '../storage/vaultProjection';
import type { MemoRecord, ReactionEntry } from '../storage/vaultRecords';
import type { ProjectedOperation } from './applyOperation';

type MemoBody = Extract<OperationBody, { type: 'memo.create' | 'memo.react' }>;

/** Above any seq a vault will reach, and below Number.MAX_SAFE_INTEGER with a clock added. */
export const PENDING_MEMO_ORDER = 2 ** 52;

function markPending(memo: MemoRecord, entry: ProjectedOperation): void {
  if (entry.isPending && !memo.pendingOpIds.includes(entry.op.id)) memo.pendingOpIds = [...memo.pendingOpIds, entry.op.id];
}

/** After every pulled memo and every other pending one, even two queued in one millisecond. */
function nextPendingOrder(state: VaultState, clock: number): number {
  let order = PENDING_MEMO_ORDER + clock;
  for (const memo of state.memos.values()) if (memo.order >= order) order = memo.order + 1;
  return order;
}

/** Applies a memo operation to `state` in place. A reaction on an unknown memo is ignored. */
export function applyMemoOperation(state: VaultState, entry: ProjectedOperation, body: MemoBody): void {
  const { op, fields, time } = entry;
  if (body.type === 'memo.create') {
    let memo = state.memos.get(op.objectId);
    if (!memo) {
      memo = {
        accountId: state.accountId,
        vaultId: state.vault.vaultId,
        memoId: op.objectId,
        text: null,
        authorKey: op.author,
        createdAt: time,
        order: nextPendingOrder(state, op.createdAt),
        reactions: [],
        pendingOpIds: [],
        rejection: null,
      };
      state.memos.set(memo.memoId, memo);
    }
    if (typeof fields.message === 'string') memo.text = fields.message;
    // The server's time replaces the optimistic one, so pulls and rebuilds agree on the order.
    if (!entry.isPending) memo.createdAt = time;
    if (entry.seq !== undefined) memo.order = entry.seq;
    markPending(memo, entry);
    state.dirtyMemos.add(memo.memoId);
    return;
  }
  const memo = state.memos.get(op.objectId);
  const emoji = fields.reaction;
  // A reaction that does not open is not shown (it could be anyone's anything).
  if (!memo || typeof emoji !== 'string') return;
  const index = memo.reactions.findIndex((r) => r.authorKey === op.author && r.emoji === emoji);
  const current = index >= 0 ? memo.reactions[index] : undefined;
  // R23: a pulled copy of an older operation of this author must not undo a newer one of theirs
  // still in the outbox; the newer one arrives (and wins) when its own copy is pulled.
  if (!entry.isPending && current?.pendingOpId && current.pendingOpId !== op.id) return;
  const next: ReactionEntry = { emoji, authorKey: op.author, isAdded: body.isAdded, pendingOpId: entry.isPending ? op.id : null };
  const reactions = [...memo.reactions];
  if (index >= 0) reactions[index] = next;
  else reactions.push(next);
  memo.reactions = reactions;
  markPending(memo, entry);
  state.dirtyMemos.add(memo.memoId);
}

/** Drops `opId` from the memos' pending marks once the server accepted it. */
export function clearMemoPending(state: VaultState, opId: string): void {
  for (const memo of state.memos.values()) {
    const isReaction = memo.reactions.some((r) => r.pendingOpId === opId);
    if (!memo.pendingOpIds.includes(opId) && !isReaction) continue;
    memo.pendingOpIds = memo.pendingOpIds.filter((id) => id !== opId);
    if (isReaction) memo.reactions = memo.reactions.map((r) => (r.pendingOpId === opId ? { ...r, pendingOpId: null } : r));
    state.dirtyMemos.add(memo.memoId);
  }
}
