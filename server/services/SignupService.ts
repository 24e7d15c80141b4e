import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { SignupFinishRequest, VerifyEmailResponse } from '../../src/protocol/auth';
import { ApiError } from '../../src/protocol/errors';
import { Email } from '../../src/protocol/primitives';
import { verificationMail } from '../mail/messages';
import type { MailPort } from '../mail/MailPort';
import type { EmailCodeService } from './EmailCodeService';
import type { OpaqueService } from './OpaqueService';
import { addressOf, verifySignedPayload } from './signatures';
import { isPlaceholder, type UserService } from './UserService';

type SignupFinish = z.output<typeof SignupFinishRequest>;
type VerifyStatus = z.output<typeof VerifyEmailResponse>['status'];

/** The `uid` of a verification link: base64url(JSON {email}). */
const VerifyUid = z.object({ email: Email });

/** Who may sign up: SIGNUPS_ALLOWED and SIGNUP_EMAIL_DOMAINS (issue 20). */
export interface SignupPolicy {
  allowed: boolean;
  /** Lower-case domains; null: any. */
  emailDomains: readonly string[] | null;
}

export const OPEN_SIGNUPS: SignupPolicy = { allowed: true, emailDomains: null };

export const SIGNUPS_CLOSED_MESSAGE = 'Sign-ups are closed on this server.';

/** 403 SIGNUPS_CLOSED when sign-ups are closed, or `email` is not at one of the allowed domains. */
export function assertMaySignUp(policy: SignupPolicy, email: string): void {
  if (!policy.allowed) throw new ApiError('SIGNUPS_CLOSED', SIGNUPS_CLOSED_MESSAGE);
  if (policy.emailDomains === null) return;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (!policy.emailDomains.includes(domain)) {
    throw new ApiError('SIGNUPS_CLOSED', `Sign-ups on this server are only for e-mail addresses at ${policy.emailDomains.join(', ')}.`, [
      { path: 'email', message: 'domain not allowed' },
    ]);
  }
}

/**
 * Sign-up and e-mail verification. The account is created unverified at `finish`; logging in
 * needs the e-mailed link first. An address is taken only once it is verified: a new sign-up for
 * an address never verified replaces the unverified account (docs/decisions.md, issue 18), so
 * nobody can squat someone else's address by signing up first with it.
 */
export class SignupService {
  constructor(
    private readonly users: UserService,
    private readonly opaque: OpaqueService,
    private readonly codes: EmailCodeService,
    private readonly mailer: MailPort,
    private readonly publicUrl: string,
    private readonly log: FastifyBaseLogger,
    private readonly policy: SignupPolicy = OPEN_SIGNUPS,
    /** Runs once an account's e-mail is verified for the first time (the referral reward, R133). */
    private readonly onFirstVerification: (userId: string) => Promise<void> = async () => undefined,
  ) {}

  /** OPAQUE registration step 1. 409 EMAIL_TAKEN when the e-mail has a verified account. */
  async start(email: string, registrationRequest: string): Promise<{ registrationResponse: string }> {
    assertMaySignUp(this.policy, email);
    if ((await this.users.findByEmail(email))?.emailVerified) throw new ApiError('EMAIL_TAKEN', 'This email address is already registered.');
    return { registrationResponse: this.opaque.createRegistrationResponse(email, registrationRequest) };
  }

