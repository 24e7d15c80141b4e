/**
 * Members and sharing (issue 5): the vault key ring's size and a pending rotation on `vaults`;
 * who invited, airdrop expiry and upload allowance on `memberships`; in-app notifications; and
 * the one-time challenges of passwordless (airdrop) logins. Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('vaults').addColumn('key_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('vaults').addColumn('needs_rotation', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Private vaults made before this migration have one key.
  await db.updateTable('vaults').set({ key_count: 1 }).where('is_public', '=', 0).execute();

  await db.schema.alterTable('memberships').addColumn('invited_by_user_id', 'text').execute();
  await db.schema.alterTable('memberships').addColumn('expires_at', 'bigint').execute();
  await db.schema.alterTable('memberships').addColumn('storage_allowance', 'bigint').execute();
  await db.schema.createIndex('memberships_vault_id').on('memberships').column('vault_id').execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('vault_id', 'text')
    // Spec 000 section 3: MEMBERSHIP_INVITE, MEMBERSHIP_REVOKE, ...
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('object_type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('from_user_id', 'text')
    // 'UNREAD' | 'READ'.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_user_created').on('notifications').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('wallet_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('public_signing_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('wallet_challenges').execute();
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropIndex('memberships_vault_id').execute();
  for (const column of ['storage_allowance', 'expires_at', 'invited_by_user_id']) {
    await db.schema.alterTable('memberships').dropColumn(column).execute();
  }
  for (const column of ['needs_rotation', 'key_count']) await db.schema.alterTable('vaults').dropColumn(column).execute();
}
