import type { Kysely } from 'kysely';
import type { Database } from '../db/Database';
import { fromDbBool, toDbBool } from '../db/dbBool';
import type { Clock } from './Clock';
import { describeUserAgent } from '../../src/domain/describeUserAgent';
import type { SessionInfo } from '../../src/protocol/sessions';
import { hashToken, randomToken } from './tokens';
import { ApiError } from '../../src/protocol/errors';

/** 'Keep me signed in': the cookie and the session last 30 days. */
export const PERSISTENT_SESSION_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Without it the cookie ends with the browser; the server still ends the session after a day,
 * because browsers that restore tabs also restore session cookies.
 */
export const BROWSER_SESSION_MS = 24 * 60 * 60 * 1000;

export interface NewSession {
  /** The bearer secret; only its hash is stored. */
  token: string;
  persistent: boolean;
  expiresAt: number;
}

export interface Session {
  userId: string;
  tokenHash: string;
  persistent: boolean;
  expiresAt: number;
}

const LIVE_QUERY_SLICE = 500;

/**
 * 'Last seen' is written at most this often per session: a write per request would double the
 * database work of every call, and the list shows the time to the minute anyway.
 */
export const LAST_SEEN_EVERY_MS = 60_000;
/** Longest User-Agent kept; real ones are about 150 characters. */
const USER_AGENT_MAX = 512;

/** A session's public id (SYNC_SPEC R80): not the token hash, which must never leave the server. */
export function publicSessionId(tokenHash: string): string {
  return hashToken(tokenHash, 'session-id').slice(0, 22);
}

/** Told the token hashes of sessions that just ended (logout, password change, recovery, expiry). */
export type SessionsEndedListener = (tokenHashes: readonly string[]) => void;

/**
 * Session tokens: random 32 bytes handed to the client, stored as SHA-256 only. Every way a
 * session ends goes through this class, which tells its listeners, so what outlives a request
 * (the sockets of /api/ws) ends with the session.
 */
export class SessionService {
  private readonly endedListeners = new Set<SessionsEndedListener>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** Calls `listener` after sessions end; returns the unsubscribe. */
  onEnded(listener: SessionsEndedListener): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  /**
   * `notAfter` (ms) ends the session sooner than its usual length: a passwordless session ends
   * when the account's last airdrop membership does.
   */
  async create(userId: string, persistent: boolean, notAfter?: number): Promise<NewSession> {
    const now = this.clock.now();
    const token = randomToken();
    const usual = now + (persistent ? PERSISTENT_SESSION_MS : BROWSER_SESSION_MS);
    const expiresAt = notAfter === undefined ? usual : Math.min(usual, notAfter);
    // Every way in (password, two-factor, recovery, wallet) ends here: one check covers them all.
    await assertAccountEnabled(this.db, userId);
    // Old sessions of this user are removed here rather than by a timer, so nothing runs in the background.
    this.ended(
      await this.db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', now).returning('token_hash').execute(),
    );
    await this.db
      .insertInto('sessions')
      .values({ token_hash: hashToken(token), user_id: userId, persistent: toDbBool(persistent), created_at: now, expires_at: expiresAt })
      .execute();
    return { token, persistent, expiresAt };
  }

  /**
   * The live session for `token`, or null (unknown or expired). `seen` records the request as the
   * session's last use and its browser (R80), at most once a minute or when the browser changed.
   */
  async authenticate(token: string, seen?: { userAgent: string | undefined }): Promise<Session | null> {
    const tokenHash = hashToken(token);
    const row = await this.db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    if (!row) return null;
    const now = this.clock.now();
    const expiresAt = Number(row.expires_at);
    if (expiresAt <= now) {
      await this.revoke(tokenHash);
      return null;
    }
    if (seen) {
      const userAgent = seen.userAgent?.slice(0, USER_AGENT_MAX) ?? null;
      const lastSeen = row.last_seen_at === null || row.last_seen_at === undefined ? null : Number(row.last_seen_at);
      if (lastSeen === null || now - lastSeen >= LAST_SEEN_EVERY_MS || (userAgent !== null && userAgent !== row.user_agent)) {
        await this.db
          .updateTable('sessions')
          .set({ last_seen_at: now, ...(userAgent !== null ? { user_agent: userAgent } : {}) })
          .where('token_hash', '=', tokenHash)
          .execute();
      }
    }
    return { userId: row.user_id, tokenHash, persistent: fromDbBool(row.persistent), expiresAt };
  }

