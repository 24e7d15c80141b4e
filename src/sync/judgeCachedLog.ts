/**
 * Vaults pulled before the client judged the log (SYNC_SPEC R50) have a cursor and cached pages
 * but no judged log. Their cached operations are judged once, in seq order, on the device (no
 * network): a refused one is marked (never applied, never shown) and the projection rebuilt
 * without it. A cache that does not hold every operation from the vault's creation on cannot be
 * judged: it is dropped and the vault is pulled again from seq 1 (the outbox stays applied).
 */
import Dexie from 'dexie';
import { judgeOperation, newVaultLogState } from '../domain/vaultLog';
import { replaceVaultState } from '../storage/vaultProjection';
import type { SyncContext } from './SyncContext';
import { readRebuildInputs, rebuildVaultState } from './rebuild';

export async function judgeCachedLog(ctx: SyncContext, vaultId: string): Promise<void> {
  const { db, accountId } = ctx;
  const stored = await db.vaults.get([accountId, vaultId]);
  if (!stored || stored.log || stored.cursor === 0) return;
  await db.transaction('rw', [db.vaults, db.nodes, db.versions, db.memos, db.opPages, db.outbox, db.acceptedOps], async () => {
    const { vault, ops, outbox, accepted } = await readRebuildInputs(db, accountId, vaultId);
    if (!vault || vault.log || vault.cursor === 0) return;
    ops.sort((a, b) => a.seq - b.seq);
    const pageKey = db.opPages.where('[accountId+vaultId+firstSeq]').between([accountId, vaultId, Dexie.minKey], [accountId, vaultId, Dexie.maxKey]);
    const isWhole = ops.length === vault.cursor && ops.every((op, i) => op.seq === i + 1);
    if (!isWhole) {
      ctx.log(`Vault ${vaultId}: the cached log is not whole; it is pulled again from its creation`);
      await pageKey.delete();
      await replaceVaultState(db, rebuildVaultState({ ...vault, cursor: 0, log: undefined }, [], outbox, accepted));
      return;
    }
    const log = newVaultLogState();
    let refused = 0;
    for (const record of ops) {
      const verdict = judgeOperation(log, vaultId, record, record.isVerified);
      if (verdict.isAccepted || !record.isVerified) continue;
      record.isVerified = false;
      record.refusal = verdict.reason;
      record.fields = {};
      refused += 1;
    }
    const base = { ...vault, log };
    if (refused === 0) {
      await db.vaults.put(base);
      return;
    }
    // The records above are the pages' own objects: write the pages back with their verdicts.
    const pages = await pageKey.toArray();
    const bySeq = new Map(ops.map((op) => [op.seq, op]));
    await db.opPages.bulkPut(pages.map((page) => ({ ...page, ops: page.ops.map((op) => bySeq.get(op.seq) ?? op) })));
    await replaceVaultState(db, rebuildVaultState(base, ops, outbox, accepted));
  });
}
