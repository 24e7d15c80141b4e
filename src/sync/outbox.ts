/**
 * The outbox (DESIGN.md section 4): every write is signed, stored in Dexie and applied to the
 * projection at once (shown as pending), then pushed in queuing order. The operation id is made
 * once here and pushed unchanged on every retry, so the server applies it at most once.
 *
 * - accepted: the record is deleted and its pending marks cleared; the next pull brings the
 *   server's copy (applying it again changes nothing).
 * - rejected: the record stays, marked rejected with the server's typed error, and the vault is
 *   rebuilt without it (rebuild.ts), which puts the rejection on the node or vault for the UI.
 * - no answer (offline, timeout, 5xx, 429, 401): nothing changes; the caller retries with backoff.
 * - STALE_VAULT_KEY (SYNC_SPEC R17): the vault's key was rotated after the operation was sealed.
 *   The newest ring is fetched, every sealed field is sealed again under it, the operation is
 *   signed again with the same id and pushed again. The user never sees it.
 * - KEY_ROTATION_PENDING (R18): a member left and the key is not rotated yet; the record stays
 *   pending and is pushed again later, once a device rotated the key.
 * Operations of a vault queued after one of those two in the same batch may depend on it (a file
 * in a new folder), so their rejections in that batch are not final either: they stay pending and
 * are pushed again behind it.
 */
import Dexie from 'dexie';
import type { z } from 'zod';
import type { OpenedFields } from '../../workers/crypto/CryptoApi';
import { NetworkError, InvalidResponseError } from '../platform/apiClient';
import { ApiError } from '../protocol/errors';
import { type OperationBody, PushResponse, type UnsignedOperation, VAULT_LIMITS } from '../protocol/vaults';
import { loadVaultState, reuseHeldVaultState, saveVaultState, type VaultState } from '../storage/vaultProjection';
import type { OutboxRecord } from '../storage/vaultRecords';
import { applyOperation, clearPending, computeFolderSizes } from './applyOperation';
import { keySharing } from './members';
import { pullVaultIfMember, refreshVaultList } from './pull';
import { rebuildVault } from './rebuild';
import { perSessionMap, type SyncContext } from './SyncContext';

export interface EnqueueInput {
  vaultId: string;
  /** The vault id for vault.* operations, the node id otherwise. */
  objectId: string;
  body: OperationBody;
  /** The clear text of the body's fields (what the projection shows while pending). */
  fields: OpenedFields;
  /** Held back until that upload is done. */
  waitsForUploadId?: string | null;
  /** One id for every operation of a batch action (UnsignedOperation.groupRef). */
  groupRef?: string;
}

/**
 * The state this session's outbox last saved for each vault. Queuing or accepting an operation
 * reuses it while the vault's projection stamp says nobody else wrote the vault since
 * (src/storage/vaultProjection.ts), instead of reading the whole vault for every action. Keyed by
 * the session's context, so it goes (with the names it holds in clear) when sync stops.
 */
const heldStatesOf = perSessionMap<VaultState>();

/**
 * Signs `input`, stores it as pending and applies it to the projection in one transaction. The
 * file operation of an upload is queued once: when one already waits for the same upload (a
 * stopped client's queue finishing the upload while the next one does too, after a reload), that
 * record is answered instead, checked inside the same transaction so two cannot both add.
 */
export async function enqueueOperation(ctx: SyncContext, input: EnqueueInput): Promise<OutboxRecord> {
  const [queued] = await enqueueOperations(ctx, [input]);
  return queued!;
}

/**
 * enqueueOperation for several operations (a batch hide, restore, move or delete, a group of
 * uploaded files): signed together, then stored and applied in one transaction, in order, with each vault's projection
 * saved once. Queuing a batch of 250 one transaction at a time took tens of seconds.
 */
