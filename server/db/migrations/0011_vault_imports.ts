/**
 * Issue 19, SYNC_SPEC R91-R93: a vault's verified history imported onto this server page by page.
 * `vault_imports` holds one row per imported vault: who imports it, the next seq it expects, and
 * whether it is done (an import in progress is the importer's alone), and the id this server gave
 * the creator's membership until the history names the one it had (SYNC_SPEC R92). `blobs.import_hashes` is set
 * on the versions an import committed before their bytes were here: the signed chunk hashes (a
 * JSON list of hex), so the restoring device can upload exactly those bytes afterwards.
 * Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('vault_imports')
    .addColumn('vault_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('next_seq', 'bigint', (c) => c.notNull())
    .addColumn('creator_membership_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('blobs').addColumn('import_hashes', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('blobs').dropColumn('import_hashes').execute();
  await db.schema.dropTable('vault_imports').execute();
}
