import type { Kysely } from 'kysely';
import { ApiError } from '../../src/protocol/errors';
import type { Database } from '../db/Database';
import type { Clock } from './Clock';
import { hashToken, randomToken } from './tokens';

export const REAUTH_TTL_MS = 10 * 60 * 1000;

/**
 * Proof that the password was entered again recently. A token is bound to the session that made
 * it, lasts 10 minutes and is spent by the one change it authorises (password, two-factor setup).
 */
export class ReauthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async issue(userId: string, sessionHash: string): Promise<string> {
    const now = this.clock.now();
    const token = randomToken();
    await this.db.deleteFrom('reauth_tokens').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('reauth_tokens')
      .values({ token_hash: hashToken(token), user_id: userId, session_hash: sessionHash, created_at: now, expires_at: now + REAUTH_TTL_MS })
      .execute();
    return token;
  }

  /** 401 INVALID_CREDENTIALS unless the token is live and belongs to this user and session. */
  async check(token: string, userId: string, sessionHash: string): Promise<void> {
    const row = await this.db
      .selectFrom('reauth_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row || row.user_id !== userId || row.session_hash !== sessionHash || Number(row.expires_at) <= this.clock.now()) {
      throw new ApiError('INVALID_CREDENTIALS', 'Please enter your password again.');
    }
  }

  /** Checks and spends the token. */
  async consume(token: string, userId: string, sessionHash: string): Promise<void> {
    // One conditional delete, so two concurrent requests cannot both spend the same token.
    const result = await this.db
      .deleteFrom('reauth_tokens')
      .where('token_hash', '=', hashToken(token))
      .where('user_id', '=', userId)
      .where('session_hash', '=', sessionHash)
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) throw new ApiError('INVALID_CREDENTIALS', 'Please enter your password again.');
  }
}
