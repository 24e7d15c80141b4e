/**
 * Passwordless (airdrop) sign-in (spec 001 sections 2 and 4, src/protocol/members.ts): the device
 * derives the wallet from the link, asks for a one-time challenge and signs it with the wallet's
 * Ed25519 key. No secret reaches the server: it stores the challenge and checks a signature.
 */
import type { SessionResult } from '../../src/protocol/auth';
import { ApiError } from '../../src/protocol/errors';
import type { Clock } from './Clock';
import type { SessionService } from './SessionService';
import { verifySignedPayload } from './signatures';
import { randomToken } from './tokens';
import { toAccountUser, type UserService } from './UserService';
import type { Db } from './vaultRows';

/** A challenge is good for one login within this time. */
export const WALLET_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export const LINK_EXPIRED_MESSAGE = 'This link has expired.';
const NOT_RECOGNISED_MESSAGE = 'This link is not recognised.';

/** What the wallet signs: canonical JSON of this object (see src/protocol/members.ts). */
export function walletLoginPayload(challenge: string): { purpose: 'wallet-login'; challenge: string } {
  return { purpose: 'wallet-login', challenge };
}

export class WalletLoginService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly users: UserService,
    private readonly sessions: SessionService,
  ) {}

  /**
   * A fresh challenge for `publicSigningKey`. Answered for any key, account or not, so the
   * endpoint does not tell which wallets have accounts.
   */
  async challenge(publicSigningKey: string): Promise<{ challenge: string }> {
    const now = this.clock.now();
    // Expired challenges go here rather than on a timer, so nothing runs in the background.
    await this.db.deleteFrom('wallet_challenges').where('expires_at', '<=', now).execute();
    const challenge = randomToken(32);
    await this.db
      .insertInto('wallet_challenges')
      .values({ challenge, public_signing_key: publicSigningKey, created_at: now, expires_at: now + WALLET_CHALLENGE_TTL_MS })
      .execute();
    return { challenge };
  }

  /**
   * Opens a session for the passwordless account of `publicSigningKey` when `signature` signs the
   * challenge. The challenge is spent whatever the outcome. 401 INVALID_CREDENTIALS for an
   * unknown, spent or expired challenge, a bad signature or a wallet with no passwordless
   * account; 410 EXPIRED when every airdrop membership of the account has ended. The session is
   * never persistent and ends when the last membership does.
   */
  async login(publicSigningKey: string, challenge: string, signature: string): Promise<SessionResult> {
    const now = this.clock.now();
    const spent = await this.db
      .deleteFrom('wallet_challenges')
      .where('challenge', '=', challenge)
      .where('public_signing_key', '=', publicSigningKey)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(spent.numDeletedRows) !== 1 || !verifySignedPayload(publicSigningKey, walletLoginPayload(challenge), signature)) {
      throw new ApiError('INVALID_CREDENTIALS', NOT_RECOGNISED_MESSAGE);
    }
    const user = await this.users.findPasswordlessBySigningKey(publicSigningKey);
    if (!user) throw new ApiError('INVALID_CREDENTIALS', NOT_RECOGNISED_MESSAGE);
    const endsAt = await this.accessEndsAt(user.id);
    if (endsAt === null || endsAt <= now) throw new ApiError('EXPIRED', LINK_EXPIRED_MESSAGE);
    const session = await this.sessions.create(user.id, false, endsAt);
    return { status: 'ok', user: toAccountUser(user), token: session.token, expiresAt: null };
  }

  /** When the account's last live airdrop membership ends (ms), or null when it has none. */
  private async accessEndsAt(userId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.max('expires_at').as('ends_at'))
      .where('user_id', '=', userId)
      .where('status', '=', 'ACCEPTED')
      .where('role', '!=', 'REVOKED')
      .where('expires_at', 'is not', null)
      .executeTakeFirst();
    return row?.ends_at === null || row?.ends_at === undefined ? null : Number(row.ends_at);
  }
}
