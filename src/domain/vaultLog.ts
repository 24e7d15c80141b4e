/**
 * The client's judge of a vault's log (DESIGN.md section 3, SYNC_SPEC R50-R52). The server orders
 * operations and checks them, but a device does not take its word: from the vault's creation on,
 * it derives who is a member with which role from the signed member operations it verified, and
 * accepts an operation only when its author was allowed to make it at that point of the log
 * (OPERATION_RULES), the vault's state allowed it, and its sealed fields use keys the log had
 * handed out by then. It also records every key ring an allowed operation handed out, so the ring
 * the device holds is trusted for sealing only when one of those is it: a server that substitutes
 * a ring of its own (to read what is sealed next) is caught.
 *
 * Pure: no I/O, no clock. The state is plain data, saved on the vault record with the cursor.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToBase64Url, utf8ToBytes } from '../crypto/encoding';
import { OPERATION_RULES, operationFieldValues } from '../protocol/operationRules';
import type { MembershipStatus, Operation, Role, SequencedOperation, VaultStatus } from '../protocol/vaults';

/** A membership as the log says, by membership id. */
export interface LogMember {
  /** The member's public signing key (hex). */
  key: string;
  role: Role;
  status: MembershipStatus;
  /** An airdrop membership ends then (ms, the server's receive time); null otherwise. */
  expiresAt: number | null;
  /** A key ring was sealed to the member (private vaults) and not taken away since. */
  holdsKeys: boolean;
}

/**
 * The creator's membership id is made by the server and appears in no operation until one names
 * it (a role change, a revoke, a leave, a rotation's ring for them): until then it is kept under
 * this id, and the first unknown membership id an allowed operation names is the creator's.
 */
const UNBOUND_CREATOR = '@creator';

export interface VaultLogState {
  /** The last seq judged; the next operation must be seq + 1. */
  seq: number;
  isPublic: boolean;
  status: VaultStatus;
  /** Keys in the ring (private vaults): 1 at creation, one more per rotation. */
  keyCount: number;
  /** A key-holding member left: the next rotation is the one the log allows. */
  needsRotation: boolean;
  members: Record<string, LogMember>;
  /** Digest (sealedRingDigest) of every ring an allowed operation handed out -> its key count. */
  rings: Record<string, number>;
  /** The first thing that failed verification; sticky (the log cannot be trusted past it). */
  problem: VaultLogProblem | null;
}

export interface VaultLogProblem {
  seq: number;
  reason: string;
}

/** The digest of a sealed key ring as the log carries it (base64url SHA-256 of its text). */
export function sealedRingDigest(sealedKeys: string): string {
  return bytesToBase64Url(sha256(utf8ToBytes(sealedKeys)));
}

/** A vault nobody has judged yet: its first operation must be its creation. */
export function newVaultLogState(): VaultLogState {
  return { seq: 0, isPublic: false, status: 'ACTIVE', keyCount: 0, needsRotation: false, members: {}, rings: {}, problem: null };
}

/** The key count of `sealedKeys` when an allowed operation handed it out; undefined otherwise. */
export function trustedRingKeyCount(state: VaultLogState, sealedKeys: string): number | undefined {
  return state.rings[sealedRingDigest(sealedKeys)];
}

export type LogVerdict = { isAccepted: true } | { isAccepted: false; reason: string };

const ACCEPTED: LogVerdict = { isAccepted: true };

class Refusal extends Error {}

function refuse(reason: string): never {
  throw new Refusal(reason);
}

/**
 * Judges the next operation of the log (in seq order) and, when accepted, applies its effect on
 * membership and keys to `state` (in place). A refused operation changes nothing but `seq` and
 * `problem`. `isSignatureValid` is the worker's verdict on its signature.
 */
export function judgeOperation(state: VaultLogState, vaultId: string, entry: SequencedOperation, isSignatureValid: boolean): LogVerdict {
  const verdict = judge(state, vaultId, entry, isSignatureValid);
  state.seq = entry.seq;
  if (!verdict.isAccepted && !state.problem) state.problem = { seq: entry.seq, reason: verdict.reason };
  return verdict;
}

