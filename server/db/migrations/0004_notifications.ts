/**
 * Notifications of vault activity (docs/SYNC_SPEC.md R30): `count` for a coalesced run of the
 * same event by the same author in the same vault, `priority` (HIGH shows the notice bar), and
 * `updated_at`, when the run last grew. The index serves the coalescing lookup.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('count', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('notifications').addColumn('priority', 'text', (c) => c.notNull().defaultTo('NORMAL')).execute();
  await db.schema.alterTable('notifications').addColumn('updated_at', 'bigint').execute();
  await db.schema.createIndex('notifications_user_vault_event').on('notifications').columns(['user_id', 'vault_id', 'event']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('notifications_user_vault_event').execute();
  await db.schema.alterTable('notifications').dropColumn('updated_at').execute();
  await db.schema.alterTable('notifications').dropColumn('priority').execute();
  await db.schema.alterTable('notifications').dropColumn('count').execute();
}