export async function enqueueOperations(ctx: SyncContext, inputs: readonly EnqueueInput[]): Promise<OutboxRecord[]> {
  const { db } = ctx;
  // Signed together: the crypto worker takes them back to back, not one round trip at a time.
  const records = await Promise.all(
    inputs.map(async (input): Promise<OutboxRecord> => {
      const unsigned: UnsignedOperation = {
        id: ctx.newId(),
        vaultId: input.vaultId,
        objectId: input.objectId,
        author: ctx.user.publicSigningKey,
        createdAt: ctx.now(),
        ...(input.groupRef ? { groupRef: input.groupRef } : {}),
        body: input.body,
      };
      const op = await ctx.crypto.signOperation(unsigned);
      return {
        accountId: ctx.accountId,
        opId: op.id,
        vaultId: op.vaultId,
        op,
        // Strictly increasing even within one millisecond, so push order is queuing order.
        queuedAt: 0,
        status: 'pending',
        error: null,
        waitsForUploadId: input.waitsForUploadId ?? null,
        fields: input.fields,
      };
    }),
  );
  const queued: OutboxRecord[] = [];
  await db.transaction('rw', [db.vaults, db.nodes, db.versions, db.memos, db.outbox], async () => {
    const held = heldStatesOf(ctx);
    const states = new Map<string, VaultState>();
    let last = (await db.outbox.where('[accountId+queuedAt]').between([ctx.accountId, 0], [ctx.accountId, Infinity]).last())?.queuedAt ?? 0;
    // An upload's operation queued already (a run that crashed before marking it done): kept, not doubled.
    const waiting = new Map<string, OutboxRecord>();
    for (const vaultId of new Set(records.filter((r) => r.waitsForUploadId).map((r) => r.vaultId))) {
      await db.outbox
        .where('[accountId+vaultId]')
        .equals([ctx.accountId, vaultId])
        .each((o) => {
          if (o.waitsForUploadId) waiting.set(o.waitsForUploadId, o);
        });
    }
    for (const record of records) {
      const existing = record.waitsForUploadId ? waiting.get(record.waitsForUploadId) : undefined;
      if (existing) {
        queued.push(existing);
        continue;
      }
      record.queuedAt = last = Math.max(ctx.now(), last + 1);
      await db.outbox.add(record);
      const { op } = record;
      let state = states.get(op.vaultId);
      if (!state) {
        state =
          reuseHeldVaultState(held.get(op.vaultId) ?? null, await db.vaults.get([ctx.accountId, op.vaultId])) ??
          (await loadVaultState(db, ctx.accountId, op.vaultId));
        states.set(op.vaultId, state);
      }
      if (op.body.type === 'vault.create') {
        // A vault made on this device: its owner is the author, until GET /vaults says otherwise.
        Object.assign(state.vault, {
          role: 'OWNER',
          membershipStatus: 'ACCEPTED',
          ownerAddress: state.vault.ownerAddress || ctx.user.address,
          // Its key ring, sealed to this account, opens again after a reload while offline.
          ...(op.body.isPublic ? {} : { sealedKeys: op.body.ownerKeys }),
        });
      }
      applyOperation(state, { op, fields: record.fields, time: op.createdAt, isPending: true });
      queued.push(record);
    }
    for (const [vaultId, state] of states) {
      computeFolderSizes(state);
      await saveVaultState(db, state);
      held.set(vaultId, state);
    }
  });
  ctx.requestPush();
  return queued;
}

/** Pending records that may be pushed now, in queuing order. */
async function readPushable(ctx: SyncContext): Promise<OutboxRecord[]> {
  const { db, accountId } = ctx;
  const records = await db.outbox.where('[accountId+queuedAt]').between([accountId, 0], [accountId, Infinity]).toArray();
  const pushable: OutboxRecord[] = [];
  for (const record of records) {
    if (record.status !== 'pending') continue;
    if (record.waitsForUploadId) {
      const upload = await db.uploads.get([accountId, record.waitsForUploadId]);
      if (upload?.state !== 'done') continue;
    }
    pushable.push(record);
    if (pushable.length >= VAULT_LIMITS.PUSH_BATCH_MAX) break;
  }
  return pushable;
}

export interface PushOutcome {
  /** Vaults with newly accepted operations: pull them. */
  acceptedVaultIds: Set<string>;
  accepted: number;
  rejected: number;
  /** More may be pushable (a full batch made progress, or operations were resealed to push again). */
  hasMore: boolean;
  /** Operations sealed again under a rotated key (R17), to push again at once. */
  resealed: number;
  /** Operations kept pending behind a rotation (R18) or a reseal: pushed again on a later cycle. */
  waiting: number;
}

