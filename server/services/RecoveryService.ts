import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { RecoverFinishRequest, SessionResult } from '../../src/protocol/auth';
import { ApiError } from '../../src/protocol/errors';
import type { Database } from '../db/Database';
import { recoveryMail } from '../mail/messages';
import type { MailPort } from '../mail/MailPort';
import type { EmailCodeService } from './EmailCodeService';
import type { LoginService } from './LoginService';
import type { OpaqueService } from './OpaqueService';
import type { SessionService } from './SessionService';
import { encodeUid } from './SignupService';
import { verifySignedPayload } from './signatures';
import { randomToken } from './tokens';
import type { User, UserService } from './UserService';

type RecoverFinish = z.output<typeof RecoverFinishRequest>;

/**
 * Account recovery: the e-mailed link proves the mailbox, a signature by the phrase's signing
 * key over a server challenge proves the phrase; then the password is registered anew.
 */
export class RecoveryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UserService,
    private readonly opaque: OpaqueService,
    private readonly codes: EmailCodeService,
    private readonly sessions: SessionService,
    private readonly login: LoginService,
    private readonly mailer: MailPort,
    private readonly publicUrl: string,
  ) {}

  /** 404 USER_NOT_FOUND (the spec shows 'An account with this email address does not exist.'). */
  async start(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new ApiError('USER_NOT_FOUND', 'An account with this email address does not exist.');
    const code = await this.codes.issue(user.id, 'recover');
    const uid = encodeUid({ email: user.email, address: user.address });
    await this.mailer.send(recoveryMail(user.email, `${this.publicUrl}/recover/backup-phrase?uid=${uid}&code=${code}`));
  }

  /** Checks the link and answers the OPAQUE registration response and a fresh challenge to sign. */
  async register(email: string, code: string, registrationRequest: string): Promise<{ registrationResponse: string; challenge: string }> {
    const { user } = await this.userForLink(email, code);
    const registrationResponse = this.opaque.createRegistrationResponse(user.email, registrationRequest);
    const challenge = randomToken();
    await this.codes.setChallenge(user.id, 'recover', challenge);
    return { registrationResponse, challenge };
  }

  /**
   * 403 INVALID_SIGNATURE (nothing changes, the link still works) unless the account's own key
   * signed the request. Then replaces the record and phrase backup, ends every session and
   * pending login of the account, and answers a new session.
   */
  async finish(request: RecoverFinish): Promise<SessionResult> {
    const { user, challenge } = await this.userForLink(request.email, request.code);
    if (challenge === null || challenge !== request.challenge) {
      throw new ApiError('CODE_MISMATCH', 'This recovery attempt is out of date. Please start again.');
    }
    const signed = {
      purpose: 'recover',
      email: user.email,
      challenge,
      registrationRecord: request.registrationRecord,
      encBackupPhrase: request.encBackupPhrase,
    };
    if (!verifySignedPayload(user.publicSigningKey, signed, request.signature)) {
      throw new ApiError('INVALID_SIGNATURE', 'Invalid recovery phrase.');
    }
    this.opaque.assertValidRecord(request.registrationRecord);
    await this.codes.consume(user.id, 'recover');
    const updated = await this.users.update(user.id, {
      opaqueRecord: request.registrationRecord,
      encBackupPhrase: request.encBackupPhrase,
      // Following the e-mailed link proved the mailbox, as verification would have.
      emailVerified: true,
    });
    if (!updated) throw new ApiError('USER_NOT_FOUND', 'An account with this email address does not exist.');
    await this.sessions.revokeAllForUser(user.id);
    await this.db.deleteFrom('opaque_logins').where('user_id', '=', user.id).execute();
    await this.db.deleteFrom('mfa_challenges').where('user_id', '=', user.id).execute();
    return this.login.issueSession(updated, request.keepSignedIn);
  }

  /** 400 CODE_MISMATCH / 410 EXPIRED unless `code` is the account's latest live recovery code. */
  private async userForLink(email: string, code: string): Promise<{ user: User; challenge: string | null }> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new ApiError('CODE_MISMATCH', 'Your recovery link is not the latest one sent.');
    const { challenge } = await this.codes.check(user.id, 'recover', code);
    return { user, challenge };
  }
}
