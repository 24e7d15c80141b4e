/**
 * Counting requests per key in fixed windows, for the rate limits (@fastify/rate-limit) and the
 * per-account minute budgets (minuteBudget.ts). In memory for one process (SQLite); in the
 * `rate_limit_counters` table (migration 0013) when several processes share one PostgreSQL, so
 * that N processes do not give N times the allowance (issue 20, docs/decisions.md).
 *
 * A window starts at a key's first request and lasts `windowMs`, as @fastify/rate-limit's own
 * memory store does; the count of a key whose window ended starts again at 1.
 */
import type { FastifyRateLimitOptions } from '@fastify/rate-limit';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/Database';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the current window ends (ms since the epoch). */
  endsAt: number;
}

export interface RateCounters {
  /** Counts one request for `key` at `now`, atomically with every other process. */
  hit(key: string, windowMs: number, now: number): Promise<WindowCount>;
}

/** One process: a map, ended windows forgotten as new ones start. */
export class MemoryRateCounters implements RateCounters {
  private readonly windows = new Map<string, WindowCount>();

  async hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const current = this.windows.get(key);
    if (current && current.endsAt > now) {
      current.count += 1;
      return { ...current };
    }
    for (const [other, window] of this.windows) if (window.endsAt <= now) this.windows.delete(other);
    const fresh = { count: 1, endsAt: now + windowMs };
    this.windows.set(key, fresh);
    return { ...fresh };
  }
}

/** How often a process sweeps ended windows from the table. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Several processes: one upsert per request, which PostgreSQL runs atomically per key (the row is
 * locked by ON CONFLICT DO UPDATE), so concurrent requests through different processes each get
 * their own count.
 */
export class DatabaseRateCounters implements RateCounters {
  private nextSweep = 0;

  constructor(private readonly db: Kysely<Database>) {}

  async hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
    const ended = sql<boolean>`rate_limit_counters.window_ends_at <= ${now}`;
    const row = await this.db
      .insertInto('rate_limit_counters')
      .values({ key, count: 1, window_ends_at: now + windowMs })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql`case when ${ended} then 1 else rate_limit_counters.count + 1 end`,
          window_ends_at: sql`case when ${ended} then excluded.window_ends_at else rate_limit_counters.window_ends_at end`,
        }),
      )
      .returning(['count', 'window_ends_at'])
      .executeTakeFirstOrThrow();
    if (now >= this.nextSweep) {
      this.nextSweep = now + SWEEP_EVERY_MS;
      // Rows of keys not seen again; a key seen again restarts its own row above.
      await this.db.deleteFrom('rate_limit_counters').where('window_ends_at', '<', now - SWEEP_EVERY_MS).execute();
    }
    return { count: Number(row.count), endsAt: Number(row.window_ends_at) };
  }
}

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * @fastify/rate-limit's `store` option over `counters`: a class, as the plugin constructs it. Each
 * limited route's store (`child`) prefixes its keys with the route, as the plugin's Redis store
 * does, so two limits that make the same key do not share a count.
 */
export function rateLimitStoreOver(counters: RateCounters) {
  return class CountersStore {
    constructor(
      _options?: FastifyRateLimitOptions,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = Date.now();
      counters.hit(`${this.prefix}${key}`, timeWindow, now).then(
        ({ count, endsAt }) => callback(null, { current: count, ttl: Math.max(0, endsAt - now) }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /** The plugin passes the route's merged limit options, its route under `routeInfo` (empty for createRateLimit). */
    child(routeOptions: object): CountersStore {
      const route: unknown = Reflect.get(routeOptions, 'routeInfo');
      const url: unknown = route && typeof route === 'object' ? Reflect.get(route, 'url') : undefined;
      const method: unknown = route && typeof route === 'object' ? Reflect.get(route, 'method') : undefined;
      return new CountersStore(undefined, `rl|${typeof url === 'string' ? `${String(method)} ${url}|` : ''}`);
    }
  };
}
