/**
 * Issue 20, the operator's admin command (server/admin): an account can be disabled
 * (`users.disabled_at`, null: enabled), given its own storage allowances (`users.cloud_allowance`,
 * `users.permanent_allowance`, null: the server's CLOUD_STORAGE_BYTES / PERMANENT_STORAGE_BYTES),
 * a support report can be closed (`support_reports.closed_at`), and every change the command makes
 * is kept in `admin_actions` (who ran it, what, on whom, when). Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('cloud_allowance', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('permanent_allowance', 'bigint').execute();
  await db.schema.alterTable('support_reports').addColumn('closed_at', 'bigint').execute();
  await db.schema
    .createTable('admin_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('details', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('admin_actions_created').on('admin_actions').column('created_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('admin_actions').execute();
  await db.schema.alterTable('support_reports').dropColumn('closed_at').execute();
  await db.schema.alterTable('users').dropColumn('permanent_allowance').execute();
  await db.schema.alterTable('users').dropColumn('cloud_allowance').execute();
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
}
