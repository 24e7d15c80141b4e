/**
 * member.* operations and vault.rotateKeys (spec 001 sections 3-6, DESIGN.md section 3). The
 * caller has checked the author's access level (ACCESS_FOR in OperationService) and the vault's
 * state; these rules check the target membership's state, the key ring's size, and that a vault
 * always keeps an accepted owner. `op.objectId` is the membership id (the vault id for
 * vault.rotateKeys). In-app notifications are written in the same transaction, so an event and
 * its notification exist together or not at all.
 */
import { insertNotificationRow } from '../notificationRows';
import type { NotificationEvent } from '../../../src/protocol/members';
import { ApiError } from '../../../src/protocol/errors';
import type { KeyRotation, MembershipStatus, OperationBody, Role } from '../../../src/protocol/vaults';
import { type Db, findMembership, findMembershipById, isRemoved, type Membership, REMOVED_STATUSES, toMembership, type Vault } from '../vaultRows';
import { applyAirdropOp } from './airdropOps';
import { assertMayOwnVaults } from './passwordlessRules';
import { assertRing } from './ringRules';
import { freeBlobs, type NotifiedRow, type VaultOpContext } from './OpContext';

type Body<T extends OperationBody['type']> = Extract<OperationBody, { type: T }>;
export type MemberOpBody = Body<
  | 'member.invite'
  | 'member.confirm'
  | 'member.accept'
  | 'member.reject'
  | 'member.changeRole'
  | 'member.revoke'
  | 'member.leave'
  | 'member.airdrop'
  | 'vault.rotateKeys'
>;

export function isMemberOp(body: OperationBody): body is MemberOpBody {
  return body.type.startsWith('member.') || body.type === 'vault.rotateKeys';
}

export async function applyMemberOp(ctx: VaultOpContext, body: MemberOpBody): Promise<void> {
  switch (body.type) {
    case 'member.invite':
      return invite(ctx, body);
    case 'member.airdrop':
      return applyAirdropOp(ctx, body);
    case 'vault.rotateKeys':
      if (ctx.op.objectId !== ctx.vault.id) throw new ApiError('INVALID_OPERATION', 'vault.rotateKeys names the vault as its object');
      if (ctx.vault.isPublic) throw new ApiError('VALIDATION_FAILED', 'A public vault has no keys');
      await assertRotationAsked(ctx);
      return rotate(ctx, body.rotation, null);
    default:
      return changeMembership(ctx, body, await targetOf(ctx));
  }
}

async function changeMembership(ctx: VaultOpContext, body: MemberOpBody, target: Membership): Promise<void> {
  const { vault } = ctx;
  switch (body.type) {
    case 'member.confirm':
      if (target.status !== 'INVITED') throw new ApiError('INVALID_OPERATION', 'Only an invited member awaits confirmation');
      assertRing(vault, body.keys, body.keyCount);
      return update(ctx, target, { status: 'PENDING', keys: body.keys ?? null });
    case 'member.accept':
      assertOwnMembership(ctx, target);
      if (target.status !== 'PENDING') throw new ApiError('INVALID_OPERATION', 'Only a pending invitation can be accepted');
      await update(ctx, target, { status: 'ACCEPTED' });
      return notifyInviter(ctx, target, 'MEMBERSHIP_ACCEPT');
    case 'member.reject':
      assertOwnMembership(ctx, target);
      if (target.status !== 'PENDING' && target.status !== 'INVITED') throw new ApiError('INVALID_OPERATION', 'Only an invitation can be rejected');
      await update(ctx, target, { status: 'REJECTED', keys: null });
      return notifyInviter(ctx, target, 'MEMBERSHIP_REJECT');
    case 'member.changeRole':
      if (isRemoved(target)) throw new ApiError('INVALID_OPERATION', 'This membership has ended');
      if (body.role !== 'OWNER') await assertNotLastOwner(ctx.trx, target, 'A vault needs an owner: make someone else owner first');
      // An airdrop guest stays a guest (spec 001 section 5: the OWNER option is hidden for links).
      if (body.role === 'OWNER') await assertMayOwnVaults(ctx.trx, target.userId, 'A member from an airdrop link cannot be made owner');
      await update(ctx, target, { role: body.role });
      // A VIEWER commits no file operation: what they were uploading can never land (R68).
      if (body.role === 'VIEWER') await releaseUploadsOf(ctx, target);
      return notifyMember(ctx, target, 'MEMBERSHIP_CHANGE_ACCESS');
    case 'member.revoke':
      // Its rotation included: only an owner takes someone's access and keys away (R58).
      if (!(await authorHasRole(ctx, ['OWNER']))) throw new ApiError('FORBIDDEN', 'Only an owner may revoke a member');
      if (target.status === 'REVOKED' || target.role === 'REVOKED') throw new ApiError('INVALID_OPERATION', 'This member is already revoked');
      await assertNotLastOwner(ctx.trx, target, 'A vault needs an owner: make someone else owner first');
      await update(ctx, target, { status: 'REVOKED', role: 'REVOKED', keys: null });
      await releaseUploadsOf(ctx, target);
      // The member held the key ring: everyone else gets a new key they never had.
      if (body.rotation) {
        if (vault.isPublic) throw new ApiError('VALIDATION_FAILED', 'A public vault has no keys');
        await rotate(ctx, body.rotation, target.id);
      } else if (!vault.isPublic && target.keys !== null) {
        throw new ApiError('CONFLICT', 'Revoking a member who holds the vault key needs a key rotation');
      }
      return notifyMember(ctx, target, 'MEMBERSHIP_REVOKE');
    case 'member.leave':
      assertOwnMembership(ctx, target);
      await assertNotLastOwner(ctx.trx, target, 'You are the last owner of this vault: make someone else owner first');
      await update(ctx, target, { status: 'REVOKED', role: 'REVOKED', keys: null });
      await releaseUploadsOf(ctx, target);
      // The leaver must not make the new key: the next owner or contributor device does.
      if (!vault.isPublic && target.keys !== null) {
        await ctx.trx.updateTable('vaults').set({ needs_rotation: 1 }).where('id', '=', vault.id).execute();
      }
      return;
    default:
      throw new Error(`Not a membership change: ${body.type}`);
  }
}

