/**
 * Pulling (DESIGN.md section 4): GET /vaults refreshes the vault records and opens each private
 * vault's key ring in the crypto worker; then each vault behind its head is pulled page by page.
 * A page is verified and opened by the worker in one round trip, then cached (`ops`) and applied
 * to the projection in ONE Dexie transaction together with the cursor, so a crash never leaves a
 * page half applied or applied without its cursor moving.
 */
import { PullResponse, VAULT_LIMITS, type VaultSummary, VaultListResponse } from '../protocol/vaults';
import { emptyVaultRecord, loadVaultState, saveVaultState } from '../storage/vaultProjection';
import type { OpRecord, VaultRecord } from '../storage/vaultRecords';
import { applyOperation, computeFolderSizes } from './applyOperation';
import type { SyncContext } from './SyncContext';

export interface PullStats {
  applied: number;
  /** Operations whose signature did not verify: cached but never applied. */
  unverified: number;
}

/** Merges the server's view of a vault into its record (names come from operations, not from here). */
export function mergeVaultSummary(record: VaultRecord, summary: VaultSummary): VaultRecord {
  return {
    ...record,
    isPublic: summary.isPublic,
    isCloud: summary.isCloud,
    status: summary.status,
    role: summary.membership.role,
    membershipStatus: summary.membership.status,
    ownerAddress: summary.ownerAddress,
    size: summary.size,
    createdAt: record.createdAt || summary.createdAt,
    updatedAt: Math.max(record.updatedAt, summary.updatedAt),
    headSeq: summary.headSeq,
    sealedKeys: summary.membership.keys ?? null,
  };
}

/** GET /vaults: upserts every vault record and opens private key rings. Answers the list. */
export async function refreshVaultList(ctx: SyncContext): Promise<VaultSummary[]> {
  const { db, accountId } = ctx;
  const { vaults } = await ctx.api.get('/vaults', VaultListResponse);
  for (const summary of vaults) {
    if (!summary.isPublic && summary.membership.keys) {
      try {
        await ctx.crypto.openVaultKeys(summary.vaultId, summary.membership.keys);
      } catch (error) {
        ctx.log(`Could not open the keys of vault ${summary.vaultId}`, error);
      }
    }
  }
  await db.transaction('rw', [db.vaults], async () => {
    for (const summary of vaults) {
      const existing = await db.vaults.get([accountId, summary.vaultId]);
      await db.vaults.put(mergeVaultSummary(existing ?? emptyVaultRecord(accountId, summary.vaultId), summary));
    }
  });
  return vaults;
}

/**
 * Makes sure the worker holds the key ring of private vault `vaultId`: right after a reload a
 * download, an upload resume or a new name can come before the first sync cycle opened the rings,
 * or the device may be offline. A public vault needs none.
 */
export async function ensureVaultKeys(ctx: SyncContext, vaultId: string): Promise<void> {
  const vault = await ctx.db.vaults.get([ctx.accountId, vaultId]);
  if (vault?.isPublic || (await ctx.crypto.hasVaultKeys(vaultId))) return;
  // The ring kept from the last sync opens offline; the server's copy is asked only without one.
  if (vault?.sealedKeys) {
    try {
      await ctx.crypto.openVaultKeys(vaultId, vault.sealedKeys);
      return;
    } catch (error) {
      ctx.log(`Could not open the stored keys of vault ${vaultId}; asking the server`, error);
    }
  }
  await refreshVaultList(ctx);
}

/** Pulls one vault until its cursor reaches the head. */
export async function pullVault(ctx: SyncContext, vaultId: string, stats: PullStats = { applied: 0, unverified: 0 }): Promise<PullStats> {
  const { db, accountId } = ctx;
  for (;;) {
    const vault = await db.vaults.get([accountId, vaultId]);
    const after = vault?.cursor ?? 0;
    const page = await ctx.api.get(
      `/vaults/${encodeURIComponent(vaultId)}/ops?after=${after}&limit=${VAULT_LIMITS.PULL_PAGE_MAX}`,
      PullResponse,
    );
    const opened = page.ops.length ? await ctx.crypto.openOperations(vaultId, page.ops) : [];
    await db.transaction('rw', [db.vaults, db.nodes, db.versions, db.ops], async () => {
      const state = await loadVaultState(db, accountId, vaultId);
      // Another pull may have moved the cursor meanwhile: apply only what is past it.
      const fresh = opened.filter((o) => o.seq > state.vault.cursor);
      const records: OpRecord[] = fresh.map((o) => ({
        accountId,
        vaultId,
        seq: o.seq,
        receivedAt: o.receivedAt,
        op: o.op,
        isVerified: o.isVerified,
        fields: o.fields,
      }));
      if (records.length) await db.ops.bulkPut(records);
      for (const o of fresh) {
        if (!o.isVerified) {
          stats.unverified += 1;
          ctx.log(`Skipped operation ${o.op.id} (seq ${o.seq}) of vault ${vaultId}: its signature does not verify`);
          continue;
        }
        applyOperation(state, { op: o.op, fields: o.fields, time: o.receivedAt, isPending: false });
        stats.applied += 1;
      }
      computeFolderSizes(state);
      const lastSeq = fresh.at(-1)?.seq ?? state.vault.cursor;
      state.vault.cursor = Math.max(state.vault.cursor, lastSeq);
      state.vault.headSeq = Math.max(page.headSeq, state.vault.cursor);
      state.isVaultDirty = true;
      await saveVaultState(db, state);
    });
    if (!page.hasMore || !page.ops.length) return stats;
  }
}

/** Refreshes the list, then pulls every vault behind its head (or only `onlyVaultIds`). */
export async function pullAll(ctx: SyncContext, onlyVaultIds?: Set<string>): Promise<PullStats> {
  const stats: PullStats = { applied: 0, unverified: 0 };
  await refreshVaultList(ctx);
  const vaults = await ctx.db.vaults.where('accountId').equals(ctx.accountId).toArray();
  for (const vault of vaults) {
    if (onlyVaultIds && !onlyVaultIds.has(vault.vaultId)) continue;
    if (vault.cursor < vault.headSeq) await pullVault(ctx, vault.vaultId, stats);
  }
  return stats;
}
