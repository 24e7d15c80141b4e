/**
 * Pulling (DESIGN.md section 4): GET /vaults refreshes the vault records and opens each private
 * vault's key ring in the crypto worker; then each vault behind its head is pulled page by page.
 * A page is verified and opened by the worker in one round trip, then cached (`opPages`) and
 * applied to the projection in ONE Dexie transaction together with the cursor, so a crash never
 * leaves a page half applied or applied without its cursor moving.
 */
import type { OpenedOperation } from '../../workers/crypto/CryptoApi';
import { ApiError } from '../protocol/errors';
import { type OperationType, PullResponse, type SequencedOperation, VAULT_LIMITS, type VaultSummary, VaultListResponse } from '../protocol/vaults';
import { emptyVaultRecord, loadVaultState, reuseHeldVaultState, saveVaultState, type VaultState } from '../storage/vaultProjection';
import type { CachedOp, VaultRecord } from '../storage/vaultRecords';
import { saveDraftUpdates } from '../storage/noteDraftStore';
import { applyOperation, computeFolderSizes } from './applyOperation';
import { dropEndedVaults } from './dropEndedVaults';
import type { SyncContext } from './SyncContext';

export interface PullStats {
  applied: number;
  /** Operations whose signature did not verify: cached but never applied. */
  unverified: number;
  /** Vaults whose pulled operations changed their members (member.*, vault.rotateKeys): their member lists are fetched again. */
  memberVaultIds?: Set<string>;
}

/** Operation types that change who is in a vault or which keys it uses. */
export function isMembershipOperation(type: OperationType): boolean {
  return type.startsWith('member.') || type === 'vault.rotateKeys';
}

/** Membership states whose vault is no longer pulled (the server answers 403) nor listed. */
export function isEndedMembership(status: VaultRecord['membershipStatus']): boolean {
  return status === 'REVOKED' || status === 'REJECTED';
}

/**
 * How many keys of each vault's ring the crypto worker holds, as this session opened or rotated
 * them. A ring is opened again only when GET /vaults names another count (a rotation by another
 * device, or a rotation of ours the server never took), not on every cycle. Keyed by the
 * session's context: a new session (and a new worker) starts knowing nothing.
 */
const heldKeyCounts = new WeakMap<SyncContext, Map<string, number>>();

function keyCountsOf(ctx: SyncContext): Map<string, number> {
  let counts = heldKeyCounts.get(ctx);
  if (!counts) heldKeyCounts.set(ctx, (counts = new Map()));
  return counts;
}

/** The number of keys the worker holds for `vaultId` (as far as this session knows). */
export function heldKeyCount(ctx: SyncContext, vaultId: string): number | undefined {
  return keyCountsOf(ctx).get(vaultId);
}

/** Records that the worker now holds `keyCount` keys for `vaultId` (after a rotation); undefined forgets it. */
export function setHeldKeyCount(ctx: SyncContext, vaultId: string, keyCount: number | undefined): void {
  if (keyCount === undefined) keyCountsOf(ctx).delete(vaultId);
  else keyCountsOf(ctx).set(vaultId, keyCount);
}

/** Opens `sealedKeys` in the worker as the vault's ring and records its size. */
async function openRing(ctx: SyncContext, vaultId: string, sealedKeys: string): Promise<void> {
  const { keyCount } = await ctx.crypto.openVaultKeys(vaultId, sealedKeys);
  setHeldKeyCount(ctx, vaultId, keyCount);
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
    membershipId: summary.membership.id,
    membershipExpiresAt: summary.membership.expiresAt,
    membershipStorageAllowance: summary.membership.storageAllowance,
    keyCount: summary.keyCount,
    needsKeyRotation: summary.needsKeyRotation,
  };
}

/**
 * GET /vaults: upserts every vault record and opens private key rings: each ring not held yet, or
 * held with another number of keys than the vault's `keyCount` (a rotation happened elsewhere, or
 * one of ours was refused), so new content always uses the newest key everybody holds. Answers
 * the list.
 */