/** Rejections that are not final: the operation is fixed (R17) or waits (R18), never shown. */
const KEY_RETRY_CODES: ReadonlySet<string> = new Set(['STALE_VAULT_KEY', 'KEY_ROTATION_PENDING']);

/**
 * R17: seals the stale records' fields again under the vault's newest key (fetched with GET
 * /vaults, and trusted once the pulled log shows who handed it out: R51), signs them again with the same ids and stores them, still pending. Answers how many
 * were resealed; a record the worker finds already under the newest key (the ring could not be
 * refreshed) stays as it is, for a later cycle.
 */
async function resealStale(ctx: SyncContext, records: OutboxRecord[]): Promise<number> {
  if (!records.length) return 0;
  const sharing = keySharing(ctx);
  await refreshVaultList(ctx);
  // The new ring seals only once the log that hands it out is judged (R51): pull up to it first.
  for (const vaultId of new Set(records.map((r) => r.vaultId))) await pullVaultIfMember(ctx, vaultId, { applied: 0, unverified: 0 });
  let resealed = 0;
  for (const record of records) {
    const { signature: _signature, ...unsigned } = record.op;
    let fresh: UnsignedOperation | null;
    try {
      fresh = await sharing.resealOperation(record.vaultId, unsigned);
    } catch (error) {
      // A field that no longer opens cannot be resealed: shown as the server's refusal (R9).
      ctx.log(`Operation ${record.opId} could not be resealed`, error);
      await markRejected(ctx, [{ opId: record.opId, error: { code: 'STALE_VAULT_KEY', message: 'This change was sealed with an old vault key and could not be sealed again.' } }]);
      continue;
    }
    if (!fresh) continue;
    const op = await ctx.crypto.signOperation(fresh);
    const isStored = await ctx.db.transaction('rw', [ctx.db.outbox], async () => {
      const current = await ctx.db.outbox.get([ctx.accountId, record.opId]);
      if (current?.status !== 'pending') return false;
      await ctx.db.outbox.put({ ...current, op });
      return true;
    });
    if (isStored) resealed += 1;
  }
  return resealed;
}

/** Whether a failed push should simply be retried later (nothing about the operations is wrong). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof InvalidResponseError) return true;
  if (error instanceof ApiError) return error.status >= 500 || error.status === 429 || error.status === 401;
  return true;
}

/** Marks records rejected and rebuilds their vaults. */
async function markRejected(ctx: SyncContext, rejected: { opId: string; error: { code: string; message: string } }[]): Promise<void> {
  const { db, accountId } = ctx;
  const vaultIds = new Set<string>();
  await db.transaction('rw', [db.outbox], async () => {
    for (const { opId, error } of rejected) {
      const record = await db.outbox.get([accountId, opId]);
      if (!record) continue;
      vaultIds.add(record.vaultId);
      await db.outbox.put({ ...record, status: 'rejected', error });
    }
  });
  for (const vaultId of vaultIds) await rebuildVault(db, accountId, vaultId);
}

/**
 * Pushes one batch. Throws on a retryable failure (the caller backs off); a whole-batch 4xx
 * (other than 401/429) rejects every operation of the batch with that error rather than looping.
 */
