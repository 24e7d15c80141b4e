/**
 * Vaults, memberships, the server's structural view of folders and files, the per-vault operation
 * log, and uploaded blobs with their chunks. Portable between SQLite and PostgreSQL: text, integer,
 * bigint (bytes and epoch ms), booleans as integer 0/1.
 *
 * Nothing here holds a user text of a private vault in clear: names, descriptions, tags and MIME
 * types exist only inside `ops.body` as sealed fields; `blob_chunks` holds only sizes and hashes.
 * Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('vaults')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('is_public', 'integer', (c) => c.notNull())
    .addColumn('is_cloud', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('head_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vaults_owner_user_id').on('vaults').column('owner_user_id').execute();

  await db.schema
    .createTable('memberships')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('vault_id', 'text', (c) => c.notNull().references('vaults.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('keys', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('memberships_vault_user', ['vault_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user_id').on('memberships').column('user_id').execute();

  await db.schema
    .createTable('nodes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('vault_id', 'text', (c) => c.notNull().references('vaults.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    // No foreign key: a parent is checked by the operation rules, and deleting a folder keeps rows.
    .addColumn('parent_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('version_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_version_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('nodes_vault_parent').on('nodes').columns(['vault_id', 'parent_id']).execute();

  await db.schema
    .createTable('ops')
    .addColumn('vault_id', 'text', (c) => c.notNull().references('vaults.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('op_id', 'text', (c) => c.notNull().unique())
    // No foreign key: an author's operations outlive the author's account in shared vaults.
    .addColumn('author_user_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ops_pk', ['vault_id', 'seq'])
    .execute();

  await db.schema
    .createTable('blobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('vault_id', 'text', (c) => c.notNull().references('vaults.id').onDelete('cascade'))
    .addColumn('uploader_user_id', 'text', (c) => c.notNull())
    .addColumn('charged_user_id', 'text', (c) => c.notNull())
    .addColumn('is_cloud', 'integer', (c) => c.notNull())
    .addColumn('stored_size', 'bigint', (c) => c.notNull())
    .addColumn('chunk_count', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // Set when a file operation commits the blob as one of the file's versions.
    .addColumn('node_id', 'text')
    .addColumn('version_id', 'text', (c) => c.unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blobs_charged_user_id').on('blobs').column('charged_user_id').execute();
  await db.schema.createIndex('blobs_vault_node').on('blobs').columns(['vault_id', 'node_id']).execute();

  await db.schema
    .createTable('blob_chunks')
    .addColumn('blob_id', 'text', (c) => c.notNull().references('blobs.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_chunks_pk', ['blob_id', 'idx'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['blob_chunks', 'blobs', 'ops', 'nodes', 'memberships', 'vaults']) {
    await db.schema.dropTable(table).execute();
  }
}
