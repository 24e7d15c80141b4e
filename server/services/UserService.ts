import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { type AccountUser, MfaType, ThemeMode } from '../../src/protocol/auth';
import { ApiError } from '../../src/protocol/errors';
import type { Database, UsersTable } from '../db/Database';
import { fromDbBool, toDbBool } from '../db/dbBool';
import { isUniqueViolation } from '../db/isUniqueViolation';
import type { Clock } from './Clock';
import { randomId, randomToken } from './tokens';

/** An SMS number waiting for its code before two-factor is switched to SMS. */
export interface PendingPhone {
  phoneNumber: string;
  codeHash: string;
  expiresAt: number;
  attempts: number;
}

/** A user as the services see it. Only this module reads or writes `users` rows. */
export interface User {
  id: string;
  email: string;
  emailVerified: boolean;
  opaqueRecord: string;
  encBackupPhrase: string;
  publicSigningKey: string;
  publicEncryptionKey: string;
  address: string;
  name: string | null;
  photo: string | null;
  mode: ThemeMode;
  notifications: boolean;
  notifyOnUpload: boolean;
  onboarding: boolean;
  mfaType: MfaType | null;
  totpSecret: string | null;
  pendingTotpSecret: string | null;
  totpDevice: string | null;
  totpLastStep: number | null;
  phoneNumber: string | null;
  pendingPhone: PendingPhone | null;
  passwordless: boolean;
  referralId: string;
  referrerId: string | null;
  createdAt: number;
  updatedAt: number;
}

export type UserPatch = Partial<
  Pick<
    User,
    | 'emailVerified'
    | 'opaqueRecord'
    | 'encBackupPhrase'
    | 'name'
    | 'photo'
    | 'mode'
    | 'notifications'
    | 'notifyOnUpload'
    | 'onboarding'
    | 'mfaType'
    | 'totpSecret'
    | 'pendingTotpSecret'
    | 'totpDevice'
    | 'totpLastStep'
    | 'phoneNumber'
    | 'pendingPhone'
  >
>;

export interface NewUser {
  email: string;
  opaqueRecord: string;
  encBackupPhrase: string;
  publicSigningKey: string;
  publicEncryptionKey: string;
  address: string;
  referrerId: string | null;
}

/** The two-factor columns of an account without a second factor: a new one, or one reset by the admin command. */
export const NO_TWO_FACTOR = {
  mfa_type: null,
  totp_secret: null,
  pending_totp_secret: null,
  totp_device: null,
  totp_last_step: null,
  phone_number: null,
  pending_phone: null,
  pending_phone_code_hash: null,
  pending_phone_expires_at: null,
  pending_phone_attempts: 0,
} as const;

/**
 * Reads and writes accounts. Maps `users` rows to `User` and `User` to the protocol's
 * `AccountUser`, so no other code touches column names or 0/1 booleans.
 */
export class UserService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async findById(id: string): Promise<User | null> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  /**
   * The account with a password registered under `email` (normalised already: the protocol's
   * Email schema lower-cases and trims). Passwordless (airdrop) accounts are never found by
   * e-mail, so login, recovery, sign-up and member look-ups cannot reach them.
   */
  async findByEmail(email: string): Promise<User | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .where('passwordless', '=', toDbBool(false))
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  /** The passwordless (airdrop) account of a wallet, for the wallet login. */
  async findPasswordlessBySigningKey(publicSigningKey: string): Promise<User | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('public_signing_key', '=', publicSigningKey)
      .where('passwordless', '=', toDbBool(true))
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findByAddress(address: string): Promise<User | null> {
    const row = await this.db.selectFrom('users').selectAll().where('address', '=', address).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  /**
   * The account holding these keys (by signing key or by its address), whatever its kind: a
   * phrase has at most one account on a server (SYNC_SPEC R91).
   */
  async findByKeys(publicSigningKey: string, address: string): Promise<User | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb('public_signing_key', '=', publicSigningKey), eb('address', '=', address)]))
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  /**
   * Makes an imported author's placeholder (isPlaceholder) the account of whoever signed up with
   * its phrase: same id, so the memberships and operations the import gave it stay theirs. The
   * account is unverified like any new sign-up until the e-mailed link is followed.
   */
  async claimPlaceholder(id: string, input: NewUser): Promise<User> {
    await this.db
      .updateTable('users')
      .set({
        email: input.email,
        email_verified: toDbBool(false),
        opaque_record: input.opaqueRecord,
        enc_backup_phrase: input.encBackupPhrase,
        public_encryption_key: input.publicEncryptionKey,
        referrer_id: input.referrerId,
        onboarding: toDbBool(true),
        notifications: toDbBool(true),
        notify_on_upload: toDbBool(true),
        updated_at: this.clock.now(),
      })
      .where('id', '=', id)
      .where('opaque_record', '=', '')
      .where('passwordless', '=', toDbBool(false))
      .execute();
    const user = await this.findById(id);
    if (!user) throw new Error('User vanished after claim');
    return user;
  }

  async findByReferralId(referralId: string): Promise<User | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('referral_id', '=', referralId)
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  /** Creates an unverified account. 409 EMAIL_TAKEN, or PHRASE_TAKEN when the address is taken. */
  async create(input: NewUser): Promise<User> {
    if (await this.findByEmail(input.email)) throw new ApiError('EMAIL_TAKEN', 'This email address is already registered.');
    if (await this.findByAddress(input.address)) {
      throw new ApiError('PHRASE_TAKEN', 'An account with this recovery phrase already exists here. Log in, or recover it with the phrase.');
    }
    const now = this.clock.now();
    const id = randomId();
    try {
      await this.db.insertInto('users').values(newUserRow(id, input, now, false)).execute();
    } catch (error) {
      // A concurrent sign-up won the race between the checks above and this insert.
      if (isUniqueViolation(error)) throw new ApiError('EMAIL_TAKEN', 'This email address is already registered.');
      throw error;
    }
    const user = await this.findById(id);
    if (!user) throw new Error('User vanished after insert');
    return user;
  }

  /** Applies `patch` and returns the updated user (null when the user no longer exists). */
  async update(id: string, patch: UserPatch): Promise<User | null> {
    await this.db
      .updateTable('users')
      .set({ ...toRowPatch(patch), updated_at: this.clock.now() })
      .where('id', '=', id)
      .execute();
    return this.findById(id);
  }

  /**
   * Deletes the account (through `db`, the caller's transaction when given); foreign keys cascade
   * to its sessions, codes, challenges, reports, memberships and notifications.
   */
  async delete(id: string, db: Kysely<Database> = this.db): Promise<void> {
    await db.deleteFrom('users').where('id', '=', id).execute();
  }
}

