/**
 * Members and sharing around the member.* operations (spec 001 sections 2-6): looking up whom to
 * invite, invitations with their e-mail, the member list, one membership, and the in-app
 * notification of a resent invitation. Membership changes themselves are operations (OperationService, memberOps):
 * this service only reads, sends mail, and writes notifications.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../src/protocol/errors';
import {
  type Member,
  type MembershipResponse,
  type UserLookupResponse,
} from '../../src/protocol/members';
import type { Operation, PushResult } from '../../src/protocol/vaults';
import { fromDbBool } from '../db/dbBool';
import { invitationMail } from '../mail/messages';
import type { MailPort } from '../mail/MailPort';
import type { Clock } from './Clock';
import { randomId } from './tokens';
import { insertNotification } from './ops/memberOps';
import { countLiveMembers, type LimitsPort, MEMBER_LIMIT_MESSAGE } from './ops/planLimits';
import type { NotifiedRow } from './ops/OpContext';
import type { NotificationService } from './NotificationService';
import type { Author, OperationService } from './OperationService';
import type { User } from './UserService';
import { requireAccess } from './vaultAccess';
import { type Db, findMembershipById, isRemoved, type Membership, REMOVED_STATUSES, toMembership } from './vaultRows';

/**
 * Invitation e-mails allowed in any hour (docs/decisions.md): per invitee of a vault, and per
 * vault. Invitations and resends count alike; a request past either limit is answered 429
 * RATE_LIMITED and changes nothing.
 */
export const INVITATION_MAIL_LIMITS = { perInvitee: 3, perVault: 50, windowMs: 60 * 60 * 1000 } as const;

