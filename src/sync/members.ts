/**
 * Membership changes on the device (spec 001 sections 3-6; DESIGN.md section 3). Unlike content,
 * member.* operations are never queued offline (docs/decisions.md): only the server's answer
 * says whether an invitation or a revocation happened, so each is signed, pushed at once with
 * POST /vaults/ops (or /vaults/{id}/invitations) and its rejection thrown to the screen. The vault
 * is then pulled and its member list fetched again.
 *
 * Key rotation (a revoke of a member holding keys, or the rotation a leave asked for): the worker
 * adds a fresh key to the held ring, the ring is sealed to every member that holds keys except the
 * removed one, and the operation carries the sealed rings. Until the server takes it, the worker's
 * ring has a key nobody else has; if it is refused, the ring is opened again from the server's
 * copy so nothing is ever sealed under an unshared key.
 */
import type { VaultKeySharingApi } from '../../workers/crypto/CryptoApi';
import { InvalidResponseError, NetworkError } from '../platform/apiClient';
import { ApiError, isErrorCode } from '../protocol/errors';
import { type KeyRotation, type OperationBody, PushResponse, type PushResult, type UnsignedOperation } from '../protocol/vaults';
import type { Operation } from '../protocol/vaults';
import type { MemberRecord } from '../storage/memberStore';
import { fetchMembers } from './memberList';
import { pullAll, refreshVaultList, setHeldKeyCount } from './pull';
import type { SyncContext } from './SyncContext';

/** What a member action throws while the device is offline. */
export const MEMBERS_OFFLINE_MESSAGE = 'You are offline. Members can only be changed while online.';

export class OfflineError extends Error {
  constructor(options?: { cause?: unknown }) {
    super(MEMBERS_OFFLINE_MESSAGE, options);
    this.name = 'OfflineError';
  }
}

/**
 * Runs a member action that needs the server: refuses at once while the browser says it is
 * offline, and turns a request that got no answer into the same OfflineError.
 */
export async function whileOnline<T>(action: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) throw new OfflineError();
  try {
    return await action();
  } catch (error) {
    if (error instanceof NetworkError) throw new OfflineError({ cause: error });
    throw error;
  }
}

/** The crypto worker's sharing half; a port without it (a test fake) cannot change members. */
export function keySharing(ctx: SyncContext): VaultKeySharingApi {
  const { sealVaultKeysFor, rotateVaultKeys, resealOperation } = ctx.crypto;
  if (!sealVaultKeysFor || !rotateVaultKeys || !resealOperation) throw new Error('This crypto port cannot share vault keys.');
  return {
    sealVaultKeysFor: sealVaultKeysFor.bind(ctx.crypto),
    rotateVaultKeys: rotateVaultKeys.bind(ctx.crypto),
    resealOperation: resealOperation.bind(ctx.crypto),
  };
}

/** The server's rejection of one operation as the ApiError screens show. */
export function rejectionError(error: { code: string; message: string }): ApiError {
  return new ApiError(isErrorCode(error.code) ? error.code : 'UNPROCESSABLE', error.message);
}

/** A member operation to sign: `objectId` is the membership id (the vault id for vault.rotateKeys). */
export interface MemberOpInput {
  objectId: string;
  body: OperationBody;
  /** A fixed id (e.g. a re-invitation's membership id is the object, not the op). Default: new. */
  id?: string;
}

export async function signMemberOp(ctx: SyncContext, vaultId: string, input: MemberOpInput): Promise<Operation> {
  const unsigned: UnsignedOperation = {
    id: input.id ?? ctx.newId(),
    vaultId,
    objectId: input.objectId,
    author: ctx.user.publicSigningKey,
    createdAt: ctx.now(),
    body: input.body,
  };
  return ctx.crypto.signOperation(unsigned);
}

/** Throws the first rejection among `results` (answers to `ops`), or an error when one is missing. */
function throwFirstRejection(ops: Operation[], results: PushResult[]): void {
  const byId = new Map(results.map((r) => [r.id, r]));
  for (const op of ops) {
    const result = byId.get(op.id);
    if (!result) throw new InvalidResponseError('/vaults/ops', { cause: new Error(`No answer for operation ${op.id}`) });
    if (result.status === 'rejected') throw rejectionError(result.error);
  }
}

