/**
 * Issue 21: claims of the U token to an outside Arweave address (SYNC_SPEC R120). The amount leaves
 * the user's balance as a signed 'claim' entry in the ledger (its id is the claim's id, so the two
 * are one record); this table is the operator's to-do list: which claims are still to be paid out
 * on the network (`open`) and which were (`settled`, with the network transaction's id).
 * Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('claims')
    // The ledger entry's id: one claim per entry, and a replayed entry is refused by both.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull().unique())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('tx_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint')
    .execute();
  await db.schema.createIndex('claims_user').on('claims').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('claims_status').on('claims').columns(['status', 'created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('claims').execute();
}
