/**
 * Pulling (DESIGN.md section 4): GET /vaults refreshes the vault records and opens each private
 * vault's key ring in the crypto worker; then each vault behind its head is pulled page by page.
 * A page is verified and opened by the worker in one round trip, then cached (`opPages`) and
 * applied to the projection in ONE Dexie transaction together with the cursor, so a crash never
 * leaves a page half applied or applied without its cursor moving.
 */
import Dexie from 'dexie';
import type { OpenedOperation } from '../../workers/crypto/CryptoApi';
import { ApiError } from '../protocol/errors';
import { type OperationType, PullResponse, type SequencedOperation, VAULT_LIMITS, type VaultSummary, VaultListResponse } from '../protocol/vaults';
import { emptyVaultRecord, loadVaultState, reuseHeldVaultState, saveVaultState, type VaultState } from '../storage/vaultProjection';
import type { CachedOp, VaultRecord } from '../storage/vaultRecords';
import { saveDraftUpdates } from '../storage/noteDraftStore';
import { judgeOperation, newVaultLogState, trustedRingKeyCount, type VaultLogProblem } from '../domain/vaultLog';
import { judgeCachedLog } from './judgeCachedLog';
import { applyOperation, computeFolderSizes } from './applyOperation';
import { dropEndedVaults } from './dropEndedVaults';
import { perSessionMap, type SyncContext } from './SyncContext';

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
const keyCountsOf = perSessionMap<number>();

/** The number of keys the worker holds for `vaultId` (as far as this session knows). */
export function heldKeyCount(ctx: SyncContext, vaultId: string): number | undefined {
  return keyCountsOf(ctx).get(vaultId);
}

/** Records that the worker now holds `keyCount` keys for `vaultId` (after a rotation); undefined forgets it. */
export function setHeldKeyCount(ctx: SyncContext, vaultId: string, keyCount: number | undefined): void {
  if (keyCount === undefined) keyCountsOf(ctx).delete(vaultId);
  else keyCountsOf(ctx).set(vaultId, keyCount);
}

