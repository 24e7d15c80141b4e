/**
 * Permanent storage (docs/SYNC_SPEC.md R34-R37): one `storage_transactions` row per committed file
 * version of a permanent vault, and one `storage_bundles` row per signed Arweave transaction. The
 * bundle's signed header is kept (its data lives in the blob store) so a restart re-posts the SAME
 * transaction and never signs a second one for the same versions.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('storage_bundles')
    .addColumn('tx_id', 'text', (c) => c.primaryKey())
    .addColumn('header', 'text', (c) => c.notNull())
    .addColumn('data_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('storage_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Like blobs: the rows go with a vault removed for good (an account deletion).
    .addColumn('vault_id', 'text', (c) => c.notNull().references('vaults.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('version_id', 'text', (c) => c.notNull().unique())
    .addColumn('blob_id', 'text', (c) => c.notNull())
    .addColumn('uploader_user_id', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('data_item_id', 'text')
    .addColumn('tx_id', 'text')
    .addColumn('reward', 'text')
    .addColumn('public_name', 'text')
    .addColumn('content_type', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('storage_transactions_uploader').on('storage_transactions').columns(['uploader_user_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('storage_transactions_status').on('storage_transactions').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('storage_transactions_tx').on('storage_transactions').column('tx_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('storage_transactions').execute();
  await db.schema.dropTable('storage_bundles').execute();
}
