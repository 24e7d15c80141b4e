/**
 * Rebuilds a vault's projection from scratch: the cached server operations in seq order, then
 * this device's operations the server accepted but no pull brought back yet (R123), then
 * this device's outbox in queuing order (pending ones applied as pending, rejected ones only
 * marking their node or vault with the rejection). Used after a rejection, so the optimistic
 * effect of a refused operation disappears while the operation itself stays in the outbox for
 * the user to see: nothing is dropped silently.
 */
import Dexie from 'dexie';
import type { CairnDb } from '../storage/db';
import { newVaultState, replaceVaultState, type VaultState } from '../storage/vaultProjection';
import type { AcceptedOpRecord, CachedOp, OutboxRecord, VaultRecord } from '../storage/vaultRecords';
import { applyOperation, computeFolderSizes } from './applyOperation';

/**
 * Pure: the projection `ops` and `outbox` give, starting from `base` (whose server-side fields,
 * such as role, cursor and size, are kept). Same inputs, same records.
 */
export function rebuildVaultState(base: VaultRecord, ops: CachedOp[], outbox: OutboxRecord[], accepted: AcceptedOpRecord[] = []): VaultState {
  const vault: VaultRecord = {
    ...base,
    name: '',
    description: '',
    tags: [],
    terms: '',
    isPending: false,
    rejection: null,
    // With cached operations the status comes from them; without, keep what the server listed.
    status: ops.length ? 'ACTIVE' : base.status,
  };
  const state = newVaultState(vault);
  for (const record of [...ops].sort((a, b) => a.seq - b.seq)) {
    if (!record.isVerified) continue;
    applyOperation(state, { op: record.op, fields: record.fields, time: record.receivedAt, isPending: false, seq: record.seq });
  }
  // R123: accepted, not yet pulled. In the server's order, which is also before anything still
  // pending (those get later seqs); the pull that brings them back applies them again, settling
  // the server's time.
  const lastCached = ops.reduce((max, record) => Math.max(max, record.seq), base.cursor);
  const unpulled = accepted.filter((record) => record.seq > lastCached).sort((a, b) => a.seq - b.seq);
  for (const record of unpulled) {
    applyOperation(state, { op: record.op, fields: record.fields, time: record.op.createdAt, isPending: false, seq: record.seq });
  }
  for (const record of [...outbox].sort((a, b) => a.queuedAt - b.queuedAt)) {
    if (record.status === 'pending') {
      applyOperation(state, { op: record.op, fields: record.fields, time: record.op.createdAt, isPending: true });
      continue;
    }
    const error = record.error ?? { code: 'INTERNAL', message: 'There was an error.' };
    const rejection = { opId: record.opId, type: record.op.body.type, code: error.code, message: error.message };
    const type = record.op.body.type;
    // A refused creation still shows (marked), so the user sees what was refused and can dismiss it.
    const isCreate = type === 'vault.create' || type === 'folder.create' || type === 'file.create' || type === 'memo.create';
    const isMemo = type.startsWith('memo.');
    const exists = type === 'vault.create' ? ops.length + unpulled.length > 0 : isMemo ? state.memos.has(record.op.objectId) : state.nodes.has(record.op.objectId);
    if (isCreate && !exists) {
      applyOperation(state, { op: record.op, fields: record.fields, time: record.op.createdAt, isPending: false });
      // Refused because its folder is gone: shown at the root, where the user can find it.
      const created = state.nodes.get(record.op.objectId);
      if (created?.parentId && !isReachable(state, created.parentId)) {
        created.parentId = null;
        created.parentKey = '';
      }
    }
    if (type.startsWith('vault.')) {
      state.vault.rejection = rejection;
    } else if (isMemo) {
      const memo = state.memos.get(record.op.objectId);
      if (memo) memo.rejection = rejection;
    } else {
      const node = state.nodes.get(record.op.objectId);
      if (node) node.rejection = rejection;
    }
  }
  computeFolderSizes(state);
  return state;
}

/** True when folder `folderId` and every folder above it are ACTIVE (so the main tree shows it). */
function isReachable(state: VaultState, folderId: string): boolean {
  const seen = new Set<string>();
  for (let at: string | null = folderId; at; ) {
    const node = state.nodes.get(at);
    if (!node || node.status !== 'ACTIVE' || seen.has(at)) return false;
    seen.add(at);
    at = node.parentId;
  }
  return true;
}

/** Reads what a rebuild needs. Call inside a transaction over the projection tables. */
export async function readRebuildInputs(db: CairnDb, accountId: string, vaultId: string) {
  const [vault, pages, outbox, accepted] = await Promise.all([
    db.vaults.get([accountId, vaultId]),
    db.opPages.where('[accountId+vaultId+firstSeq]').between([accountId, vaultId, Dexie.minKey], [accountId, vaultId, Dexie.maxKey]).toArray(),
    db.outbox.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray(),
    db.acceptedOps.where('[accountId+vaultId+seq]').between([accountId, vaultId, Dexie.minKey], [accountId, vaultId, Dexie.maxKey]).toArray(),
  ]);
  return { vault, ops: pages.flatMap((page) => page.ops), outbox, accepted };
}

/** Rebuilds and stores one vault's projection in one transaction. */
export async function rebuildVault(db: CairnDb, accountId: string, vaultId: string): Promise<void> {
  await db.transaction('rw', [db.vaults, db.nodes, db.versions, db.memos, db.opPages, db.outbox, db.acceptedOps], async () => {
    const { vault, ops, outbox, accepted } = await readRebuildInputs(db, accountId, vaultId);
    if (!vault) return;
    await replaceVaultState(db, rebuildVaultState(vault, ops, outbox, accepted));
  });
}