  /** ACCOUNT_DISABLED when the operator disabled the account. */
  async assertEnabled(userId: string): Promise<void> {
    await assertAccountEnabled(this.db, userId);
  }

  async revoke(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    // Told even when the row was already gone: a socket may outlive a row another process removed.
    this.ended([{ token_hash: tokenHash }]);
  }

  /**
   * Ends every session of the user, except `keepTokenHash` when given; inside `trx` when given (an
   * account deletion: its sockets are told at once, even if that transaction is then rolled back).
   */
  async revokeAllForUser(userId: string, keepTokenHash?: string, trx: Kysely<Database> = this.db): Promise<number> {
    let query = trx.deleteFrom('sessions').where('user_id', '=', userId);
    if (keepTokenHash) query = query.where('token_hash', '!=', keepTokenHash);
    const rows = await query.returning('token_hash').execute();
    this.ended(rows);
    return rows.length;
  }

  /** The user's live sessions (R80), `currentTokenHash` first, then the most recently used. */
  async list(userId: string, currentTokenHash: string): Promise<SessionInfo[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('expires_at', '>', this.clock.now())
      .execute();
    const sessions = rows.map((row) => ({
      id: publicSessionId(row.token_hash),
      device: describeUserAgent(row.user_agent),
      createdAt: Number(row.created_at),
      lastSeenAt: row.last_seen_at === null || row.last_seen_at === undefined ? null : Number(row.last_seen_at),
      expiresAt: Number(row.expires_at),
      persistent: fromDbBool(row.persistent),
      isCurrent: row.token_hash === currentTokenHash,
    }));
    const recency = (s: SessionInfo) => s.lastSeenAt ?? s.createdAt;
    return sessions.sort((a, b) => Number(b.isCurrent) - Number(a.isCurrent) || recency(b) - recency(a));
  }

  /**
   * Ends the user's session whose public id is `sessionId`; false when the user has none such
   * (another user's id included: a user can end only their own sessions).
   */
  async revokeById(userId: string, sessionId: string): Promise<boolean> {
    const rows = await this.db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute();
    const row = rows.find((r) => publicSessionId(r.token_hash) === sessionId);
    if (!row) return false;
    await this.revoke(row.token_hash);
    return true;
  }

  /** Of `tokenHashes`, those whose session still exists and has not expired. */
  async liveOf(tokenHashes: readonly string[]): Promise<Set<string>> {
    const live = new Set<string>();
    // In slices: a thousand open sockets must not make one statement past the parameter limits.
    for (let at = 0; at < tokenHashes.length; at += LIVE_QUERY_SLICE) {
      const rows = await this.db
        .selectFrom('sessions')
        .select('token_hash')
        .where('token_hash', 'in', tokenHashes.slice(at, at + LIVE_QUERY_SLICE))
        .where('expires_at', '>', this.clock.now())
        .execute();
      for (const row of rows) live.add(row.token_hash);
    }
    return live;
  }

  private ended(rows: readonly { token_hash: string }[]): void {
    if (rows.length === 0) return;
    const hashes = rows.map((row) => row.token_hash);
    for (const listener of this.endedListeners) listener(hashes);
  }
}

/** The text a disabled account's login answers (issue 20: the operator disabled it with `npm run admin -- disable`). */
export const ACCOUNT_DISABLED_MESSAGE = 'This account has been disabled. Please contact the operator of this server.';

/** Throws ACCOUNT_DISABLED when the operator disabled `userId`. */
export async function assertAccountEnabled(db: Kysely<Database>, userId: string): Promise<void> {
  const row = await db.selectFrom('users').select('disabled_at').where('id', '=', userId).executeTakeFirst();
  if (row?.disabled_at !== null && row?.disabled_at !== undefined) throw new ApiError('ACCOUNT_DISABLED', ACCOUNT_DISABLED_MESSAGE);
}