/**
 * An imported author's account (SYNC_SPEC R92): bound to public keys only, with no password
 * record, no phrase, no mailbox and no way to sign in, until its phrase signs up (claimPlaceholder).
 * An account made by sign-up always has a registration record, so an empty one marks these.
 */
export function isPlaceholder(user: Pick<User, 'opaqueRecord' | 'passwordless'>): boolean {
  return user.opaqueRecord === '' && !user.passwordless;
}

/**
 * Creates a placeholder account (isPlaceholder) for an imported author, inside the caller's
 * transaction (the import's). Its e-mail is unique and in the reserved `.invalid` domain, never
 * verified, so it can never receive mail, be looked up, invited or recovered by e-mail.
 */
export async function insertPlaceholderUser(
  db: Kysely<Database>,
  input: { publicSigningKey: string; publicEncryptionKey: string; address: string },
  now: number,
): Promise<string> {
  const id = randomId();
  const email = `${id.toLowerCase()}-${randomToken(6).toLowerCase()}@imported.invalid`;
  const row = newUserRow(id, { ...input, email, opaqueRecord: '', encBackupPhrase: '', referrerId: null }, now, false);
  await db.insertInto('users').values({ ...row, onboarding: toDbBool(false), notifications: toDbBool(false), notify_on_upload: toDbBool(false) }).execute();
  return id;
}

/**
 * The e-mail of a passwordless account: unique, and in the reserved `.invalid` top-level domain
 * (RFC 2606), so it can never receive mail. `findByEmail` skips passwordless accounts anyway.
 */
export function airdropEmailOf(membershipId: string): string {
  return `${membershipId.toLowerCase()}-${randomToken(6).toLowerCase()}@airdrop.invalid`;
}

/**
 * Creates a passwordless (airdrop) account for a wallet made on an owner's device (spec 001
 * section 4), inside the caller's transaction (the member.airdrop operation's). It has no
 * password record and no sealed phrase: the link carries the wallet, and the account signs in
 * only by the wallet login. 409 CONFLICT when the wallet already has an account.
 */
export async function insertPasswordlessUser(
  db: Kysely<Database>,
  input: { email: string; publicSigningKey: string; publicEncryptionKey: string; address: string },
  now: number,
): Promise<string> {
  const taken = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb('public_signing_key', '=', input.publicSigningKey), eb('address', '=', input.address)]))
    .executeTakeFirst();
  if (taken) throw new ApiError('CONFLICT', 'This wallet already has an account');
  const id = randomId();
  const row = newUserRow(id, { ...input, opaqueRecord: '', encBackupPhrase: '', referrerId: null }, now, true);
  // Nothing to tour and nothing to notify by e-mail: the account has no mailbox.
  await db.insertInto('users').values({ ...row, onboarding: toDbBool(false), notifications: toDbBool(false), notify_on_upload: toDbBool(false) }).execute();
  return id;
}

function newUserRow(id: string, input: NewUser, now: number, passwordless: boolean): Insertable<UsersTable> {
  return {
    id,
    email: input.email,
    // A passwordless account has no e-mail to verify; it is usable as made.
    email_verified: toDbBool(passwordless),
    opaque_record: input.opaqueRecord,
    enc_backup_phrase: input.encBackupPhrase,
    public_signing_key: input.publicSigningKey,
    public_encryption_key: input.publicEncryptionKey,
    address: input.address,
    name: null,
    photo: null,
    mode: 'auto',
    notifications: toDbBool(true),
    notify_on_upload: toDbBool(true),
    // A new account sees the vault room's onboarding tour once (spec 000 section 2).
    onboarding: toDbBool(true),
    ...NO_TWO_FACTOR,
    passwordless: toDbBool(passwordless),
    referral_id: randomToken(9),
    referrer_id: input.referrerId,
    created_at: now,
    updated_at: now,
  };
}