/** Pulls the vault (the list first, so role, status and keys are the server's) and fetches its members. */
export async function syncVaultNow(ctx: SyncContext, vaultId: string): Promise<void> {
  await pullAll(ctx, new Set([vaultId]));
  await fetchMembers(ctx, vaultId).catch((error: unknown) => ctx.log(`Members of vault ${vaultId} not refreshed`, error));
}

/**
 * Signs and pushes member operations of one vault at once (not through the outbox), then syncs
 * the vault. A rejection throws the server's code and message (after the sync, so the screen
 * shows the server's state).
 */
export async function pushMemberOps(ctx: SyncContext, vaultId: string, inputs: MemberOpInput[]): Promise<void> {
  const ops: Operation[] = [];
  for (const input of inputs) ops.push(await signMemberOp(ctx, vaultId, input));
  const { results } = await ctx.api.post('/vaults/ops', { ops }, PushResponse);
  try {
    throwFirstRejection(ops, results);
  } finally {
    await syncVaultNow(ctx, vaultId).catch((error: unknown) => ctx.log(`Vault ${vaultId} not pulled after a member change`, error));
  }
}

/** The vault's record, or Error('Missing vault id.'). */
export async function requireVault(ctx: SyncContext, vaultId: string) {
  const vault = await ctx.db.vaults.get([ctx.accountId, vaultId]);
  if (!vault) throw new Error('Missing vault id.');
  return vault;
}

export async function isPrivateVault(ctx: SyncContext, vaultId: string): Promise<boolean> {
  return !(await requireVault(ctx, vaultId)).isPublic;
}

/** The signed-in user's membership id in the vault (GET /vaults names it). */
export async function ownMembershipId(ctx: SyncContext, vaultId: string): Promise<string> {
  let vault = await requireVault(ctx, vaultId);
  if (!vault.membershipId) {
    await refreshVaultList(ctx);
    vault = await requireVault(ctx, vaultId);
  }
  if (!vault.membershipId) throw new Error('Missing membership id.');
  return vault.membershipId;
}

/**
 * Makes sure the worker holds the vault's current ring as the server has it (GET /vaults reopens
 * a ring whose size differs), before it is sealed to someone or rotated.
 */
export async function refreshRing(ctx: SyncContext, vaultId: string): Promise<void> {
  await refreshVaultList(ctx);
  const vault = await requireVault(ctx, vaultId);
  if (!vault.sealedKeys) throw new Error('NO_VAULT_KEYS');
}

/**
 * Forgets what this session knew of the held ring and opens the server's copy again: after a
 * rotation the server did not take, the worker's newest key is one nobody else holds. Without an
 * answer from the server, the copy GET /vaults last gave (kept on the vault record) is opened.
 */
export async function reopenRingFromServer(ctx: SyncContext, vaultId: string): Promise<void> {
  setHeldKeyCount(ctx, vaultId, undefined);
  try {
    await refreshVaultList(ctx);
    return;
  } catch (error) {
    ctx.log(`Keys of vault ${vaultId} not fetched; reopening the last copy`, error);
  }
  const sealedKeys = (await ctx.db.vaults.get([ctx.accountId, vaultId]))?.sealedKeys;
  if (!sealedKeys) return;
  try {
    const { keyCount } = await ctx.crypto.openVaultKeys(vaultId, sealedKeys);
    setHeldKeyCount(ctx, vaultId, keyCount);
  } catch (error) {
    ctx.log(`Keys of vault ${vaultId} not reopened`, error);
  }
}

/**
 * A fresh key for the vault, sealed to `holders` (every member holding keys who stays, the caller
 * included). The worker's ring grows by one; the caller must push the rotation or reopen the ring.
 */
async function rotateFor(ctx: SyncContext, vaultId: string, holders: MemberRecord[]): Promise<KeyRotation> {
  const sharing = keySharing(ctx);
  const { keyCount } = await sharing.rotateVaultKeys(vaultId);
  setHeldKeyCount(ctx, vaultId, keyCount);
  const sealedKeys: Record<string, string> = {};
  for (const member of holders) sealedKeys[member.membershipId] = (await sharing.sealVaultKeysFor(vaultId, member.publicEncryptionKey)).sealedKeys;
  return { keyCount, sealedKeys };
}

