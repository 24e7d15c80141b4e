import type { Kysely } from 'kysely';
import { ApiError } from '../../src/protocol/errors';
import type { Database } from '../db/Database';
import type { Clock } from './Clock';
import { hashesEqual, hashToken, randomToken } from './tokens';

export type EmailCodePurpose = 'verify' | 'recover';

/** How long an e-mailed link works. */
export const EMAIL_CODE_TTL_MS: Record<EmailCodePurpose, number> = {
  verify: 24 * 60 * 60 * 1000,
  recover: 60 * 60 * 1000,
};

/**
 * Codes sent in e-mailed links. One row per user and purpose, so only the latest code is valid
 * (an older link gets CODE_MISMATCH). Codes carry 256 random bits and are stored hashed.
 */
export class EmailCodeService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** A new code for the user, replacing the previous one. */
  async issue(userId: string, purpose: EmailCodePurpose): Promise<string> {
    const code = randomToken();
    const now = this.clock.now();
    const row = {
      code_hash: hashToken(code, purpose),
      challenge: null,
      created_at: now,
      expires_at: now + EMAIL_CODE_TTL_MS[purpose],
    };
    await this.db
      .insertInto('email_tokens')
      .values({ user_id: userId, purpose, ...row })
      .onConflict((oc) => oc.columns(['user_id', 'purpose']).doUpdateSet(row))
      .execute();
    return code;
  }

  /**
   * Checks `code` and returns the stored challenge (recovery). 400 CODE_MISMATCH when it is not
   * the latest code, 410 EXPIRED when the latest code is too old.
   */
  async check(userId: string, purpose: EmailCodePurpose, code: string): Promise<{ challenge: string | null }> {
    const row = await this.db
      .selectFrom('email_tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row || !hashesEqual(row.code_hash, hashToken(code, purpose))) {
      throw new ApiError('CODE_MISMATCH', 'Your verification link is not the latest one sent.');
    }
    if (Number(row.expires_at) <= this.clock.now()) throw new ApiError('EXPIRED', 'This link has expired.');
    return { challenge: row.challenge };
  }

  async setChallenge(userId: string, purpose: EmailCodePurpose, challenge: string): Promise<void> {
    await this.db
      .updateTable('email_tokens')
      .set({ challenge })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .execute();
  }

  async consume(userId: string, purpose: EmailCodePurpose): Promise<void> {
    await this.db.deleteFrom('email_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
  }
}