/**
 * Deletes the uploads `target` started in the vault and never committed (SYNC_SPEC R68): once
 * their membership has ended no file operation of theirs can name them, yet each reservation
 * kept counting against the vault owner's storage until it expired, days later. Their chunk files
 * go after the commit (freeBlobs), so a refused revoke or leave loses nothing.
 */
async function releaseUploadsOf(ctx: VaultOpContext, target: Membership): Promise<void> {
  const reserved = await ctx.trx
    .selectFrom('blobs')
    .select('id')
    .where('vault_id', '=', ctx.vault.id)
    .where('uploader_user_id', '=', target.userId)
    .where('status', '=', 'reserved')
    .execute();
  await freeBlobs(ctx, ctx.vault.id, reserved.map((b) => b.id));
}

/**
 * member.invite: an existing account with a password, named by its signing key (the one the
 * inviter looked up by e-mail), so the ring is sealed to that person. The e-mail stays out of the
 * signed operation, which every member pulls (SYNC_SPEC R55): one that carries it is refused.
 */
async function invite(ctx: VaultOpContext, body: Body<'member.invite'>): Promise<void> {
  const { trx, vault, op, now } = ctx;
  // Invitations signed before issue 18 carried the e-mail (R55): an imported one is history.
  if (body.email !== undefined && !ctx.importing) {
    throw new ApiError('VALIDATION_FAILED', 'An invitation names the invitee by key only: leave the e-mail out of the operation');
  }
  const invitee = await trx
    .selectFrom('users')
    .select(['id'])
    .where('public_signing_key', '=', body.memberKey)
    .where('passwordless', '=', 0)
    // Never an unverified sign-up: it may be a squatter about to be replaced (R57). An import
    // names invitees who may have no account here yet: their key's placeholder (R92) stands in.
    .where((eb) => (ctx.importing ? eb.or([eb('email_verified', '=', 1), eb('opaque_record', '=', '')]) : eb('email_verified', '=', 1)))
    .executeTakeFirst();
  if (!invitee) throw new ApiError('USER_NOT_FOUND', 'No account has this key: look the person up again');
  assertRing(vault, body.keys, body.keyCount);
  const existing = await trx.selectFrom('memberships').selectAll().where('vault_id', '=', vault.id).where('user_id', '=', invitee.id).executeTakeFirst();
  const fields = { role: body.role, status: 'PENDING', keys: body.keys ?? null, invited_by_user_id: ctx.userId, updated_at: now };
  if (existing) {
    const membership = toMembership(existing);
    // Someone who rejected or was revoked is invited again under the membership id they had.
    if (!(membership.status === 'REJECTED' || membership.status === 'REVOKED') || membership.id !== op.objectId) {
      throw new ApiError('ALREADY_MEMBER', 'This person has already been invited.');
    }
    await trx.updateTable('memberships').set(fields).where('id', '=', membership.id).execute();
  } else {
    await trx
      .insertInto('memberships')
      .values({ id: op.objectId, vault_id: vault.id, user_id: invitee.id, created_at: now, ...fields })
      .execute();
  }
  await insertNotification(ctx, invitee.id, 'MEMBERSHIP_INVITE', op.objectId);
}

/**
 * Appends one key to the ring: `rotation` must have exactly one key more than the vault and a
 * ring for exactly the members that hold keys, except `removedId` (revoked in this operation).
 * Clears a pending rotation.
 */