/** The worker forgets the vault's ring, and this session what it knew of it (a membership ended, R56). */
export async function forgetHeldRing(ctx: SyncContext, vaultId: string): Promise<void> {
  await ctx.crypto.forgetVaultKeys(vaultId);
  setHeldKeyCount(ctx, vaultId, undefined);
  trustedCountsOf(ctx).delete(vaultId);
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

/** The last GET /vaults answer of each session (the sync cycle accepts organisation airdrops from it, R131). */
const lastVaultListOf = new WeakMap<SyncContext, VaultSummary[]>();

export function lastVaultList(ctx: SyncContext): VaultSummary[] {
  return lastVaultListOf.get(ctx) ?? [];
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
  lastVaultListOf.set(ctx, vaults);
  // Rings the server served that would replace keys the worker holds: refused, and flagged below.
  const replaced: string[] = [];
  for (const summary of vaults) {
    const isLive = !isEndedMembership(summary.membership.status);
    if (isLive && !summary.isPublic && summary.membership.keys && heldKeyCount(ctx, summary.vaultId) !== summary.keyCount) {
      try {
        await openRing(ctx, summary.vaultId, summary.membership.keys);
      } catch (error) {
        ctx.log(`Could not open the keys of vault ${summary.vaultId}`, error);
        if (error instanceof Error && error.message === 'KEY_RING_REPLACED') {
          replaced.push(summary.vaultId);
        }
      }
    }
  }
  await db.transaction('rw', [db.vaults], async () => {
    for (const summary of vaults) {
      const existing = await db.vaults.get([accountId, summary.vaultId]);
      await db.vaults.put(mergeVaultSummary(existing ?? emptyVaultRecord(accountId, summary.vaultId), summary));
    }
  });
  for (const vaultId of replaced) {
    const cursor = (await db.vaults.get([accountId, vaultId]))?.cursor ?? 0;
    await flagVaultLog(ctx, vaultId, { seq: cursor, reason: 'the server serves a key ring that replaces keys this device holds' });
  }
  for (const summary of vaults) if (!summary.isPublic && summary.membership.keys) await trustHeldRing(ctx, summary.vaultId);
  return vaults;
}

/**
 * How many keys of each vault's ring this session's worker was told it may seal with (R51), so
 * the worker is asked again only when the held ring changed. Kept per session like `keyCountsOf`.
 */
const trustedCountsOf = perSessionMap<number>();

/**
 * R51: the worker may seal with the vault's held ring once the judged log shows an allowed
 * operation handed that very ring out. A ring the log never handed out, once the log is judged
 * up to the head, is a substituted one: the vault's history is marked unverified, and the worker
 * keeps sealing with the keys it already trusted (the server then refuses those writes, which
 * stay queued) instead of sealing anything under a key the server may know.
 */
export async function trustHeldRing(ctx: SyncContext, vaultId: string): Promise<void> {
  const vault = await ctx.db.vaults.get([ctx.accountId, vaultId]);
  if (!vault || vault.isPublic || !vault.sealedKeys || !vault.log) return;
  const count = trustedRingKeyCount(vault.log, vault.sealedKeys);
  if (count !== undefined) {
    if (trustedCountsOf(ctx).get(vaultId) === count && heldKeyCount(ctx, vaultId) === count) return;
    try {
      // The worker takes the vouched ring itself: the one held may be a rotation of our own of the same size.
      const { trustedCount, keyCount } = await ctx.crypto.confirmVaultKeys(vaultId, vault.sealedKeys, count);
      trustedCountsOf(ctx).set(vaultId, trustedCount);
      setHeldKeyCount(ctx, vaultId, keyCount);
    } catch (error) {
      if (!(error instanceof Error && error.message === 'KEY_RING_REPLACED')) throw error;
      await flagVaultLog(ctx, vaultId, { seq: vault.cursor, reason: 'the server serves a key ring that replaces keys this device holds' });
    }
    return;
  }
  if (vault.cursor >= vault.headSeq) await flagVaultLog(ctx, vaultId, { seq: vault.cursor, reason: 'the server serves a key ring that no member handed out' });
}

/** Marks the vault's history as not verified (the first problem stays). */
export async function flagVaultLog(ctx: SyncContext, vaultId: string, problem: VaultLogProblem): Promise<void> {
  ctx.log(`Vault ${vaultId}: history not verified at seq ${problem.seq}: ${problem.reason}`);
  await ctx.db.transaction('rw', [ctx.db.vaults], async () => {
    const vault = await ctx.db.vaults.get([ctx.accountId, vaultId]);
    if (!vault || vault.log?.problem) return;
    await ctx.db.vaults.put({ ...vault, log: { ...(vault.log ?? newVaultLogState()), problem } });
  });
}

/**
 * Makes sure the worker holds the key ring of private vault `vaultId`, trusted as far as the judged
 * log vouches for it (R51): right after a reload a download, an upload resume or a new name can
 * come before the first sync cycle opened the rings, or the device may be offline. A public vault
 * needs none.
 */
export async function ensureVaultKeys(ctx: SyncContext, vaultId: string): Promise<void> {
  const vault = await ctx.db.vaults.get([ctx.accountId, vaultId]);
  if (vault?.isPublic) return;
  if (!(await ctx.crypto.hasVaultKeys(vaultId))) await openHeldOrServerRing(ctx, vaultId, vault?.sealedKeys);
  await trustHeldRing(ctx, vaultId);
}

/** The ring kept from the last sync opens offline; the server's copy is asked only without one. */
async function openHeldOrServerRing(ctx: SyncContext, vaultId: string, sealedKeys: string | null | undefined): Promise<void> {
  if (sealedKeys) {
    try {
      await openRing(ctx, vaultId, sealedKeys);
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
async function fetchOpenedPage(ctx: SyncContext, vaultId: string, after: number, limit: number = VAULT_LIMITS.PULL_PAGE_MAX): Promise<OpenedPage> {
  const page = await ctx.api.get(`/vaults/${encodeURIComponent(vaultId)}/ops?after=${after}&limit=${limit}`, PullResponse);
  const held = heldKeyCount(ctx, vaultId);
  if (held !== undefined && rotatedKeyCount(page.ops) > held) await refreshVaultList(ctx);
  const opened = page.ops.length ? await ctx.crypto.openOperations(vaultId, page.ops) : [];
  if (opened.length !== page.ops.length) throw new Error(`The crypto worker answered ${opened.length} of ${page.ops.length} operations`);
  return { after, ops: page.ops, opened, headSeq: page.headSeq, hasMore: page.hasMore };
}

/**
 * Applies one opened page in the current transaction: judges each operation against the log so
 * far (R50), caches them all, applies the accepted ones and moves the cursor, all or nothing.
 * `held` is the state this pull saved after its previous page (reused when nobody wrote the
 * projection since). Answers the saved state and whether the pull must stop (the server served
 * the log out of order: the rest of the page is not applied, the cursor stays at the last
 * operation judged in order), or null when the stored cursor is behind the page (operations
 * between them were never applied): the caller must then fetch again from the stored cursor.
 */
async function applyOpenedPage(
  ctx: SyncContext,
  vaultId: string,
  page: OpenedPage,
  held: VaultState | null,
  stats: PullStats,
): Promise<{ state: VaultState; isStopped: boolean } | null> {
  const { db, accountId } = ctx;
  const state = reuseHeldVaultState(held, await db.vaults.get([accountId, vaultId])) ?? (await loadVaultState(db, accountId, vaultId));
  const cursor = state.vault.cursor;
  if (cursor < page.after) return null;
  // judgeCachedLog ran before any pull of a vault pulled before the judge existed.
  const log = state.vault.log ?? newVaultLogState();
  if (log.seq !== cursor) throw new Error(`The log of vault ${vaultId} was judged to seq ${log.seq}, its cursor is ${cursor}`);
  const records: CachedOp[] = [];
  let isStopped = false;
  for (let i = 0; i < page.ops.length; i++) {
    const entry = page.ops[i]!;
    const { seq, receivedAt, op } = entry;
    // Another pull (another tab) may have applied part of this page already: only what is past
    // the stored cursor is new, so racing pulls apply each operation once.
    if (seq <= cursor) continue;
    if (seq !== log.seq + 1) {
      // A gap, a repeat or a reordered page: nothing after it can be judged.
      log.problem ??= { seq, reason: `the server served operation ${seq} where ${log.seq + 1} was due` };
      ctx.log(`Vault ${vaultId}: the server served seq ${seq} after ${log.seq}; the pull stops there`);
      isStopped = true;
      break;
    }
    const opened = page.opened[i]!;
    const verdict = judgeOperation(log, vaultId, entry, opened.isVerified);
    if (!verdict.isAccepted) {
      records.push({ seq, receivedAt, op, isVerified: false, fields: {}, refusal: verdict.reason });
      stats.unverified += 1;
      ctx.log(`Refused operation ${op.id} (seq ${seq}) of vault ${vaultId}: ${verdict.reason}`);
      continue;
    }
    records.push({ seq, receivedAt, op, isVerified: true, fields: opened.fields });
    if (isMembershipOperation(op.body.type)) (stats.memberVaultIds ??= new Set()).add(vaultId);
    applyOperation(state, { op, fields: opened.fields, time: receivedAt, isPending: false, seq });
    stats.applied += 1;
  }
  computeFolderSizes(state);
  if (records.length) await db.opPages.put({ accountId, vaultId, firstSeq: records[0]!.seq, ops: records });
  await saveDraftUpdates(db, accountId, records);
  state.vault.cursor = Math.max(cursor, records.at(-1)?.seq ?? cursor);
  // R123: what this device pushed is now in the cached pages.
  await db.acceptedOps.where('[accountId+vaultId+seq]').between([accountId, vaultId, Dexie.minKey], [accountId, vaultId, state.vault.cursor], true, true).delete();
  state.vault.headSeq = Math.max(page.headSeq, state.vault.cursor);
  state.vault.log = log;
  state.isVaultDirty = true;
  await saveVaultState(db, state);
  return { state, isStopped };
}

/**
 * Pulls one vault until its cursor reaches the head. Each page is applied in ONE transaction with
 * its cursor (crash safety: a page is applied entirely with the cursor moved past it, or not at
 * all). While a page is written, the next one is already being fetched and opened, so the server,
 * the network, the crypto worker and IndexedDB work at the same time; the projection stays in
 * memory from page to page instead of being read back each time.
 */
export async function pullVault(ctx: SyncContext, vaultId: string, stats: PullStats = { applied: 0, unverified: 0 }): Promise<PullStats> {
  await judgeCachedLog(ctx, vaultId);
  await pullPages(ctx, vaultId, stats);
  await trustHeldRing(ctx, vaultId);
  return stats;
}

/**
 * Operations asked for in a pull's first page (R142); the pages after it are full (PULL_PAGE_MAX). A
 * fresh device's first page of a vault of 100,000 items is then opened and written in a fraction
 * of the time of a full one, and its rows show while the rest is pulled.
 */
export const FIRST_PULL_PAGE = 100;

/** pullVault's pages, while the server answers in order. */
async function pullPages(ctx: SyncContext, vaultId: string, stats: PullStats): Promise<void> {
  const { db, accountId } = ctx;
  let held: VaultState | null = null;
  let next: Promise<OpenedPage> | null = null;
  for (;;) {
    // A pull starts with a short page, so the first rows of a large vault show while the rest comes.
    const page: OpenedPage = await (next ?? fetchOpenedPage(ctx, vaultId, (await db.vaults.get([accountId, vaultId]))?.cursor ?? 0, FIRST_PULL_PAGE));
    const last = page.ops.at(-1)?.seq;
    next = page.hasMore && last !== undefined ? fetchOpenedPage(ctx, vaultId, last) : null;
    // Settled here in case this page's transaction fails and nobody awaits the next page.
    next?.catch(() => undefined);
    const saved = await db.transaction('rw', [db.vaults, db.nodes, db.versions, db.memos, db.opPages, db.noteDraftUpdates, db.acceptedOps], () =>
      applyOpenedPage(ctx, vaultId, page, held, stats),
    );
    if (!saved) {
      // The stored cursor went back (the account's data was wiped meanwhile): start over from it.
      held = null;
      next = null;
      continue;
    }
    held = saved.state;
    if (!next || saved.isStopped) return;
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
  // Memberships that ended (the list said so, or a pull was refused): their data leaves the device (R56).
  await dropEndedVaults(ctx);
  return stats;
}
