/**
 * A permanent vault's history on the network (issue 19, SYNC_SPEC R84): every accepted operation
 * also goes to the gateway in *runs* (consecutive seqs of one vault in one data item).
 *
 * - `vaults.history_seq`: the last seq put in a run (0: none yet). The relay advances it with a
 *   conditional update (`where history_seq = previous`) in the transaction that records the run,
 *   so two processes never make two runs of one seq.
 * - A run is a `storage_transactions` row with `kind = 'history'` and its `seq_from`/`seq_to`, so
 *   the relay claims, bundles, posts, polls and retries it with the very code and statuses of a
 *   file version (R35, R36, R66a) and the storage page counts it. A sibling table would have
 *   doubled every status query of the relay. File versions are `kind = 'version'` (the default,
 *   so rows from before this migration are versions).
 * - A run has no file, version or blob, but those columns are NOT NULL since 0005 (SQLite cannot
 *   relax that without rebuilding the table): a run's `file_id` and `blob_id` are '' and its
 *   `version_id` is `history:{vaultId}:{seqFrom}`, which the column's unique index makes a second
 *   guard against one seq going in two runs. `uploader_user_id` is the vault owner, who is charged
 *   for it (R84); GET /storage/transactions lists versions only.
 *
 * Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('vaults').addColumn('history_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('storage_transactions').addColumn('kind', 'text', (c) => c.notNull().defaultTo('version')).execute();
  await db.schema.alterTable('storage_transactions').addColumn('seq_from', 'bigint').execute();
  await db.schema.alterTable('storage_transactions').addColumn('seq_to', 'bigint').execute();
  // GET /vaults/{id}/history-items pages a vault's runs in seq order.
  await db.schema.createIndex('storage_transactions_history').on('storage_transactions').columns(['vault_id', 'kind', 'seq_from']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('storage_transactions_history').execute();
  await db.schema.alterTable('storage_transactions').dropColumn('seq_to').execute();
  await db.schema.alterTable('storage_transactions').dropColumn('seq_from').execute();
  await db.schema.alterTable('storage_transactions').dropColumn('kind').execute();
  await db.schema.alterTable('vaults').dropColumn('history_seq').execute();
}
