/**
 * Issue 21, the U token: the ledger of signed entries (docs/SYNC_SPEC.md R105-R109,
 * src/protocol/ledger.ts). `ledger_entries` is the chain as served, one row per entry in seq order,
 * with its hash; `ledger_head` is its one head row, which every append updates first (PostgreSQL
 * locks it, SQLite takes its write lock), so appends are serialized across processes and a seq is
 * never given twice; `ledger_balances` is the replay so far per address, kept with each append so
 * a check does not replay the whole chain. Amounts and balances are decimal text (millionths of a
 * U): exact on both engines whatever their size. Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('ledger_entries')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    // A transfer's id is the sender's: a replay is refused by this constraint even if a check missed it.
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text')
    .addColumn('from_key', 'text')
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('amount', 'text', (c) => c.notNull())
    // A reward's storage transaction: credited once, whichever process or restart tries again.
    // Transfers have none (NULLs never collide on either engine).
    .addColumn('reason', 'text', (c) => c.unique())
    .addColumn('prev', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // An account's entries, newest first (GET /utoken/entries).
  await db.schema.createIndex('ledger_entries_to_address').on('ledger_entries').columns(['to_address', 'seq']).execute();
  await db.schema.createIndex('ledger_entries_from_address').on('ledger_entries').columns(['from_address', 'seq']).execute();
  await db.schema
    .createTable('ledger_balances')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('balance', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('ledger_head')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db.insertInto('ledger_head').values({ id: 1, seq: 0, hash: '0'.repeat(64) }).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['ledger_head', 'ledger_balances', 'ledger_entries']) await db.schema.dropTable(table).execute();
}