export class MemberService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly operations: OperationService,
    private readonly mailer: MailPort,
    private readonly publicUrl: string,
    private readonly log: FastifyBaseLogger,
    /** The vault owner's plan gives the member limit (SYNC_SPEC R102). */
    private readonly limits: LimitsPort,
    private readonly notifications?: Pick<NotificationService, 'deliver'>,
  ) {}

  /** An account that can be invited: it has a password (airdrop accounts are never found). */
  async lookup(email: string): Promise<UserLookupResponse> {
    const row = await this.db
      .selectFrom('users')
      .select(['id', 'email', 'address', 'public_signing_key', 'public_encryption_key'])
      .where('email', '=', email)
      .where('passwordless', '=', 0)
      // An unverified sign-up may be someone squatting the address (it is replaced by the next
      // sign-up for it, R57): nobody is shown it, nor seals a vault's keys to it.
      .where('email_verified', '=', 1)
      .executeTakeFirst();
    if (!row) throw new ApiError('USER_NOT_FOUND', 'No account uses this e-mail');
    return {
      userId: row.id,
      email: row.email,
      address: row.address,
      publicSigningKey: row.public_signing_key,
      publicEncryptionKey: row.public_encryption_key,
    };
  }

  /**
   * Applies member.invite operations of one vault as a push (per-operation answers, the usual
   * ordering and pokes) after checking, with nothing applied on failure, that each is an
   * invitation to this vault, that the caller owns it, and that the member limit holds. Each
   * accepted invitation is e-mailed with `message`, which is not stored.
   */
  async invite(inviter: User, vaultId: string, ops: Operation[], message: string | undefined): Promise<PushResult[]> {
    const stray = ops.find((op) => op.body.type !== 'member.invite' || op.vaultId !== vaultId);
    if (stray) throw new ApiError('VALIDATION_FAILED', `Operation ${stray.id} is not an invitation to this vault`);
    const { vault } = await requireAccess(this.db, vaultId, inviter.id, 'own', this.clock.now());
    // The whole request is refused up front (403, nothing applied), so the form opens the upgrade
    // dialog; each invitation's own transaction checks again (R102) against concurrent ones.
    await this.limits.assertFeature?.(vault.ownerUserId, 'members');
    const { members: memberLimit } = await this.limits.limitsOf(vault.ownerUserId);
    if (memberLimit !== null && (await countLiveMembers(this.db, vaultId)) + (await this.countNewcomers(vaultId, ops)) > memberLimit) {
      throw new ApiError('MEMBER_LIMIT', MEMBER_LIMIT_MESSAGE);
    }
    // The signed invitation names the invitee by key only (R55): the address comes from the account.
    const invitees = await this.inviteesByKey(ops.flatMap((op) => (op.body.type === 'member.invite' ? [op.body.memberKey] : [])));
    await this.assertMailRoom(
      this.db,
      vaultId,
      ops.flatMap((op) => (op.body.type === 'member.invite' && invitees.has(op.body.memberKey) ? [invitees.get(op.body.memberKey)!.id] : [])),
    );
    const author: Author = { id: inviter.id, publicSigningKey: inviter.publicSigningKey };
    const results = await this.operations.push(author, ops, { invitations: true });
    for (const [i, result] of results.entries()) {
      const op = ops[i];
      if (result.status !== 'accepted' || op?.body.type !== 'member.invite') continue;
      const invitee = invitees.get(op.body.memberKey);
      // A concurrent request may have taken the last slots since the check above: the invitation
      // stands (log and notification), only its e-mail is left out, so the limit always holds.
      if (invitee === undefined || !(await this.claimMailSlot(vaultId, invitee.id).then(() => true, skipWhenRateLimited))) {
        this.log.warn({ vaultId }, 'invitation e-mail left out: hourly limit reached');
        continue;
      }
      await this.sendInvitation(invitee.email, inviter.email, op.objectId, message, false);
    }
    return results;
  }

  /** The invitation e-mail again, for an invitation not answered yet (OWNER). */
  async resend(caller: User, vaultId: string, membershipId: string): Promise<void> {
    const { vault } = await requireAccess(this.db, vaultId, caller.id, 'own', this.clock.now());
    const target = await findMembershipById(this.db, vaultId, membershipId);
    if (!target) throw new ApiError('NOT_FOUND', 'Membership not found');
    if (target.status !== 'PENDING' && target.status !== 'INVITED') throw new ApiError('CONFLICT', 'Only an invitation not answered yet can be sent again');
    const invitee = await this.db.selectFrom('users').select(['email', 'passwordless']).where('id', '=', target.userId).executeTakeFirstOrThrow();
    if (fromDbBool(invitee.passwordless)) throw new ApiError('CONFLICT', 'An airdrop member has no e-mail');
    await this.claimMailSlot(vaultId, target.userId);
    const notified: NotifiedRow[] = [];
    await insertNotification({ trx: this.db, now: this.clock.now(), userId: caller.id, vault, notified }, target.userId, 'MEMBERSHIP_INVITE_RESEND', target.id);
    await this.notifications?.deliver(notified);
    await this.sendInvitation(invitee.email, caller.email, target.id, undefined, true);
  }

  /**
   * The vault's members for any member not removed. Only accepted owners and contributors see
   * invitations not accepted yet (spec 001 section 6: 'Viewers do not see pending members');
   * everyone sees their own membership.
   */
  async list(userId: string, vaultId: string): Promise<Member[]> {
    const { membership } = await requireAccess(this.db, vaultId, userId, 'read', this.clock.now());
    const seesInvitations = membership.status === 'ACCEPTED' && (membership.role === 'OWNER' || membership.role === 'CONTRIBUTOR');
    const members = await this.members(membershipsOf(this.db).where('m.vault_id', '=', vaultId));
    return members.filter((m) => seesInvitations || m.userId === userId || (m.status !== 'PENDING' && m.status !== 'INVITED'));
  }

  /** The caller's own membership (any status), or any membership of a vault the caller owns; 404 otherwise. */
  async membership(userId: string, membershipId: string): Promise<MembershipResponse> {
    const row = await this.db.selectFrom('memberships').selectAll().where('id', '=', membershipId).executeTakeFirst();
    const target = row ? toMembership(row) : null;
    const allowed = target !== null && (target.userId === userId || (await this.ownsVault(userId, target.vaultId)));
    if (!target || !allowed) throw new ApiError('NOT_FOUND', 'Membership not found');
    const [member] = await this.members(membershipsOf(this.db).where('m.id', '=', membershipId));
    if (!member) throw new ApiError('NOT_FOUND', 'Membership not found');
    const vault = await this.db.selectFrom('vaults').select(['status', 'is_public']).where('id', '=', target.vaultId).executeTakeFirstOrThrow();
    const inviter = target.invitedByUserId
      ? await this.db.selectFrom('users').select(['email', 'passwordless']).where('id', '=', target.invitedByUserId).executeTakeFirst()
      : undefined;
    return {
      member,
      vaultId: target.vaultId,
      vaultStatus: vault.status === 'ARCHIVED' || vault.status === 'DELETED' ? vault.status : 'ACTIVE',
      isPublic: fromDbBool(vault.is_public),
      invitedByEmail: inviter && !fromDbBool(inviter.passwordless) ? inviter.email : null,
    };
  }

  /** Account ids of the invitations' e-mails (accounts with a password; others are refused by the push). */
  /**
   * 429 RATE_LIMITED unless one more e-mail to each of `inviteeIds` (one per entry) keeps the
   * vault within INVITATION_MAIL_LIMITS for the last hour.
   */
  private async assertMailRoom(db: Db, vaultId: string, inviteeIds: string[]): Promise<void> {
    if (inviteeIds.length === 0) return;
    const since = this.clock.now() - INVITATION_MAIL_LIMITS.windowMs;
    const sent = await db.selectFrom('invitation_mails').select('invitee_user_id').where('vault_id', '=', vaultId).where('sent_at', '>', since).execute();
    if (sent.length + inviteeIds.length > INVITATION_MAIL_LIMITS.perVault) {
      throw new ApiError(
        'RATE_LIMITED',
        `This vault has sent ${INVITATION_MAIL_LIMITS.perVault} invitation e-mails in the last hour, the most allowed. Please try again later.`,
      );
    }
    for (const inviteeId of new Set(inviteeIds)) {
      const toInvitee = sent.filter((row) => row.invitee_user_id === inviteeId).length + inviteeIds.filter((id) => id === inviteeId).length;
      if (toInvitee > INVITATION_MAIL_LIMITS.perInvitee) {
        throw new ApiError(
          'RATE_LIMITED',
          `This person has been sent ${INVITATION_MAIL_LIMITS.perInvitee} invitation e-mails for this vault in the last hour, the most allowed. Please try again later.`,
        );
      }
    }
  }

  /**
   * Records one e-mail to `inviteeId`, or refuses it (429 RATE_LIMITED, nothing written) past the
   * limits, under the vault row's lock so two processes never both take the last slot.
   */
  private async claimMailSlot(vaultId: string, inviteeId: string): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('vaults').set((eb) => ({ head_seq: eb.ref('head_seq') })).where('id', '=', vaultId).execute();
      await this.assertMailRoom(trx, vaultId, [inviteeId]);
      await trx.deleteFrom('invitation_mails').where('vault_id', '=', vaultId).where('sent_at', '<=', now - INVITATION_MAIL_LIMITS.windowMs).execute();
      await trx.insertInto('invitation_mails').values({ id: randomId(), vault_id: vaultId, invitee_user_id: inviteeId, sent_at: now }).execute();
    });
  }

  /**
   * The people (by signing key) the invitations would add: someone with a live membership here is
   * answered ALREADY_MEMBER and adds nobody, so at the limit the form still says 'This person has
   * already been invited.' rather than the upgrade dialog.
   */
  private async countNewcomers(vaultId: string, ops: Operation[]): Promise<number> {
    const keys = [...new Set(ops.flatMap((op) => (op.body.type === 'member.invite' ? [op.body.memberKey] : [])))];
    if (keys.length === 0) return 0;
    const live = await this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('u.public_signing_key')
      .where('m.vault_id', '=', vaultId)
      .where('m.status', 'not in', REMOVED_STATUSES)
      .where('u.public_signing_key', 'in', keys)
      .execute();
    return keys.length - new Set(live.map((row) => row.public_signing_key)).size;
  }

  /**
   * The id and e-mail of each account with a password among `keys` (at most
   * INVITE_LIMITS.ROWS_MAX). A signing key names one account: the address, unique, is derived from it.
   */
  private async inviteesByKey(keys: string[]): Promise<Map<string, { id: string; email: string }>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'public_signing_key', 'email'])
      .where('public_signing_key', 'in', [...new Set(keys)])
      .where('passwordless', '=', 0)
      .execute();
    return new Map(rows.map((row) => [row.public_signing_key, { id: row.id, email: row.email }]));
  }

  private async ownsVault(userId: string, vaultId: string): Promise<boolean> {
    const own = await this.db
      .selectFrom('memberships')
      .select('id')
      .where('vault_id', '=', vaultId)
      .where('user_id', '=', userId)
      .where('role', '=', 'OWNER')
      .where('status', '=', 'ACCEPTED')
      .executeTakeFirst();
    return own !== undefined;
  }

  /** Members of the memberships `query` selects, with their accounts' public details. */
  private async members(query: MembershipQuery): Promise<Member[]> {
    const rows = await query
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .selectAll('m')
      .select(['u.email', 'u.name as profile_name', 'u.address', 'u.public_signing_key', 'u.public_encryption_key', 'u.passwordless'])
      .orderBy('m.created_at')
      .orderBy('m.id')
      .execute();
    return rows.map((row) => toMember(toMembership(row), row));
  }

  private async sendInvitation(to: string, inviterEmail: string, membershipId: string, message: string | undefined, resent: boolean): Promise<void> {
    const link = `${this.publicUrl}/invite?membershipId=${encodeURIComponent(membershipId)}`;
    try {
      await this.mailer.send(invitationMail({ to, inviterEmail, link, message, resent }));
    } catch (error) {
      // The invitation stands (it is in the vault's log and the invitee's notifications); the
      // owner can resend the e-mail.
      this.log.error({ err: error }, 'invitation e-mail failed');
    }
  }
}