/** Members a rotation must seal the new ring to: those holding keys, minus `leaving`. */
function keyHolders(members: MemberRecord[], leavingMembershipId?: string): MemberRecord[] {
  return members.filter((m) => m.holdsKeys && m.status !== 'REVOKED' && m.status !== 'REJECTED' && m.membershipId !== leavingMembershipId);
}

function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'CONFLICT';
}

/**
 * Rotates the vault's key and pushes the operation `bodyFor(rotation)` makes, with the member list
 * fetched fresh. A refusal reopens the ring from the server's copy; a CONFLICT (the members or the
 * ring changed meanwhile) is tried once more with a new list when `retryOnConflict`.
 */
export async function pushWithRotation(
  ctx: SyncContext,
  vaultId: string,
  objectId: string,
  bodyFor: (rotation: KeyRotation) => OperationBody,
  leavingMembershipId: string | undefined,
  retryOnConflict: boolean,
): Promise<void> {
  await refreshRing(ctx, vaultId);
  const members = await fetchMembers(ctx, vaultId);
  let rotation: KeyRotation;
  try {
    rotation = await rotateFor(ctx, vaultId, keyHolders(members, leavingMembershipId));
  } catch (error) {
    await reopenRingFromServer(ctx, vaultId);
    throw error;
  }
  try {
    await pushMemberOps(ctx, vaultId, [{ objectId, body: bodyFor(rotation) }]);
  } catch (error) {
    await reopenRingFromServer(ctx, vaultId);
    if (retryOnConflict && isConflict(error)) return pushWithRotation(ctx, vaultId, objectId, bodyFor, leavingMembershipId, false);
    throw error;
  }
}

/** Seals the held ring to one person (an invitation or a confirmation); `refreshRing` first. */
export async function sealRingFor(ctx: SyncContext, vaultId: string, publicEncryptionKey: string): Promise<{ keys: string; keyCount: number }> {
  const { sealedKeys, keyCount } = await keySharing(ctx).sealVaultKeysFor(vaultId, publicEncryptionKey);
  return { keys: sealedKeys, keyCount };
}

/** Whether `error` is worth trying again later (no answer, a 5xx, a CONFLICT from a race). */
export function isTransient(error: unknown): boolean {
  if (error instanceof OfflineError || error instanceof NetworkError || error instanceof InvalidResponseError) return true;
  return error instanceof ApiError && (error.status >= 500 || error.status === 429 || error.code === 'CONFLICT');
}

/**
 * Rotations this session tried, by vault and the key count it rotated from, so a refused rotation
 * is not tried again and again (a transient failure clears its mark for the next cycle).
 */
const triedRotations = new WeakMap<SyncContext, Set<string>>();

/**
 * SYNC_SPEC R20: a member left a private vault (GET /vaults says `needsKeyRotation`) and the
 * signed-in user is an accepted OWNER or CONTRIBUTOR: this device makes the new key, seals it to
 * every member holding keys (itself included) and pushes vault.rotateKeys. Content queued
 * meanwhile (held back with KEY_ROTATION_PENDING, R18) is then resealed and pushed (R17).
 * Answers whether a rotation was pushed. Failures are logged, never thrown: sync goes on.
 */
export async function rotateWhereNeeded(ctx: SyncContext): Promise<boolean> {
  let tried = triedRotations.get(ctx);
  if (!tried) triedRotations.set(ctx, (tried = new Set()));
  const vaults = await ctx.db.vaults.where('accountId').equals(ctx.accountId).toArray();
  let rotated = false;
  for (const vault of vaults) {
    const mayRotate = vault.role === 'OWNER' || vault.role === 'CONTRIBUTOR';
    if (!vault.needsKeyRotation || vault.isPublic || vault.membershipStatus !== 'ACCEPTED' || !mayRotate || vault.status === 'DELETED') continue;
    const mark = `${vault.vaultId}:${vault.keyCount ?? 0}`;
    if (tried.has(mark)) continue;
    tried.add(mark);
    try {
      await pushWithRotation(ctx, vault.vaultId, vault.vaultId, (rotation) => ({ type: 'vault.rotateKeys', rotation }), undefined, false);
      rotated = true;
    } catch (error) {
      // Another device may have rotated first (CONFLICT): the next GET /vaults tells.
      if (isTransient(error)) tried.delete(mark);
      ctx.log(`Key of vault ${vault.vaultId} not rotated`, error);
    }
  }
  return rotated;
}