function toUser(row: Selectable<UsersTable>): User {
  const mode = ThemeMode.safeParse(row.mode);
  const mfaType = MfaType.safeParse(row.mfa_type);
  const pendingPhone =
    row.pending_phone !== null && row.pending_phone_code_hash !== null && row.pending_phone_expires_at !== null
      ? {
          phoneNumber: row.pending_phone,
          codeHash: row.pending_phone_code_hash,
          expiresAt: Number(row.pending_phone_expires_at),
          attempts: row.pending_phone_attempts,
        }
      : null;
  return {
    id: row.id,
    email: row.email,
    emailVerified: fromDbBool(row.email_verified),
    opaqueRecord: row.opaque_record,
    encBackupPhrase: row.enc_backup_phrase,
    publicSigningKey: row.public_signing_key,
    publicEncryptionKey: row.public_encryption_key,
    address: row.address,
    name: row.name,
    photo: row.photo,
    mode: mode.success ? mode.data : 'auto',
    notifications: fromDbBool(row.notifications),
    notifyOnUpload: fromDbBool(row.notify_on_upload),
    onboarding: fromDbBool(row.onboarding),
    mfaType: mfaType.success ? mfaType.data : null,
    totpSecret: row.totp_secret,
    pendingTotpSecret: row.pending_totp_secret,
    totpDevice: row.totp_device,
    totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    phoneNumber: row.phone_number,
    pendingPhone,
    passwordless: fromDbBool(row.passwordless),
    referralId: row.referral_id,
    referrerId: row.referrer_id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toRowPatch(patch: UserPatch): Updateable<UsersTable> {
  const row: Updateable<UsersTable> = {};
  if (patch.emailVerified !== undefined) row.email_verified = toDbBool(patch.emailVerified);
  if (patch.opaqueRecord !== undefined) row.opaque_record = patch.opaqueRecord;
  if (patch.encBackupPhrase !== undefined) row.enc_backup_phrase = patch.encBackupPhrase;
  if (patch.name !== undefined) row.name = patch.name;
  if (patch.photo !== undefined) row.photo = patch.photo;
  if (patch.mode !== undefined) row.mode = patch.mode;
  if (patch.notifications !== undefined) row.notifications = toDbBool(patch.notifications);
  if (patch.notifyOnUpload !== undefined) row.notify_on_upload = toDbBool(patch.notifyOnUpload);
  if (patch.onboarding !== undefined) row.onboarding = toDbBool(patch.onboarding);
  if (patch.mfaType !== undefined) row.mfa_type = patch.mfaType;
  if (patch.totpSecret !== undefined) row.totp_secret = patch.totpSecret;
  if (patch.pendingTotpSecret !== undefined) row.pending_totp_secret = patch.pendingTotpSecret;
  if (patch.totpDevice !== undefined) row.totp_device = patch.totpDevice;
  if (patch.totpLastStep !== undefined) row.totp_last_step = patch.totpLastStep;
  if (patch.phoneNumber !== undefined) row.phone_number = patch.phoneNumber;
  if (patch.pendingPhone !== undefined) {
    row.pending_phone = patch.pendingPhone?.phoneNumber ?? null;
    row.pending_phone_code_hash = patch.pendingPhone?.codeHash ?? null;
    row.pending_phone_expires_at = patch.pendingPhone?.expiresAt ?? null;
    row.pending_phone_attempts = patch.pendingPhone?.attempts ?? 0;
  }
  return row;
}

/** The signed-in user's own view: no OPAQUE record, no TOTP secret, phone masked. */
export function toAccountUser(user: User): AccountUser {
  return {
    id: user.id,
    email: user.email,
    address: user.address,
    publicSigningKey: user.publicSigningKey,
    publicEncryptionKey: user.publicEncryptionKey,
    encBackupPhrase: user.encBackupPhrase,
    name: user.name,
    hasPhoto: user.photo !== null,
    mode: user.mode,
    notifications: user.notifications,
    notifyOnUpload: user.notifyOnUpload,
    onboarding: user.onboarding,
    mfaType: user.mfaType,
    mfaDevice: mfaDeviceOf(user),
    passwordless: user.passwordless,
    referralId: user.referralId,
    createdAt: user.createdAt,
  };
}

/** What the two-factor screens show: the authenticator's name, or the phone's last digits. */
export function mfaDeviceOf(user: User): string | null {
  if (user.mfaType === 'TOTP') return user.totpDevice;
  if (user.mfaType === 'SMS' && user.phoneNumber) return maskPhone(user.phoneNumber);
  return null;
}

export function maskPhone(phoneNumber: string): string {
  return `${'*'.repeat(Math.max(0, phoneNumber.length - 4))}${phoneNumber.slice(-4)}`;
}
