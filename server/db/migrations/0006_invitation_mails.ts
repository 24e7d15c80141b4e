/**
 * Invitation e-mails sent (issue 18): one row per invitation or resend e-mailed, so the sends of
 * the last hour can be counted per invitee and per vault (docs/decisions.md, "Invitation e-mails
 * are rate-limited") on every server process alike. Rows older than the window are pruned as new
 * ones are written. Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('invitation_mails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('vault_id', 'text', (c) => c.notNull().references('vaults.id').onDelete('cascade'))
    .addColumn('invitee_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invitation_mails_vault_sent').on('invitation_mails').columns(['vault_id', 'sent_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('invitation_mails').execute();
}
