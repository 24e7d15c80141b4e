/**
 * What the operation log weighs (docs/decisions.md, "Operation bytes"): each operation's body size
 * in bytes, so a pull page can stop at a byte cap without reading the bodies it leaves out; each
 * vault's running total, charged to its owner's cloud storage; and per note and base version the
 * note.draft operations accepted so far and the characters of their updates, for the draft limit
 * (SYNC_SPEC R63). Append-only: never edit once shipped.
 */
import { type Kysely, sql } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('ops').addColumn('body_bytes', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  // Existing logs: `length` counts characters on both engines, which is the byte count of the
  // ASCII canonical JSON of sealed vaults and a close figure for public vaults' clear names.
  await sql`update ops set body_bytes = length(body)`.execute(db);
  // Covers the page's size scan (vault_id, seq > after, in order): read from the index alone,
  // never from the rows whose bodies the page may leave out.
  await db.schema.createIndex('ops_sizes').on('ops').columns(['vault_id', 'seq', 'body_bytes']).execute();

  await db.schema.alterTable('vaults').addColumn('op_bytes', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update vaults set op_bytes = coalesce((select sum(o.body_bytes) from ops o where o.vault_id = vaults.id), 0)`.execute(db);

  // Each pushed operation checks the owner's room: live reservations by index, not by reading
  // every blob the account holds (StorageService.cloudUsedFromTotals).
  await db.schema.createIndex('blobs_charged_status').on('blobs').columns(['charged_user_id', 'status', 'expires_at']).execute();

  await db.schema
    .createTable('note_drafts')
    .addColumn('vault_id', 'text', (c) => c.notNull().references('vaults.id').onDelete('cascade'))
    .addColumn('note_id', 'text', (c) => c.notNull())
    .addColumn('base_version_id', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('note_drafts_pk', ['note_id', 'base_version_id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('note_drafts').execute();
  await db.schema.dropIndex('blobs_charged_status').execute();
  await db.schema.alterTable('vaults').dropColumn('op_bytes').execute();
  await db.schema.dropIndex('ops_sizes').execute();
  await db.schema.alterTable('ops').dropColumn('body_bytes').execute();
}
