import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import type { MfaType, SignedRequest } from '../../src/protocol/auth';
import { ApiError } from '../../src/protocol/errors';
import type { Database } from '../db/Database';
import { fromDbBool, toDbBool } from '../db/dbBool';
import { SmsNotSentError, type SmsPort } from '../sms/SmsPort';
import type { Clock } from './Clock';
import { assertSignedRequest } from './signatures';
import { hashesEqual, hashToken, randomDigits, randomToken } from './tokens';
import { maskPhone, mfaDeviceOf, type User, type UserService } from './UserService';

/** A second-factor challenge (login or SMS setup) lasts 10 minutes and allows 5 wrong codes. */
export const MFA_CHALLENGE_TTL_MS = 10 * 60 * 1000;
export const MFA_MAX_ATTEMPTS = 5;
/** Accept the previous and next 30-second step too, for clock drift (otplib tolerance in seconds). */
const TOTP_TOLERANCE_S = 30;
const ISSUER = 'Cairn';

export interface MfaChallenge {
  status: 'mfa';
  mfaToken: string;
  mfaType: MfaType;
  device: string | null;
}

/**
 * Two-factor login and setup: TOTP (otplib) and SMS codes sent through the SMS port. TOTP
 * secrets must be stored as they are (the server computes codes); SMS codes are stored hashed.
 */
