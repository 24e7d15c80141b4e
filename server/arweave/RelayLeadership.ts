/**
 * Which process runs the permanent relay when several share one PostgreSQL (issue 20,
 * docs/decisions.md "One relay leader per database"). The relay's loop asks `lead()` before
 * every pass and runs the pass only when it answers true, so a bundle is posted by one process.
 *
 * On PostgreSQL the leader holds a session-level advisory lock on a connection of its own: the lock
 * lives exactly as long as that session, so a leader that dies (crash, kill, lost network) frees it
 * with its connection and another process takes it at its next pass. SQLite is one process by
 * design: that process always leads.
 */
import pg from 'pg';

export interface RelayLeadership {
  /** Whether this process leads now: takes the lead when it is free, checks it is still held. */
  lead(): Promise<boolean>;
  /** Whether the lead is still held, without a round trip (checked between steps of a pass). */
  isLeading(): boolean;
  /** Gives the lead up (the process stops relaying). */
  release(): Promise<void>;
}

/** One process on its database (SQLite, or a relay a test drives alone). */
export const soleLeadership: RelayLeadership = {
  lead: async () => true,
  isLeading: () => true,
  release: async () => undefined,
};

/**
 * The advisory lock's key: one per database (PostgreSQL scopes advisory locks to the database), a
 * constant so that every Cairn process on it agrees. 0x43616972 is "Cair".
 */
export const RELAY_LOCK_KEY = 0x43616972;

/** A query on the lock connection that takes longer than this means the session is gone. */
const LOCK_QUERY_TIMEOUT_MS = 10_000;

interface Logger {
  info(object: unknown, message?: string): void;
  warn(object: unknown, message?: string): void;
}

export class PostgresRelayLeadership implements RelayLeadership {
  private client: pg.Client | null = null;
  private held = false;
  private released = false;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
  ) {}

  async lead(): Promise<boolean> {
    if (this.released) return false;
    try {
      const client = await this.connection();
      if (this.held) {
        // The session still answering is the lock still held: session locks end only with it.
        await client.query('select 1');
        return this.held;
      }
      const result = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [RELAY_LOCK_KEY]);
      this.held = result.rows[0]?.locked === true;
      if (this.held) this.log.info({ lockKey: RELAY_LOCK_KEY }, 'this process now runs the permanent relay');
      return this.held;
    } catch (error) {
      this.log.warn({ err: error }, 'the relay lock connection failed; not relaying until it is back');
      this.drop();
      return false;
    }
  }

  isLeading(): boolean {
    return this.held;
  }

  async release(): Promise<void> {
    this.released = true;
    const client = this.client;
    this.client = null;
    this.held = false;
    // Ending the session frees the lock at once (no unlock needed, none forgotten).
    await client?.end().catch(() => undefined);
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.url, query_timeout: LOCK_QUERY_TIMEOUT_MS, keepAlive: true });
    client.on('error', (error) => {
      if (this.client !== client) return;
      this.log.warn({ err: error }, 'the relay lock connection was lost');
      this.drop();
    });
    client.on('end', () => {
      if (this.client === client) this.drop();
    });
    await client.connect();
    this.client = client;
    return client;
  }

  /** The session is gone or going: whatever lock it held is released with it. */
  private drop(): void {
    const client = this.client;
    this.client = null;
    this.held = false;
    client?.end().catch(() => undefined);
  }
}
