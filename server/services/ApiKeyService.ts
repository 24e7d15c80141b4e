/**
 * The account's API key (issue 24; spec 002 sections 3, 4 and 9; docs/decisions.md, "The developer
 * API (issue 24): API keys"). One key per account, shown once when it is made; the server keeps
 * its SHA-256 and its last 4 characters. Rotating replaces the hash in one statement, so the old
 * key stops working at the next request. Requests made with a key count against the account's
 * limit per period (API_KEY_REQUEST_LIMIT a day or a month, API_KEY_PERIOD), in UTC.
 */
import { sql } from 'kysely';
import { ApiError } from '../../src/protocol/errors';
import {
  API_KEY_DEFAULT_LIMIT,
  API_KEY_LIMIT_MESSAGE,
  API_KEY_PREFIX,
  ApiKey,
  type ApiKeyInfo,
  type NewApiKey,
} from '../../src/protocol/developers';
import type { Clock } from './Clock';
import { hashToken, randomToken } from './tokens';
import type { User, UserService } from './UserService';
import type { Db } from './vaultRows';

export const API_KEY_PERIODS = ['day', 'month'] as const;
export type ApiKeyPeriod = (typeof API_KEY_PERIODS)[number];

export interface ApiKeyPolicy {
  /** Requests a key may make in one period. */
  limit: number;
  period: ApiKeyPeriod;
}

export const DEFAULT_API_KEY_POLICY: ApiKeyPolicy = { limit: API_KEY_DEFAULT_LIMIT, period: 'month' };

/** Scope of the key's hash, so it can never be mistaken for a session token's hash. */
const HASH_SCOPE = 'api-key';
const HINT_LENGTH = 4;
const DAY_MS = 24 * 60 * 60 * 1000;

export class ApiKeyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly users: Pick<UserService, 'findById'>,
    private readonly policy: ApiKeyPolicy = DEFAULT_API_KEY_POLICY,
  ) {}

  /** GET /api/api-keys: whether there is a key, its hint, and this period's usage. */
  async info(userId: string): Promise<ApiKeyInfo> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(['hint', 'created_at', 'period_start', 'used', 'total'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const { start, end } = this.currentPeriod();
    return {
      exists: row !== undefined,
      hint: row?.hint ?? null,
      createdAt: row ? Number(row.created_at) : null,
      used: row && Number(row.period_start) === start ? Number(row.used) : 0,
      total: row ? Number(row.total) : 0,
      periodEndsAt: end,
      usagePlan: { limit: this.policy.limit, period: this.policy.period },
    };
  }

  /**
   * PUT /api/api-keys: a new key (32 random bytes, base64url, after `cairn_`), replacing the one
   * there. The usage counters stay: they are the account's, so rotating does not reset the limit.
   */
  async rotate(userId: string): Promise<NewApiKey> {
    const key = `${API_KEY_PREFIX}${randomToken(32)}`;
    const now = this.clock.now();
    const row = { key_hash: hashToken(key, HASH_SCOPE), hint: key.slice(-HINT_LENGTH), created_at: now };
    await this.db
      .insertInto('api_keys')
      .values({ user_id: userId, ...row, period_start: this.currentPeriod().start })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
      .execute();
    return { key, info: await this.info(userId) };
  }

  /**
   * The account of `key`, or null (malformed, unknown, replaced, or its account gone or disabled).
   * Looked up by its hash: the database compares hashes, never the key, so timing says nothing of
   * the key's characters.
   */
  async authenticate(key: string): Promise<User | null> {
    if (!ApiKey.safeParse(key).success) return null;
    const row = await this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select('api_keys.user_id')
      .where('api_keys.key_hash', '=', hashToken(key, HASH_SCOPE))
      // An account the operator disabled (`npm run admin -- disable`) loses its key's access too.
      .where('users.disabled_at', 'is', null)
      .executeTakeFirst();
    return row ? this.users.findById(row.user_id) : null;
  }

  /**
   * Counts one request made with the account's key; throws 429 RATE_LIMITED with
   * API_KEY_LIMIT_MESSAGE once the period's limit is reached (that request is not counted). One
   * conditional UPDATE, so concurrent requests (or several server processes) cannot pass the limit
   * together.
   */
  async count(userId: string): Promise<void> {
    const { start } = this.currentPeriod();
    const counted = await this.db
      .updateTable('api_keys')
      .set({
        used: sql<number>`case when period_start = ${start} then used + 1 else 1 end`,
        total: sql<number>`total + 1`,
        period_start: start,
      })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('period_start', '<>', start), eb('used', '<', this.policy.limit)]))
      .returning('used')
      .executeTakeFirst();
    if (!counted) throw new ApiError('RATE_LIMITED', API_KEY_LIMIT_MESSAGE);
  }

  /** Seconds until the current period ends (a refused request's Retry-After). */
  secondsLeftInPeriod(): number {
    return Math.max(1, Math.ceil((this.currentPeriod().end - this.clock.now()) / 1000));
  }

  /** The current period's start and end (epoch ms), in UTC. */
  private currentPeriod(): { start: number; end: number } {
    const now = new Date(this.clock.now());
    if (this.policy.period === 'day') {
      const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      return { start, end: start + DAY_MS };
    }
    return { start: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1), end: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) };
  }
}
