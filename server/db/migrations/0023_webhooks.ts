/**
 * Issue 24: webhooks (spec 002 sections 3, 4 and 7; docs/decisions.md "The developer API (issue
 * 24): webhooks"). One webhook per account (the primary key on `user_id`'s unique index), with the
 * secret it signs with: the server must sign, so it keeps the secret, and shows it once.
 *
 * `webhook_deliveries` is both the queue and the log: a row is one attempt of one event. While
 * `attempted_at` is null it waits for `next_attempt_at`; once attempted it is a log entry (status
 * code, response, delivered or not), and a failed attempt with retries left queues the next one
 * as a new row with the same `event_id` (Standard Webhooks `webhook-id`) and payload. Deleting a
 * webhook deletes its queue and log. Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_user').on('webhooks').column('user_id').unique().execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('delivered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('attempted_at', 'bigint')
    .execute();
  // The dispatcher's "what is due" and the log's newest-first keyset pages.
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['attempted_at', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['user_id', 'attempted_at', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').column('webhook_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