export async function pushOutbox(ctx: SyncContext): Promise<PushOutcome> {
  const { db, accountId } = ctx;
  const outcome: PushOutcome = { acceptedVaultIds: new Set(), accepted: 0, rejected: 0, hasMore: false, resealed: 0, waiting: 0 };
  const batch = await readPushable(ctx);
  if (!batch.length) return outcome;

  let response: z.infer<typeof PushResponse>;
  try {
    response = await ctx.api.post('/vaults/ops', { ops: batch.map((r) => r.op) }, PushResponse);
  } catch (error) {
    if (isRetryable(error)) throw error;
    const apiError = error as ApiError;
    await markRejected(
      ctx,
      batch.map((r) => ({ opId: r.opId, error: { code: apiError.code, message: apiError.message } })),
    );
    outcome.rejected = batch.length;
    return outcome;
  }

  const byId = new Map(batch.map((r) => [r.opId, r]));
  const accepted = response.results.filter((r) => r.status === 'accepted' && byId.has(r.id));
  const acceptedSeqs = new Map(accepted.map((r) => [r.id, r.status === 'accepted' ? r.seq : 0]));
  const answers = new Map(response.results.map((r) => [r.id, r]));
  const rejected: { opId: string; error: { code: string; message: string } }[] = [];
  const stale: OutboxRecord[] = [];
  const heldVaults = new Set<string>();
  // In queuing order, so only what comes after a key retry in its vault is held back with it.
  for (const record of batch) {
    const answer = answers.get(record.opId);
    if (answer?.status !== 'rejected') continue;
    if (KEY_RETRY_CODES.has(answer.error.code)) {
      heldVaults.add(record.vaultId);
      if (answer.error.code === 'STALE_VAULT_KEY') stale.push(record);
      else outcome.waiting += 1;
    } else if (heldVaults.has(record.vaultId)) {
      outcome.waiting += 1;
    } else {
      rejected.push({ opId: record.opId, error: answer.error });
    }
  }

  if (accepted.length) {
    const perVault = new Map<string, OutboxRecord[]>();
    for (const result of accepted) {
      const record = byId.get(result.id)!;
      const list = perVault.get(record.vaultId);
      if (list) list.push(record);
      else perVault.set(record.vaultId, [record]);
    }
    await db.transaction('rw', [db.vaults, db.nodes, db.versions, db.memos, db.outbox, db.acceptedOps], async () => {
      const held = heldStatesOf(ctx);
      for (const [vaultId, records] of perVault) {
        const state = reuseHeldVaultState(held.get(vaultId) ?? null, await db.vaults.get([accountId, vaultId])) ?? (await loadVaultState(db, accountId, vaultId));
        for (const record of records) {
          clearPending(state, record.opId, record.op.body.type === 'vault.create');
          await db.outbox.delete([accountId, record.opId]);
          // R123: kept until a pull brings it back, so a rebuild before then still applies it.
          const seq = acceptedSeqs.get(record.opId)!;
          if (seq > state.vault.cursor) await db.acceptedOps.put({ accountId, opId: record.opId, vaultId, seq, op: record.op, fields: record.fields });
        }
        await saveVaultState(db, state);
        held.set(vaultId, state);
        outcome.acceptedVaultIds.add(vaultId);
      }
    });
    outcome.accepted = accepted.length;
  }
  if (rejected.length) {
    await markRejected(ctx, rejected);
    outcome.rejected = rejected.length;
  }
  if (stale.length) {
    try {
      outcome.resealed = await resealStale(ctx, stale);
    } catch (error) {
      // No ring from the server now (offline, a fake crypto port): they stay pending for later.
      ctx.log('Stale operations not resealed yet', error);
    }
    outcome.waiting += stale.length - outcome.resealed;
  }
  // A full batch that moved nothing (every operation waits for a rotation) must not loop.
  outcome.hasMore = outcome.resealed > 0 || (batch.length >= VAULT_LIMITS.PUSH_BATCH_MAX && outcome.accepted + outcome.rejected > 0);
  return outcome;
}

/** The user dismissed a rejection: the refused operation leaves the outbox and the vault is rebuilt. */
export async function dismissRejectedOperation(ctx: SyncContext, opId: string): Promise<void> {
  const { db, accountId } = ctx;
  const record = await db.outbox.get([accountId, opId]);
  if (!record || record.status !== 'rejected') return;
  await db.outbox.delete([accountId, opId]);
  // A refused vault.create (VAULT_LIMIT, R101) of a vault the server never had: once the user has
  // seen the refusal, nothing of that vault is left to show, so its record goes too (otherwise it
  // stays listed as an empty vault). Anything else still queued for it keeps it.
  if (record.op.body.type === 'vault.create') {
    const isGone = await db.transaction('rw', [db.vaults, db.opPages, db.outbox], async () => {
      const hasOps = (await db.opPages.where('[accountId+vaultId+firstSeq]').between([accountId, record.vaultId, Dexie.minKey], [accountId, record.vaultId, Dexie.maxKey]).count()) > 0;
      const hasQueued = (await db.outbox.where('[accountId+vaultId]').equals([accountId, record.vaultId]).count()) > 0;
      if (hasOps || hasQueued) return false;
      await db.vaults.delete([accountId, record.vaultId]);
      return true;
    });
    if (isGone) return;
  }
  await rebuildVault(db, accountId, record.vaultId);
}