function judge(state: VaultLogState, vaultId: string, { seq, receivedAt, op }: SequencedOperation, isSignatureValid: boolean): LogVerdict {
  try {
    if (op.vaultId !== vaultId) refuse('it belongs to another vault');
    if (!isSignatureValid) refuse('its signature does not verify');
    const rule = OPERATION_RULES[op.body.type];
    if (op.body.type === 'vault.create') {
      if (seq !== 1 || state.seq !== 0 || op.objectId !== vaultId) refuse('the vault is created twice or not first');
      state.isPublic = op.body.isPublic;
      if (!state.isPublic) {
        if (!op.body.ownerKeys) refuse('a private vault was created without keys');
        state.keyCount = 1;
        state.rings[sealedRingDigest(op.body.ownerKeys)] = 1;
      }
      state.members[UNBOUND_CREATOR] = { key: op.author, role: 'OWNER', status: 'ACCEPTED', expiresAt: null, holdsKeys: !state.isPublic };
      return ACCEPTED;
    }
    if (state.seq === 0 && seq === 1) refuse('the log does not start with the vault’s creation');
    if (state.status === 'DELETED') refuse('the vault was deleted before it');
    if (state.status === 'ARCHIVED' && !rule.whenArchived) refuse('the vault was archived before it');
    if (rule.access === 'own' || rule.access === 'write') assertAuthorRole(state, op, receivedAt, rule.access);
    assertFieldsUseKnownKeys(state, op);
    applyEffect(state, op);
    return ACCEPTED;
  } catch (error) {
    if (error instanceof Refusal) return { isAccepted: false, reason: error.message };
    throw error;
  }
}

function isEnded(member: LogMember): boolean {
  return member.role === 'REVOKED' || member.status === 'REVOKED' || member.status === 'REJECTED';
}

/** The author's accepted, unexpired membership with a role `access` allows, or a refusal. */
function assertAuthorRole(state: VaultLogState, op: Operation, time: number, access: 'own' | 'write'): void {
  const allowed: readonly Role[] = access === 'own' ? ['OWNER'] : ['OWNER', 'CONTRIBUTOR'];
  for (const member of Object.values(state.members)) {
    if (member.key !== op.author || member.status !== 'ACCEPTED' || isEnded(member)) continue;
    if (member.expiresAt !== null && member.expiresAt < time) refuse('its author’s access had expired');
    if (allowed.includes(member.role)) return;
    refuse(`its author was a ${member.role} and ${op.body.type} needs ${access === 'own' ? 'an OWNER' : 'an OWNER or CONTRIBUTOR'}`);
  }
  refuse('its author was not a member of the vault');
}

/** Sealed fields may only use keys the log has handed out by then (a reordered log fails here). */
function assertFieldsUseKnownKeys(state: VaultLogState, op: Operation): void {
  if (state.isPublic) return;
  for (const field of operationFieldValues(op.body)) {
    if ('key' in field && field.key >= state.keyCount) refuse(`it is sealed under key ${field.key}, which the log had not handed out yet`);
  }
}

/** The membership `id`, binding the creator's when it is the first unknown id named. */
function memberById(state: VaultLogState, id: string): LogMember {
  const known = state.members[id];
  if (known) return known;
  const creator = state.members[UNBOUND_CREATOR];
  if (!creator) refuse('it names a membership the log does not know');
  delete state.members[UNBOUND_CREATOR];
  state.members[id] = creator;
  return creator;
}

function acceptedOwners(state: VaultLogState): number {
  return Object.values(state.members).filter((m) => m.role === 'OWNER' && m.status === 'ACCEPTED' && !isEnded(m)).length;
}

function assertNotLastOwner(state: VaultLogState, target: LogMember): void {
  if (target.role === 'OWNER' && target.status === 'ACCEPTED' && acceptedOwners(state) <= 1) refuse('it takes away the last owner');
}

/** A shared ring (invite, confirm, airdrop): the whole current ring, sealed to one member. */
function recordSharedRing(state: VaultLogState, keys: string | undefined, keyCount: number | undefined): boolean {
  if (state.isPublic) {
    if (keys !== undefined) refuse('a public vault has no keys');
    return false;
  }
  if (keys === undefined || keyCount !== state.keyCount) refuse('it hands out a ring that is not the vault’s current one');
  state.rings[sealedRingDigest(keys)] = keyCount;
  return true;
}

/** A rotation: one key more, sealed to each remaining key holder. */
function recordRotation(state: VaultLogState, rotation: { keyCount: number; sealedKeys: Record<string, string> }): void {
  if (state.isPublic) refuse('a public vault has no keys');
  if (rotation.keyCount !== state.keyCount + 1) refuse(`its ring has ${rotation.keyCount} keys where the vault had ${state.keyCount}`);
  state.keyCount = rotation.keyCount;
  state.needsRotation = false;
  for (const [membershipId, sealed] of Object.entries(rotation.sealedKeys)) {
    const member = memberById(state, membershipId);
    if (isEnded(member)) refuse('it seals the new key to a member who left');
    member.holdsKeys = true;
    state.rings[sealedRingDigest(sealed)] = rotation.keyCount;
  }
}