/** Turns a RATE_LIMITED refusal into `false`; rethrows anything else. */
function skipWhenRateLimited(error: unknown): false {
  if (error instanceof ApiError && error.code === 'RATE_LIMITED') return false;
  throw error;
}

/** `db.selectFrom('memberships as m')` with conditions. */
type MembershipQuery = ReturnType<typeof membershipsOf>;
function membershipsOf(db: Db) {
  return db.selectFrom('memberships as m');
}

function toMember(
  membership: Membership,
  account: { email: string; profile_name: string | null; address: string; public_signing_key: string; public_encryption_key: string; passwordless: number },
): Member {
  const passwordless = fromDbBool(account.passwordless);
  return {
    membershipId: membership.id,
    userId: membership.userId,
    email: passwordless ? null : account.email,
    profileName: account.profile_name,
    address: account.address,
    publicSigningKey: account.public_signing_key,
    publicEncryptionKey: account.public_encryption_key,
    role: membership.role,
    status: membership.status,
    holdsKeys: membership.keys !== null && !isRemoved(membership),
    isPasswordless: passwordless,
    expiresAt: membership.expiresAt,
    storageAllowance: membership.storageAllowance,
    invitedByUserId: membership.invitedByUserId,
    createdAt: membership.createdAt,
    updatedAt: membership.updatedAt,
  };
}