async function rotate(ctx: VaultOpContext, rotation: KeyRotation, removedId: string | null): Promise<void> {
  const { trx, vault, now } = ctx;
  if (rotation.keyCount !== vault.keyCount + 1) {
    throw new ApiError('CONFLICT', `The rotated ring must have ${vault.keyCount + 1} keys (the vault has ${vault.keyCount}): fetch the vault again`);
  }
  const holders = await trx
    .selectFrom('memberships')
    .select('id')
    .where('vault_id', '=', vault.id)
    .where('status', 'not in', REMOVED_STATUSES)
    .where('role', '!=', 'REVOKED')
    .where('keys', 'is not', null)
    .execute();
  const expected = holders.map((h) => h.id).filter((id) => id !== removedId).sort();
  const given = Object.keys(rotation.sealedKeys).sort();
  if (expected.length !== given.length || expected.some((id, i) => id !== given[i])) {
    throw new ApiError('CONFLICT', 'The new key must be sealed to exactly the members who hold keys: fetch the member list again');
  }
  for (const [membershipId, keys] of Object.entries(rotation.sealedKeys)) {
    await trx.updateTable('memberships').set({ keys, updated_at: now }).where('id', '=', membershipId).execute();
  }
  await trx.updateTable('vaults').set({ key_count: rotation.keyCount, needs_rotation: 0 }).where('id', '=', vault.id).execute();
}

/**
 * A rotation on its own is accepted only when the vault asks for one (a key holder left:
 * `needs_rotation`, SYNC_SPEC R18/R20), and only from an accepted OWNER or CONTRIBUTOR. Any other
 * rotation would let a writer hand the ring to whoever they like and leave the others on a key
 * that every later write is refused under (STALE_VAULT_KEY), owners included. A revoke's rotation
 * travels inside member.revoke, which only an OWNER may push.
 */
async function assertRotationAsked(ctx: VaultOpContext): Promise<void> {
  if (!(await authorHasRole(ctx, ['OWNER', 'CONTRIBUTOR']))) throw new ApiError('FORBIDDEN', 'Only an owner or contributor may rotate the vault key');
  if (!ctx.vault.needsRotation) {
    throw new ApiError('INVALID_OPERATION', 'The vault key is rotated only after a member holding it leaves (or their account is deleted); this vault needs no rotation');
  }
}

/**
 * Whether the author's membership is ACCEPTED in one of `roles`. The dispatcher's access table
 * checks this too; key changes check it again here so the rule stays beside the key ring's code.
 */
async function authorHasRole(ctx: VaultOpContext, roles: readonly Role[]): Promise<boolean> {
  const author = await findMembership(ctx.trx, ctx.vault.id, ctx.userId);
  return author !== null && author.status === 'ACCEPTED' && !isRemoved(author) && roles.includes(author.role);
}

async function targetOf(ctx: VaultOpContext): Promise<Membership> {
  const target = await findMembershipById(ctx.trx, ctx.vault.id, ctx.op.objectId);
  if (!target) throw new ApiError('NOT_FOUND', 'Membership not found');
  return target;
}

function assertOwnMembership(ctx: VaultOpContext, target: Membership): void {
  if (target.userId !== ctx.userId) throw new ApiError('FORBIDDEN', 'Only the member can do this');
}

/** Refuses to take the last accepted owner's ownership away. */
async function assertNotLastOwner(trx: Db, target: Membership, message: string): Promise<void> {
  if (target.role !== 'OWNER' || target.status !== 'ACCEPTED') return;
  const owners = await trx
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('vault_id', '=', target.vaultId)
    .where('role', '=', 'OWNER')
    .where('status', '=', 'ACCEPTED')
    .executeTakeFirstOrThrow();
  if (Number(owners.n) <= 1) throw new ApiError('INVALID_OPERATION', message);
}

async function update(
  ctx: VaultOpContext,
  target: Membership,
  set: { status?: MembershipStatus; role?: Role; keys?: string | null },
): Promise<void> {
  await ctx.trx.updateTable('memberships').set({ ...set, updated_at: ctx.now }).where('id', '=', target.id).execute();
}

/** Tells the member what an owner did to their membership (not when they did it themselves). */
async function notifyMember(ctx: VaultOpContext, target: Membership, event: NotificationEvent): Promise<void> {
  if (target.userId !== ctx.userId) await insertNotification(ctx, target.userId, event, target.id);
}

/** Tells whoever invited the member that they answered. */
async function notifyInviter(ctx: VaultOpContext, target: Membership, event: NotificationEvent): Promise<void> {
  if (target.invitedByUserId !== null) await insertNotification(ctx, target.invitedByUserId, event, target.id);
}

export async function insertNotification(
  ctx: { trx: Db; now: number; userId: string; vault: { id: string }; notified?: NotifiedRow[]; importing?: boolean },
  recipientId: string,
  event: NotificationEvent,
  membershipId: string,
): Promise<void> {
  // An imported operation happened on another server, long ago maybe: nobody is told again (R92).
  if (ctx.importing) return;
  const notified = await insertNotificationRow(ctx.trx, {
    recipientId,
    vaultId: ctx.vault.id,
    event,
    objectType: 'membership',
    objectId: membershipId,
    fromUserId: ctx.userId,
    now: ctx.now,
  });
  ctx.notified?.push(notified);
}
