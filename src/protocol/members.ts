/**
 * Members and sharing (spec 001 sections 2-6): the requests around the member.* operations of
 * src/protocol/vaults.ts. Membership changes themselves are signed operations in the vault's log;
 * these routes look people up, send invitations with their e-mail, list a vault's members with
 * their public keys, and open airdrop (passwordless) sessions.
 *
 * Paths are relative to `/api`.
 */
import { z } from 'zod';
import { Address, Base64Url, Ed25519Signature, Email, Hex32, Id } from './primitives';
import { MembershipStatus, Operation, PushResult, Role } from './vaults';

/** Invitation rows per request (the form's rows) and the optional message's length. */
export const INVITE_LIMITS = { ROWS_MAX: 20, MESSAGE_MAX: 1_000 } as const;

/**
 * GET /users/lookup?email=: the public keys of the account with that e-mail, so the inviter's
 * device can seal the vault's key ring to it. 404 USER_NOT_FOUND when there is no such account
 * (the form's 'an account is needed' message). Signed-in callers only; rate limited.
 */
export const UserLookupQuery = z.strictObject({ email: Email });
export const UserLookupResponse = z.object({
  userId: Id,
  email: z.string(),
  address: Address,
  publicSigningKey: Hex32,
  publicEncryptionKey: Hex32,
});
export type UserLookupResponse = z.infer<typeof UserLookupResponse>;

/**
 * POST /vaults/{vaultId}/invitations: applies `member.invite` operations of one vault (like a
 * push, answered per operation) and, for each accepted one, e-mails the invitee a link to
 * /invite?membershipId= (with `message`, unencrypted, when given) and adds an in-app
 * notification. The message is not stored. 403 MEMBER_LIMIT when the configured member limit
 * would be passed (nothing applied). A rejected row answers ALREADY_MEMBER when that person
 * already has a live membership.
 */
export const InviteRequest = z.strictObject({
  ops: z.array(Operation).min(1).max(INVITE_LIMITS.ROWS_MAX),
  message: z.string().trim().max(INVITE_LIMITS.MESSAGE_MAX).optional(),
});
export const InviteResponse = z.object({ results: z.array(PushResult) });

/** POST /vaults/{vaultId}/members/{membershipId}/resend (OWNER; PENDING or INVITED): the e-mail again. */
export const MemberParams = z.strictObject({ vaultId: Id, membershipId: Id });

/**
 * A member as GET /vaults/{vaultId}/members lists them (any member not removed may list; a
 * VIEWER does not see PENDING or INVITED members). Public keys let every member compute each
 * other's key fingerprint (src/crypto/fingerprint.ts) and an owner seal rings on rotation.
 */
