import { describe, expect, it } from 'vitest';
import type { OperationBody, UnsignedOperation } from '../protocol/vaults';
import { emptyVaultRecord, newVaultState, type VaultState } from '../storage/vaultProjection';
import type { OutboxRecord } from '../storage/vaultRecords';
import { applyOperation, clearPending } from './applyOperation';
import { rebuildVaultState } from './rebuild';

const ALICE = 'a'.repeat(64);
const BOB = 'b'.repeat(64);
const SEALED = { key: 0, c: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
let n = 0;

function op(objectId: string, body: OperationBody, author = ALICE): UnsignedOperation {
  return { id: `op${++n}`, vaultId: 'v1', objectId, author, createdAt: 1, body };
}

function post(state: VaultState, memoId: string, text: string, options: { author?: string; time?: number; isPending?: boolean } = {}) {
  const operation = op(memoId, { type: 'memo.create', message: SEALED }, options.author);
  applyOperation(state, { op: operation, fields: { message: text }, time: options.time ?? 10, isPending: options.isPending ?? false });
  return operation;
}

function react(state: VaultState, memoId: string, emoji: string, isAdded: boolean, options: { author?: string; isPending?: boolean; operation?: UnsignedOperation } = {}) {
  const operation = options.operation ?? op(memoId, { type: 'memo.react', reaction: SEALED, isAdded }, options.author);
  applyOperation(state, { op: operation, fields: { reaction: emoji }, time: 20, isPending: options.isPending ?? false });
  return operation;
}

/** Reactions shown: added ones, as "emoji:author". */
function shown(state: VaultState, memoId: string): string[] {
  return (state.memos.get(memoId)?.reactions ?? []).filter((r) => r.isAdded).map((r) => `${r.emoji}:${r.authorKey[0]}`);
}

function fresh(): VaultState {
  return newVaultState(emptyVaultRecord('acc', 'v1'));
}

describe('applyMemoOperation', () => {
  it('[R22] memo.create adds the message with its author and time; a pending one takes the server time once pulled', () => {
    const s = fresh();
    const created = post(s, 'm1', 'Hello\nthere', { time: 5, isPending: true });
    expect(s.memos.get('m1')).toMatchObject({ text: 'Hello\nthere', authorKey: ALICE, createdAt: 5, pendingOpIds: [created.id] });
    expect(s.dirtyMemos.has('m1')).toBe(true);
    clearPending(s, created.id, false);
    expect(s.memos.get('m1')?.pendingOpIds).toEqual([]);
    applyOperation(s, { op: created, fields: { message: 'Hello\nthere' }, time: 9, isPending: false });
    expect(s.memos.get('m1')).toMatchObject({ text: 'Hello\nthere', createdAt: 9 });
    expect(s.memos.size).toBe(1);
  });

  it('[R22] chat order is the server seq; messages still pending follow, in queuing order', () => {
    const s = fresh();
    const late = post(s, 'm1', 'queued first', { isPending: true });
    post(s, 'm2', 'queued second', { isPending: true });
    applyOperation(s, { op: op('m0', { type: 'memo.create', message: SEALED }, BOB), fields: { message: 'from Bob' }, time: 50, isPending: false, seq: 7 });
    const ordered = () => [...s.memos.values()].sort((x, y) => x.order - y.order).map((m) => m.memoId);
    expect(ordered()).toEqual(['m0', 'm1', 'm2']);
    applyOperation(s, { op: late, fields: { message: 'queued first' }, time: 60, isPending: false, seq: 8 });
    expect(s.memos.get('m1')?.order).toBe(8);
    expect(ordered()).toEqual(['m0', 'm1', 'm2']);
  });

  it('a message that does not open is kept with null text', () => {
    const s = fresh();
    applyOperation(s, { op: op('m1', { type: 'memo.create', message: SEALED }), fields: { message: null }, time: 1, isPending: false });
    expect(s.memos.get('m1')?.text).toBeNull();
  });

  it('[R23] one reaction per member per emoji; the last operation wins; another member counts apart', () => {
    const s = fresh();
    post(s, 'm1', 'Hi');
    react(s, 'm1', '👍', true);
    react(s, 'm1', '👍', true);
    react(s, 'm1', '👍', true, { author: BOB });
    react(s, 'm1', '🎉', true);
    expect(shown(s, 'm1')).toEqual(['👍:a', '👍:b', '🎉:a']);
    react(s, 'm1', '👍', false);
    expect(shown(s, 'm1')).toEqual(['👍:b', '🎉:a']);
  });

  it('[R23] a late pulled copy of an older reaction does not undo a newer pending one', () => {
    const s = fresh();
    post(s, 'm1', 'Hi');
    const added = react(s, 'm1', '👍', true, { isPending: true });
    clearPending(s, added.id, false);
    const removed = react(s, 'm1', '👍', false, { isPending: true });
    expect(shown(s, 'm1')).toEqual([]);
    // The pull brings the accepted add while the remove is still in the outbox.
    react(s, 'm1', '👍', true, { operation: added });
    expect(shown(s, 'm1')).toEqual([]);
    clearPending(s, removed.id, false);
    react(s, 'm1', '👍', false, { operation: removed });
    expect(shown(s, 'm1')).toEqual([]);
    expect(s.memos.get('m1')?.pendingOpIds).toEqual([]);
  });

  it('a reaction on an unknown memo or one that does not open is ignored', () => {
    const s = fresh();
    react(s, 'nope', '👍', true);
    post(s, 'm1', 'Hi');
    applyOperation(s, { op: op('m1', { type: 'memo.react', reaction: SEALED, isAdded: true }), fields: { reaction: null }, time: 1, isPending: false });
    expect(s.memos.has('nope')).toBe(false);
    expect(s.memos.get('m1')?.reactions).toEqual([]);
  });

  it('[R24] a rebuild shows a refused message with its rejection and drops a refused reaction', () => {
    const base = emptyVaultRecord('acc', 'v1');
    const s = fresh();
    const accepted = post(s, 'm1', 'Kept');
    const outboxRecord = (operation: UnsignedOperation, fields: Record<string, string>, status: OutboxRecord['status'], queuedAt: number): OutboxRecord => ({
      accountId: 'acc',
      opId: operation.id,
      vaultId: 'v1',
      op: { ...operation, signature: 'x' },
      queuedAt,
      status,
      error: status === 'rejected' ? { code: 'FORBIDDEN', message: 'Your role in this vault does not allow this' } : null,
      waitsForUploadId: null,
      fields,
    });
    const refusedMemo = op('m2', { type: 'memo.create', message: SEALED });
    const refusedReaction = op('m1', { type: 'memo.react', reaction: SEALED, isAdded: true });
    const pendingMemo = op('m3', { type: 'memo.create', message: SEALED });
    const rebuilt = rebuildVaultState(
      base,
      [{ seq: 1, receivedAt: 3, op: { ...accepted, signature: 'x' }, isVerified: true, fields: { message: 'Kept' } }],
      [
        outboxRecord(refusedMemo, { message: 'Refused' }, 'rejected', 1),
        outboxRecord(refusedReaction, { reaction: '👍' }, 'rejected', 2),
        outboxRecord(pendingMemo, { message: 'Waiting' }, 'pending', 3),
      ],
    );
    expect(rebuilt.memos.get('m1')).toMatchObject({ text: 'Kept', createdAt: 3, reactions: [], rejection: { code: 'FORBIDDEN', type: 'memo.react' } });
    expect(rebuilt.memos.get('m2')).toMatchObject({ text: 'Refused', rejection: { code: 'FORBIDDEN', type: 'memo.create' } });
    expect(rebuilt.memos.get('m3')).toMatchObject({ text: 'Waiting', pendingOpIds: [pendingMemo.id], rejection: null });
  });
});