  /**
   * Creates the account after checking that the address is the signing key's and that the
   * signing key signed the whole request, then e-mails the verification link.
   */
  async finish(request: SignupFinish): Promise<void> {
    // Checked again here: a sign-up started before the operator closed them must not finish.
    assertMaySignUp(this.policy, request.email);
    const { email, address, publicSigningKey, publicEncryptionKey, registrationRecord, encBackupPhrase, signature } = request;
    if (addressOf(publicSigningKey) !== address) {
      throw new ApiError('VALIDATION_FAILED', 'The address does not belong to the signing key', [
        { path: 'address', message: 'Expected base64url(SHA-256(publicSigningKey))' },
      ]);
    }
    const signed = { purpose: 'signup', email, address, publicSigningKey, publicEncryptionKey, registrationRecord, encBackupPhrase };
    if (!verifySignedPayload(publicSigningKey, signed, signature)) {
      throw new ApiError('INVALID_SIGNATURE', 'The sign-up request is not signed by its key');
    }
    this.opaque.assertValidRecord(registrationRecord);
    const existing = await this.users.findByEmail(email);
    if (existing?.emailVerified) throw new ApiError('EMAIL_TAKEN', 'This email address is already registered.');
    // A phrase has one account per server (SYNC_SPEC R91). Only its holder can sign this request,
    // so saying that its keys have an account here tells nobody else anything.
    const holder = await this.users.findByKeys(publicSigningKey, address);
    const claimable = holder && isPlaceholder(holder) ? holder : null;
    if (holder && !claimable && (holder.emailVerified || holder.passwordless)) {
      throw new ApiError('PHRASE_TAKEN', 'An account with this recovery phrase already exists here. Log in, or recover it with the phrase.');
    }
    // Only now that the request is valid: an unverified account never proved the mailbox, so the
    // newest sign-up wins. Deleting it (its codes go with it, by cascade) makes the links e-mailed
    // for it stop working, so whoever follows one can never end up with another person's keys.
    // The same holds for an unverified account of these keys under another e-mail (a typo): the
    // holder of the phrase signs up again.
    if (existing && existing.id !== claimable?.id) await this.users.delete(existing.id);
    if (holder && !claimable && holder.id !== existing?.id) await this.users.delete(holder.id);
    const referrer = request.referrerId ? await this.users.findByReferralId(request.referrerId) : null;
    const account = {
      email,
      opaqueRecord: registrationRecord,
      encBackupPhrase,
      publicSigningKey,
      publicEncryptionKey,
      address,
      referrerId: referrer?.id ?? null,
    };
    // An imported author's placeholder becomes this account, keeping its memberships (R92).
    const user = claimable ? await this.users.claimPlaceholder(claimable.id, account) : await this.users.create(account);
    try {
      await this.sendVerification(user.id, email);
    } catch (error) {
      // The account exists now; the user can ask for the link again ('Resend email').
      this.log.error({ err: error }, 'verification e-mail failed');
    }
  }

  /** Always succeeds, so this route does not reveal which e-mails have accounts. */
  async resend(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user || user.emailVerified) return;
    await this.sendVerification(user.id, email);
  }

  /**
   * 400 CODE_MISMATCH unless `code` is the latest one sent, whatever the address's state (unknown,
   * unverified or verified), so a wrong code tells nothing about the address. The code is checked
   * first; it is kept until it expires, so following the same link again answers CONFIRMED.
   */
  async verify(uid: string, code: string): Promise<{ status: VerifyStatus }> {
    const email = decodeUidEmail(uid);
    const user = email ? await this.users.findByEmail(email) : null;
    if (!user) throw new ApiError('CODE_MISMATCH', 'Your verification link is not the latest one sent.');
    try {
      await this.codes.check(user.id, 'verify', code);
    } catch (error) {
      // The right code of a verified account: only its mailbox has it, so nothing leaks.
      if (user.emailVerified && error instanceof ApiError && error.code === 'EXPIRED') return { status: 'CONFIRMED' };
      throw error;
    }
    if (user.emailVerified) return { status: 'CONFIRMED' };
    await this.users.update(user.id, { emailVerified: true });
    await this.onFirstVerification(user.id);
    return { status: 'VERIFIED' };
  }

  private async sendVerification(userId: string, email: string): Promise<void> {
    const code = await this.codes.issue(userId, 'verify');
    const uid = encodeUid({ email });
    await this.mailer.send(verificationMail(email, `${this.publicUrl}/login?uid=${uid}&code=${code}`));
  }
}

/** base64url(JSON.stringify(payload)): the `uid` query parameter of e-mailed links. */
export function encodeUid(payload: Record<string, string>): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

function decodeUidEmail(uid: string): string | null {
  try {
    const parsed = VerifyUid.safeParse(JSON.parse(Buffer.from(uid, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data.email : null;
  } catch {
    return null;
  }
}