export class MfaService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly users: UserService,
    /** null: no SMS provider is configured, so SMS two-factor cannot be turned on (issue 20). */
    private readonly sms: SmsPort | null,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  /** Whether SMS two-factor can be offered (GET /config says so to the client). */
  get smsAvailable(): boolean {
    return this.sms !== null;
  }

  /** After the password was proven: a challenge the client answers at /auth/mfa/verify. */
  async startLoginChallenge(user: User, keepSignedIn: boolean): Promise<MfaChallenge> {
    if (!user.mfaType) throw new Error('startLoginChallenge: two-factor is off');
    const now = this.clock.now();
    const mfaToken = randomToken();
    const tokenHash = hashToken(mfaToken);
    let codeHash: string | null = null;
    if (user.mfaType === 'SMS') codeHash = await this.sendSmsCode(user.phoneNumber, tokenHash);
    await this.db.deleteFrom('mfa_challenges').where('user_id', '=', user.id).where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('mfa_challenges')
      .values({
        token_hash: tokenHash,
        user_id: user.id,
        mfa_type: user.mfaType,
        code_hash: codeHash,
        attempts: 0,
        keep_signed_in: toDbBool(keepSignedIn),
        created_at: now,
        expires_at: now + MFA_CHALLENGE_TTL_MS,
      })
      .execute();
    return { status: 'mfa', mfaToken, mfaType: user.mfaType, device: mfaDeviceOf(user) };
  }

  /** The account a login challenge belongs to (the per-account rate limits' key), or null. */
  async challengeOwner(mfaToken: string): Promise<string | null> {
    const row = await this.db.selectFrom('mfa_challenges').select('user_id').where('token_hash', '=', hashToken(mfaToken)).executeTakeFirst();
    return row?.user_id ?? null;
  }

  /** SMS only: sends a new code; the previous one stops working. */
  async resend(mfaToken: string): Promise<void> {
    const challenge = await this.liveChallenge(mfaToken);
    if (challenge.mfa_type !== 'SMS') throw new ApiError('BAD_REQUEST', 'This login does not use SMS codes');
    const user = await this.users.findById(challenge.user_id);
    if (!user) throw expired();
    const codeHash = await this.sendSmsCode(user.phoneNumber, challenge.token_hash);
    await this.db.updateTable('mfa_challenges').set({ code_hash: codeHash }).where('token_hash', '=', challenge.token_hash).execute();
  }

  /**
   * Checks the code of a login challenge. 400 WRONG_CODE; 410 EXPIRED when the challenge is
   * unknown, older than 10 minutes, or on the fifth wrong code (which also ends it).
   */
  async verifyLogin(mfaToken: string, code: string): Promise<{ userId: string; keepSignedIn: boolean }> {
    const challenge = await this.liveChallenge(mfaToken);
    const user = await this.users.findById(challenge.user_id);
    if (!user) throw expired();
    let ok = false;
    if (challenge.mfa_type === 'TOTP' && user.totpSecret) {
      const step = await this.checkTotp(user.totpSecret, code, user.totpLastStep);
      if (step !== null) {
        ok = true;
        await this.users.update(user.id, { totpLastStep: step });
      }
    } else if (challenge.mfa_type === 'SMS' && challenge.code_hash) {
      ok = hashesEqual(challenge.code_hash, hashToken(code, challenge.token_hash));
    }
    if (!ok) {
      const attempts = challenge.attempts + 1;
      if (attempts >= MFA_MAX_ATTEMPTS) {
        await this.db.deleteFrom('mfa_challenges').where('token_hash', '=', challenge.token_hash).execute();
        throw new ApiError('EXPIRED', 'Too many wrong codes. Please log in again.');
      }
      await this.db.updateTable('mfa_challenges').set({ attempts }).where('token_hash', '=', challenge.token_hash).execute();
      throw wrongCode();
    }
    await this.db.deleteFrom('mfa_challenges').where('token_hash', '=', challenge.token_hash).execute();
    return { userId: user.id, keepSignedIn: fromDbBool(challenge.keep_signed_in) };
  }

  /** A fresh TOTP secret, pending until a code from it enables two-factor. */
  async setupTotp(user: User): Promise<{ secret: string; otpauthUrl: string }> {
    const secret = generateSecret();
    await this.users.update(user.id, { pendingTotpSecret: secret });
    return { secret, otpauthUrl: generateURI({ issuer: ISSUER, label: user.email, secret }) };
  }

  async enableTotp(user: User, code: string, device: string): Promise<User> {
    if (!user.pendingTotpSecret) throw new ApiError('BAD_REQUEST', 'Start the authenticator setup first');
    const step = await this.checkTotp(user.pendingTotpSecret, code, null);
    if (step === null) throw wrongCode();
    return this.mustExist(
      await this.users.update(user.id, {
        mfaType: 'TOTP',
        totpSecret: user.pendingTotpSecret,
        pendingTotpSecret: null,
        totpDevice: device,
        totpLastStep: step,
        phoneNumber: null,
        pendingPhone: null,
      }),
    );
  }

  /** Sends a code to `phoneNumber`; two-factor switches to SMS once the code comes back. */
  async setupSms(user: User, phoneNumber: string): Promise<void> {
    const sms = this.requireSms();
    const code = randomDigits(6);
    // Sent before it is stored: a message that fails leaves the account as it was (an earlier
    // pending setup keeps its code), so the user can simply try again.
    await this.sendText(sms, phoneNumber, code, 'setup');
    await this.users.update(user.id, {
      pendingPhone: {
        phoneNumber,
        codeHash: hashToken(code, `sms-setup:${user.id}`),
        expiresAt: this.clock.now() + MFA_CHALLENGE_TTL_MS,
        attempts: 0,
      },
    });
  }

  /** 400 WRONG_CODE; 410 EXPIRED after 10 minutes or 5 wrong codes (setup must start again). */
  async enableSms(user: User, code: string): Promise<User> {
    this.requireSms();
    const pending = user.pendingPhone;
    if (!pending) throw new ApiError('BAD_REQUEST', 'Start the phone number setup first');
    if (pending.expiresAt <= this.clock.now()) {
      await this.users.update(user.id, { pendingPhone: null });
      throw expired();
    }
    if (!hashesEqual(pending.codeHash, hashToken(code, `sms-setup:${user.id}`))) {
      const attempts = pending.attempts + 1;
      await this.users.update(user.id, { pendingPhone: attempts >= MFA_MAX_ATTEMPTS ? null : { ...pending, attempts } });
      if (attempts >= MFA_MAX_ATTEMPTS) throw new ApiError('EXPIRED', 'Too many wrong codes. Please start again.');
      throw wrongCode();
    }
    return this.mustExist(
      await this.users.update(user.id, {
        mfaType: 'SMS',
        phoneNumber: pending.phoneNumber,
        pendingPhone: null,
        totpSecret: null,
        pendingTotpSecret: null,
        totpDevice: null,
        totpLastStep: null,
      }),
    );
  }

  /** Turns two-factor off; needs the account key's signature, not only a session. */
  async disable(user: User, request: SignedRequest): Promise<User> {
    assertSignedRequest(user, 'disable-mfa', request, this.clock.now());
    await this.db.deleteFrom('mfa_challenges').where('user_id', '=', user.id).execute();
    return this.mustExist(
      await this.users.update(user.id, {
        mfaType: null,
        totpSecret: null,
        pendingTotpSecret: null,
        totpDevice: null,
        totpLastStep: null,
        phoneNumber: null,
        pendingPhone: null,
      }),
    );
  }

  /** The matched time step, or null. Steps up to `lastStep` are refused so a code works once. */
  private async checkTotp(secret: string, token: string, lastStep: number | null): Promise<number | null> {
    try {
      const result = await verify({
        secret,
        token,
        epoch: Math.floor(this.clock.now() / 1000),
        epochTolerance: TOTP_TOLERANCE_S,
        ...(lastStep !== null ? { afterTimeStep: lastStep } : {}),
      });
      return result.valid && 'timeStep' in result ? result.timeStep : null;
    } catch {
      return null;
    }
  }

  private async sendSmsCode(phoneNumber: string | null, scope: string): Promise<string> {
    if (!phoneNumber) throw new Error('SMS two-factor without a phone number');
    const sms = this.requireSms(
      'This account uses SMS two-factor, but this server cannot send text messages. Please contact the operator of this server.',
    );
    const code = randomDigits(6);
    // Callers store the hash only after this returns: a failed send creates no challenge and
    // leaves a resent login's previous code working.
    await this.sendText(sms, phoneNumber, code, 'login');
    return hashToken(code, scope);
  }

  /**
   * Sends a code, or answers 502 SMS_NOT_SENT with a sentence the user can act on; the provider's
   * own reason (status, error code) goes to the operator's log with the number masked.
   */
  private async sendText(sms: SmsPort, phoneNumber: string, code: string, purpose: 'setup' | 'login'): Promise<void> {
    try {
      await sms.send({ to: phoneNumber, text: smsText(code) });
    } catch (error) {
      const known = error instanceof SmsNotSentError ? error : null;
      this.log.error(
        { err: error, provider: known?.provider, ...known?.details, to: maskPhone(phoneNumber), purpose },
        `SMS not sent: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (purpose === 'setup' && known?.details.failure === 'invalid-number') throw new ApiError('SMS_NOT_SENT', SMS_NOT_SENT_TEXTS.invalidNumber);
      throw new ApiError('SMS_NOT_SENT', purpose === 'setup' ? SMS_NOT_SENT_TEXTS.setup : SMS_NOT_SENT_TEXTS.login);
    }
  }

  /**
   * The SMS provider, or 422 SMS_UNAVAILABLE: turning SMS two-factor on where no code can reach a
   * phone would lock the user out. (An account that has SMS two-factor from before the provider
   * was removed is refused at login with this too; the operator resets it with `npm run admin -- reset-2fa`.)
   */
  private requireSms(message = 'Text messages cannot be sent from this server, so SMS two-factor is not available.'): SmsPort {
    if (!this.sms) throw new ApiError('SMS_UNAVAILABLE', message);
    return this.sms;
  }

  private async liveChallenge(mfaToken: string) {
    const challenge = await this.db
      .selectFrom('mfa_challenges')
      .selectAll()
      .where('token_hash', '=', hashToken(mfaToken))
      .executeTakeFirst();
    if (!challenge) throw expired();
    if (Number(challenge.expires_at) <= this.clock.now()) {
      await this.db.deleteFrom('mfa_challenges').where('token_hash', '=', challenge.token_hash).execute();
      throw expired();
    }
    return challenge;
  }

  private mustExist(user: User | null): User {
    if (!user) throw new ApiError('UNAUTHENTICATED', 'The account no longer exists');
    return user;
  }
}

/** What the user sees when a code could not be texted (the spec has no text for it). */
export const SMS_NOT_SENT_TEXTS = {
  setup: 'We could not send a text message to this number just now. Please try again in a few minutes.',
  invalidNumber: 'This number cannot receive text messages. Please check it, or use another number.',
  login: 'We could not text your code just now. Please try again in a few minutes, or recover your account.',
} as const;

function smsText(code: string): string {
  return `Your Cairn code is ${code}. It expires in 10 minutes.`;
}

function wrongCode(): ApiError {
  return new ApiError('WRONG_CODE', 'Wrong code. Please check and try again.');
}

function expired(): ApiError {
  return new ApiError('EXPIRED', 'This code has expired. Please log in again.');
}
