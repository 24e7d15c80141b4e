import type { LoginFinishResponse, SessionResult } from '../../src/protocol/auth';
import { ApiError } from '../../src/protocol/errors';
import type { MfaService } from './MfaService';
import type { OpaqueService } from './OpaqueService';
import type { ReauthService } from './ReauthService';
import type { Session, SessionService } from './SessionService';
import { toAccountUser, type User, type UserService } from './UserService';

/**
 * Login by OPAQUE, the second factor, sessions and re-authentication. The order of checks at
 * login/finish is fixed: the password proof first, so an unverified or two-factor account
 * reveals nothing to someone without the password.
 */
export class LoginService {
  constructor(
    private readonly users: UserService,
    private readonly opaque: OpaqueService,
    private readonly sessions: SessionService,
    private readonly mfa: MfaService,
    private readonly reauth: ReauthService,
  ) {}

  /** Answers for unknown e-mails too (OPAQUE fake record), so it does not reveal accounts. */
  async start(email: string, startLoginRequest: string): Promise<{ loginId: string; loginResponse: string }> {
    const user = await this.users.findByEmail(email);
    return this.opaque.startLogin({
      purpose: 'login',
      userIdentifier: email,
      user,
      startLoginRequest,
      sessionHash: null,
    });
  }

  async finish(loginId: string, finishLoginRequest: string, keepSignedIn: boolean): Promise<LoginFinishResponse> {
    const { userId } = await this.opaque.finishLogin(loginId, finishLoginRequest, 'login');
    const user = await this.users.findById(userId);
    if (!user) throw new ApiError('INVALID_CREDENTIALS', 'Your login details are not recognised.');
    if (!user.emailVerified) throw new ApiError('USER_NOT_CONFIRMED', 'Your email is not yet verified.');
    // Before the second factor: a disabled account is told at once and gets no SMS code.
    await this.sessions.assertEnabled(user.id);
    if (user.mfaType) return this.mfa.startLoginChallenge(user, keepSignedIn);
    return this.issueSession(user, keepSignedIn);
  }

  async verifyMfa(mfaToken: string, code: string): Promise<SessionResult> {
    const { userId, keepSignedIn } = await this.mfa.verifyLogin(mfaToken, code);
    const user = await this.users.findById(userId);
    if (!user) throw new ApiError('EXPIRED', 'This code has expired. Please log in again.');
    return this.issueSession(user, keepSignedIn);
  }

  /** A new session for a user who has proven everything the login needs. */
  async issueSession(user: User, keepSignedIn: boolean): Promise<SessionResult> {
    const session = await this.sessions.create(user.id, keepSignedIn);
    return {
      status: 'ok',
      user: toAccountUser(user),
      token: session.token,
      expiresAt: session.persistent ? session.expiresAt : null,
    };
  }

  async startReauth(session: Session, user: User, startLoginRequest: string): Promise<{ loginId: string; loginResponse: string }> {
    // An airdrop account has no password to prove, and none of the screens that ask for one.
    if (user.passwordless) throw new ApiError('FORBIDDEN', 'A passwordless account has no password');
    return this.opaque.startLogin({
      purpose: 'reauth',
      userIdentifier: user.email,
      user,
      startLoginRequest,
      sessionHash: session.tokenHash,
    });
  }

  /** 401 INVALID_CREDENTIALS on a wrong password; otherwise a 10-minute reauth token. */
  async finishReauth(session: Session, loginId: string, finishLoginRequest: string): Promise<{ reauthToken: string }> {
    const { userId } = await this.opaque.finishLogin(loginId, finishLoginRequest, 'reauth', session.tokenHash);
    if (userId !== session.userId) throw new ApiError('INVALID_CREDENTIALS', 'Your login details are not recognised.');
    return { reauthToken: await this.reauth.issue(userId, session.tokenHash) };
  }
}