export async function refreshVaultList(ctx: SyncContext): Promise<VaultSummary[]> {
  const { db, accountId } = ctx;
  const { vaults } = await ctx.api.get('/vaults', VaultListResponse);
  for (const summary of vaults) {
    if (!summary.isPublic && summary.membership.keys && heldKeyCount(ctx, summary.vaultId) !== summary.keyCount) {
      try {
        await openRing(ctx, summary.vaultId, summary.membership.keys);
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
      await openRing(ctx, vaultId, vault.sealedKeys);
      return;
    } catch (error) {
      ctx.log(`Could not open the stored keys of vault ${vaultId}; asking the server`, error);
    }
  }
  await refreshVaultList(ctx);
}

/** One page of a vault's log as the server served it, with the worker's verdict on each operation. */
interface OpenedPage {
  /** The cursor the page was asked for: its operations follow seq `after`. */
  after: number;
  ops: SequencedOperation[];
  /** `opened[i]` belongs to `ops[i]`. */
  opened: OpenedOperation[];
  headSeq: number;
  hasMore: boolean;
}

/** The size of the newest ring a page's rotations (member.revoke, vault.rotateKeys) made, or 0. */
function rotatedKeyCount(ops: SequencedOperation[]): number {
  let count = 0;
  for (const { op } of ops) {
    const body = op.body;
    if (body.type === 'vault.rotateKeys' || (body.type === 'member.revoke' && body.rotation)) count = Math.max(count, body.rotation!.keyCount);
  }
  return count;
}

/**
 * GET one page of operations after `after`, then verify and open it in the worker (one round
 * trip). A page that rotates the vault past the ring the worker holds (the rotation came after
 * this cycle's GET /vaults) fetches the new ring first, so the content after it opens.
 */
async function fetchOpenedPage(ctx: SyncContext, vaultId: string, after: number): Promise<OpenedPage> {
  const page = await ctx.api.get(`/vaults/${encodeURIComponent(vaultId)}/ops?after=${after}&limit=${VAULT_LIMITS.PULL_PAGE_MAX}`, PullResponse);
  const held = heldKeyCount(ctx, vaultId);
  if (held !== undefined && rotatedKeyCount(page.ops) > held) await refreshVaultList(ctx);
  const opened = page.ops.length ? await ctx.crypto.openOperations(vaultId, page.ops) : [];
  if (opened.length !== page.ops.length) throw new Error(`The crypto worker answered ${opened.length} of ${page.ops.length} operations`);
  return { after, ops: page.ops, opened, headSeq: page.headSeq, hasMore: page.hasMore };
}

/**
 * Applies one opened page in the current transaction: caches its operations, applies the verified
 * ones and moves the cursor, all or nothing. `held` is the state this pull saved after its previous
 * page (reused when nobody wrote the projection since). Answers the saved state, or null when the
 * stored cursor is behind the page (operations between them were never applied): the caller must
 * then fetch again from the stored cursor.
 */
async function applyOpenedPage(ctx: SyncContext, vaultId: string, page: OpenedPage, held: VaultState | null, stats: PullStats): Promise<VaultState | null> {
  const { db, accountId } = ctx;
  const state = reuseHeldVaultState(held, await db.vaults.get([accountId, vaultId])) ?? (await loadVaultState(db, accountId, vaultId));
  const cursor = state.vault.cursor;
  if (cursor < page.after) return null;
  const records: CachedOp[] = [];
  for (let i = 0; i < page.ops.length; i++) {
    const { seq, receivedAt, op } = page.ops[i]!;
    // Another pull (another tab) may have applied part of this page already: only what is past
    // the stored cursor is new, so racing pulls apply each operation once.
    if (seq <= cursor) continue;
    const { isVerified, fields } = page.opened[i]!;
    records.push({ seq, receivedAt, op, isVerified, fields });
    if (!isVerified) {
      stats.unverified += 1;
      ctx.log(`Skipped operation ${op.id} (seq ${seq}) of vault ${vaultId}: its signature does not verify`);
      continue;
    }
    if (isMembershipOperation(op.body.type)) (stats.memberVaultIds ??= new Set()).add(vaultId);
    applyOperation(state, { op, fields, time: receivedAt, isPending: false, seq });
    stats.applied += 1;
  }
  computeFolderSizes(state);
  if (records.length) await db.opPages.put({ accountId, vaultId, firstSeq: records[0]!.seq, ops: records });
  await saveDraftUpdates(db, accountId, records);
  state.vault.cursor = Math.max(cursor, records.at(-1)?.seq ?? cursor);
  state.vault.headSeq = Math.max(page.headSeq, state.vault.cursor);
  state.isVaultDirty = true;
  await saveVaultState(db, state);
  return state;
}

/**
 * Pulls one vault until its cursor reaches the head. Each page is applied in ONE transaction with
 * its cursor (crash safety: a page is applied entirely with the cursor moved past it, or not at
 * all). While a page is written, the next one is already being fetched and opened, so the server,
 * the network, the crypto worker and IndexedDB work at the same time; the projection stays in
 * memory from page to page instead of being read back each time.
 */
export async function pullVault(ctx: SyncContext, vaultId: string, stats: PullStats = { applied: 0, unverified: 0 }): Promise<PullStats> {
  const { db, accountId } = ctx;
  let held: VaultState | null = null;
  let next: Promise<OpenedPage> | null = null;
  for (;;) {
    const page: OpenedPage = await (next ?? fetchOpenedPage(ctx, vaultId, (await db.vaults.get([accountId, vaultId]))?.cursor ?? 0));
    const last = page.ops.at(-1)?.seq;
    next = page.hasMore && last !== undefined ? fetchOpenedPage(ctx, vaultId, last) : null;
    // Settled here in case this page's transaction fails and nobody awaits the next page.
    next?.catch(() => undefined);
    const saved: VaultState | null = await db.transaction('rw', [db.vaults, db.nodes, db.versions, db.memos, db.opPages, db.noteDraftUpdates], () =>
      applyOpenedPage(ctx, vaultId, page, held, stats),
    );
    if (!saved) {
      // The stored cursor went back (the account's data was wiped meanwhile): start over from it.
      held = null;
      next = null;
      continue;
    }
    held = saved;
    if (!next) return stats;
  }
}

/**
 * Pulls a vault behind its head unless the signed-in user's membership of it ended. A 403 means it
 * ended since GET /vaults answered: the record says so (the vault list drops it, vaultListRules.ts)
 * and the vault is not pulled again.
 */
export async function pullVaultIfMember(ctx: SyncContext, vaultId: string, stats: PullStats): Promise<void> {
  const vault = await ctx.db.vaults.get([ctx.accountId, vaultId]);
  if (!vault || isEndedMembership(vault.membershipStatus) || vault.cursor >= vault.headSeq) return;
  try {
    await pullVault(ctx, vaultId, stats);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 403)) throw error;
    ctx.log(`Vault ${vaultId} refused a pull (403): the membership ended`);
    await ctx.db.vaults.update([ctx.accountId, vaultId], { role: 'REVOKED', membershipStatus: 'REVOKED' });
  }
}

/** Refreshes the list, then pulls every vault behind its head (or only `onlyVaultIds`). */
export async function pullAll(ctx: SyncContext, onlyVaultIds?: Set<string>): Promise<PullStats> {
  const stats: PullStats = { applied: 0, unverified: 0 };
  await refreshVaultList(ctx);
  const vaults = await ctx.db.vaults.where('accountId').equals(ctx.accountId).toArray();
  for (const vault of vaults) {
    if (onlyVaultIds && !onlyVaultIds.has(vault.vaultId)) continue;
    await pullVaultIfMember(ctx, vault.vaultId, stats);
  }
  // Memberships that ended (the list said so, or a pull was refused): their data leaves the device (R50).
  await dropEndedVaults(ctx);
  return stats;
}