export const Member = z.object({
  membershipId: Id,
  userId: Id,
  /** null for an airdrop (passwordless) member. */
  email: z.string().nullable(),
  /** The account's profile name, if set. */
  profileName: z.string().nullable(),
  address: Address,
  publicSigningKey: Hex32,
  publicEncryptionKey: Hex32,
  role: Role,
  status: MembershipStatus,
  /** Whether a key ring is sealed to this member (rotations must reseal to exactly these). */
  holdsKeys: z.boolean(),
  isPasswordless: z.boolean(),
  /** Airdrop memberships: when access ends (ms) and the upload allowance in bytes. */
  expiresAt: z.number().nullable(),
  storageAllowance: z.number().nullable(),
  invitedByUserId: Id.nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type Member = z.infer<typeof Member>;
export const MemberListResponse = z.object({ members: z.array(Member) });

/**
 * GET /memberships/{membershipId}: the caller's own membership (the invite and confirm pages),
 * or, for an OWNER of its vault, any membership of it. 404 otherwise.
 */
export const MembershipParams = z.strictObject({ membershipId: Id });
export const MembershipResponse = z.object({
  member: Member,
  vaultId: Id,
  vaultStatus: z.enum(['ACTIVE', 'ARCHIVED', 'DELETED']),
  isPublic: z.boolean(),
  /** Who invited (for 'You have been invited by {email} to their vault.'). */
  invitedByEmail: z.string().nullable(),
});
export type MembershipResponse = z.infer<typeof MembershipResponse>;

/**
 * Airdrop (passwordless) sessions. The link is `/login?wallet={base64url of the wallet's 16-byte
 * phrase entropy}`; the device derives the keys (DESIGN.md section 2) and proves the signing key:
 * POST /auth/wallet/challenge { publicSigningKey } -> { challenge }, then
 * POST /auth/wallet/login { publicSigningKey, challenge, signature } where `signature` signs
 * `{ purpose: 'wallet-login', challenge }` (canonical JSON). The session ends when the last of
 * the account's airdrop memberships does; after that, 410 EXPIRED.
 */
export const WalletChallengeRequest = z.strictObject({ publicSigningKey: Hex32 });
export const WalletChallengeResponse = z.object({ challenge: Base64Url(128) });
export const WalletLoginRequest = z.strictObject({
  publicSigningKey: Hex32,
  challenge: Base64Url(128),
  signature: Ed25519Signature,
});

/**
 * In-app notifications (spec 000 section 3): events addressed to the caller. Membership events
 * name the membership; vault activity (docs/SYNC_SPEC.md R30) names the file, folder, memo or
 * vault by id only, because the server never knows a private vault's names: the client resolves
 * them from its own projection. `fromEmail` is who caused it (null for a passwordless account).
 * `count` is how many events one row stands for (R30 coalescing); `priority` HIGH shows the
 * notice bar until read.
 */
export const NotificationEvent = z.enum([
  'MEMBERSHIP_INVITE',
  'MEMBERSHIP_INVITE_RESEND',
  'MEMBERSHIP_ACCEPT',
  'MEMBERSHIP_REJECT',
  'MEMBERSHIP_REVOKE',
  'MEMBERSHIP_CHANGE_ACCESS',
  'STACK_CREATE',
  'STACK_UPLOAD_REVISION',
  'STACK_MOVE',
  'STACK_UPDATE',
  'STACK_REVOKE',
  'STACK_RESTORE',
  'STACK_DELETE',
  'FOLDER_CREATE',
  'FOLDER_MOVE',
  'FOLDER_UPDATE',
  'FOLDER_REVOKE',
  'FOLDER_RESTORE',
  'VAULT_UPDATE',
  'VAULT_UPDATE_METADATA',
  'VAULT_ARCHIVE',
  'VAULT_RESTORE',
  'VAULT_DELETE',
  'MEMO_CREATE',
  'ADD_REACTION',
  'REMOVE_REACTION',
  'SERIOUS_ISSUE',
  /** Someone signed up with the caller's referral link: 100 MB more permanent storage (R133). */
  'REFERRAL_REWARD',
]);
export type NotificationEvent = z.infer<typeof NotificationEvent>;
export const NotificationStatus = z.enum(['UNREAD', 'READ']);
export type NotificationStatus = z.infer<typeof NotificationStatus>;
export const NotificationObjectType = z.enum(['membership', 'stack', 'folder', 'memo', 'dataroom', 'account']);
export type NotificationObjectType = z.infer<typeof NotificationObjectType>;
export const NotificationPriority = z.enum(['NORMAL', 'HIGH']);
export const Notification = z.object({
  id: Id,
  event: NotificationEvent,
  objectType: NotificationObjectType,
  objectId: Id,
  vaultId: Id.nullable(),
  fromEmail: z.string().nullable(),
  status: NotificationStatus,
  createdAt: z.number(),
  count: z.number().int().positive(),
  priority: NotificationPriority,
});
export type Notification = z.infer<typeof Notification>;
/** GET /notifications: one page of the caller's, newest first, at most NOTIFICATIONS_MAX. */
export const NOTIFICATIONS_MAX = 100;
/**
 * `before` is the `nextCursor` of the previous page ("createdAt.id" of its last row): rows
 * strictly older in (createdAt, id) order. `limit` defaults to NOTIFICATIONS_MAX.
 */
export const NotificationListQuery = z.strictObject({
  before: z
    .string()
    .max(90)
    .regex(/^\d{1,15}\.[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_MAX).optional(),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;
/** `nextCursor` is null on the last page. */
export const NotificationListResponse = z.object({ notifications: z.array(Notification), nextCursor: z.string().nullable() });
export type NotificationListResponse = z.infer<typeof NotificationListResponse>;
/** PATCH /notifications?vaultId=: marks READ the caller's notifications of one vault (all without it). */
export const NotificationReadQuery = z.strictObject({ vaultId: Id.optional() });
/** DELETE /notifications?status=READ: deletes the caller's READ notifications (all without it). */
export const NotificationDeleteQuery = z.strictObject({ status: z.literal('READ').optional() });
/** The PATCH and DELETE notification routes take no body (`{}` tolerated, as some clients send one). */
export const NotificationNoBody = z.strictObject({}).optional();
/** PATCH and DELETE /notifications/{id}: one of the caller's notifications (404 otherwise). */
export const NotificationParams = z.strictObject({ id: Id });