function applyEffect(state: VaultLogState, op: Operation): void {
  const body = op.body;
  switch (body.type) {
    case 'vault.archive':
      if (state.status !== 'ACTIVE') refuse('the vault was not active');
      state.status = 'ARCHIVED';
      return;
    case 'vault.restore':
      if (state.status !== 'ARCHIVED') refuse('the vault was not archived');
      state.status = 'ACTIVE';
      return;
    case 'vault.delete':
      if (state.status !== 'ARCHIVED') refuse('the vault was not archived');
      state.status = 'DELETED';
      return;
    case 'member.invite': {
      const existing = state.members[op.objectId];
      if (existing && !isEnded(existing)) refuse('it invites a member again');
      if (Object.values(state.members).some((m) => m.key === body.memberKey && !isEnded(m))) refuse('it invites someone who is already a member');
      const holdsKeys = recordSharedRing(state, body.keys, body.keyCount);
      state.members[op.objectId] = { key: body.memberKey, role: body.role, status: 'PENDING', expiresAt: null, holdsKeys };
      return;
    }
    case 'member.airdrop': {
      if (state.members[op.objectId]) refuse('it reuses a membership id');
      const holdsKeys = recordSharedRing(state, body.keys, body.keyCount);
      state.members[op.objectId] = { key: body.memberKey, role: body.role, status: 'ACCEPTED', expiresAt: body.expiresAt, holdsKeys };
      return;
    }
    case 'member.confirm': {
      const target = memberById(state, op.objectId);
      if (target.status !== 'INVITED') refuse('only an invited member awaits confirmation');
      target.holdsKeys = recordSharedRing(state, body.keys, body.keyCount);
      target.status = 'PENDING';
      return;
    }
    case 'member.accept':
    case 'member.reject':
    case 'member.leave': {
      const target = memberById(state, op.objectId);
      if (target.key !== op.author) refuse('only the member can do this');
      if (body.type === 'member.accept') {
        if (target.status !== 'PENDING') refuse('only a pending invitation can be accepted');
        target.status = 'ACCEPTED';
      } else if (body.type === 'member.reject') {
        if (target.status !== 'PENDING' && target.status !== 'INVITED') refuse('only an invitation can be rejected');
        target.status = 'REJECTED';
        target.holdsKeys = false;
      } else {
        if (isEnded(target)) refuse('this membership had ended');
        assertNotLastOwner(state, target);
        if (!state.isPublic && target.holdsKeys) state.needsRotation = true;
        target.status = 'REVOKED';
        target.role = 'REVOKED';
        target.holdsKeys = false;
      }
      return;
    }
    case 'member.changeRole': {
      const target = memberById(state, op.objectId);
      if (isEnded(target)) refuse('this membership had ended');
      if (body.role !== 'OWNER') assertNotLastOwner(state, target);
      target.role = body.role;
      return;
    }
    case 'member.revoke': {
      const target = memberById(state, op.objectId);
      if (isEnded(target)) refuse('this member was already revoked');
      assertNotLastOwner(state, target);
      const heldKeys = target.holdsKeys;
      target.status = 'REVOKED';
      target.role = 'REVOKED';
      target.holdsKeys = false;
      if (body.rotation) recordRotation(state, body.rotation);
      else if (!state.isPublic && heldKeys) refuse('it removes a key holder without a new key');
      return;
    }
    case 'vault.rotateKeys':
      if (op.objectId !== op.vaultId) refuse('a rotation names the vault as its object');
      // Only the rotation a leave asked for (SYNC_SPEC R20): any other would let a writer replace
      // the key everyone seals under.
      if (!state.needsRotation) refuse('no member had left: the log asked for no rotation');
      recordRotation(state, body.rotation);
      return;
    default:
      // Content operations change no membership; their author's role was checked above.
      return;
  }
}

/**
 * `judgeOperation` for the signed-out viewer of a PUBLIC vault (SYNC_SPEC R67). The public area
 * leaves out what a visitor may not see (R53), so its log has gaps where a member's must not: an
 * operation only has to come after the last one judged, and the first must be the vault's
 * creation (seq 1). Members and roles come from the member operations served with it, so an
 * operation by a key that no served, signed invitation made a member with the needed role (a
 * VIEWER, a stranger, someone revoked) is refused, as on a member's device. What a gap can hide
 * is the server's choice of history, which it makes for members too (it orders the log); what it
 * cannot do is make anyone a writer an OWNER did not sign for.
 */
export function judgePublicOperation(state: VaultLogState, vaultId: string, entry: SequencedOperation, isSignatureValid: boolean): LogVerdict {
  let reason: string | null = null;
  if (entry.seq <= state.seq) reason = `the server served operation ${entry.seq} after ${state.seq}`;
  else if (state.seq === 0 && entry.seq !== 1) reason = 'the log does not start with the vault’s creation';
  if (reason === null) return judgeOperation(state, vaultId, entry, isSignatureValid);
  // Out of order: `seq` stays where it was, so what follows is judged against the right place.
  state.problem ??= { seq: entry.seq, reason };
  return { isAccepted: false, reason };
}
