/**
 * Issue 24: one API key per account (spec 002 sections 3 and 9; docs/decisions.md, "The developer
 * API (issue 24): API keys"). The row holds the SHA-256 of the key, never the key, and its last 4
 * characters to recognise it by. The usage counters live on the same row and survive a rotation:
 * the limit is the account's, not one key's, so rotating cannot reset it.
 *
 * - `key_hash`: unique, the look-up of every request made with a key.
 * - `period_start`: epoch ms of the start of the period `used` counts in (UTC day or month); a
 *   request in a later period starts `used` again at 1.
 *
 * Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('period_start', 'bigint', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
}
