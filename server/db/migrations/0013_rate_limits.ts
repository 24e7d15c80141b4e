/**
 * Issue 20, several processes on one PostgreSQL: rate limits counted in the database, so N
 * processes do not give N times the allowance (server/http/rateCounters.ts). One row per limit
 * key (the route and the address or account it limits): the requests counted in its current
 * window and when that window ends. Used on PostgreSQL only (SQLite is one process and counts in
 * memory), created on both so the schema is one. Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('window_ends_at', 'bigint', (c) => c.notNull())
    .execute();
  // Ended windows are swept by their end.
  await db.schema.createIndex('rate_limit_counters_window_ends_at').on('rate_limit_counters').column('window_ends_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('rate_limit_counters').execute();
}
