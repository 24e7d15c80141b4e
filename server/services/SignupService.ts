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
import type { UserService } from './UserService';

type SignupFinish = z.output<typeof SignupFinishRequest>;
type VerifyStatus = z.output<typeof VerifyEmailResponse>['status'];

/** The `uid` of a verification link: base64url(JSON {email}). */
const VerifyUid = z.object({ email: Email });

/**
 * Sign-up and e-mail verification. The account is created unverified at `finish`; logging in
 * needs the e-mailed link first.
 */
export class SignupService {
  constructor(
    private readonly users: UserService,
    private readonly opaque: OpaqueService,
    private readonly codes: EmailCodeService,
    private readonly mailer: MailPort,
    private readonly publicUrl: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** OPAQUE registration step 1. 409 EMAIL_TAKEN when the e-mail has an account. */
  async start(email: string, registrationRequest: string): Promise<{ registrationResponse: string }> {
    if (await this.users.findByEmail(email)) throw new ApiError('EMAIL_TAKEN', 'This email address is already registered.');
    return { registrationResponse: this.opaque.createRegistrationResponse(email, registrationRequest) };
  }

  /**
   * Creates the account after checking that the address is the signing key's and that the
   * signing key signed the whole request, then e-mails the verification link.
   */
  async finish(request: SignupFinish): Promise<void> {
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
    const referrer = request.referrerId ? await this.users.findByReferralId(request.referrerId) : null;
    const user = await this.users.create({
      email,
      opaqueRecord: registrationRecord,
      encBackupPhrase,
      publicSigningKey,
      publicEncryptionKey,
      address,
      referrerId: referrer?.id ?? null,
    });
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

  /** 400 CODE_MISMATCH unless `code` is the latest one sent; CONFIRMED when already verified. */
  async verify(uid: string, code: string): Promise<{ status: VerifyStatus }> {
    const email = decodeUidEmail(uid);
    const user = email ? await this.users.findByEmail(email) : null;
    if (!user) throw new ApiError('CODE_MISMATCH', 'Your verification link is not the latest one sent.');
    if (user.emailVerified) return { status: 'CONFIRMED' };
    await this.codes.check(user.id, 'verify', code);
    await this.users.update(user.id, { emailVerified: true });
    await this.codes.consume(user.id, 'verify');
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
