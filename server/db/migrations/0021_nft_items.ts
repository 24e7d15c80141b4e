/**
 * Issue 23: Atomic NFTs and collections (spec 002; SYNC_SPEC R136-R140). An NFT or a collection is
 * a `storage_transactions` row of kind 'nft' or 'collection' (the `kind` column of 0010 is free
 * text), so the relay claims, bundles, posts, polls and retries it like a file version.
 *
 * - `nft_plan`: the item's plan as JSON (server/arweave/nftItems.ts): an NFT's tags; a collection's
 *   tags without the item ids the relay learns later, and the row ids of its NFTs' rows (in
 *   `nftIds` order), its thumbnail's and its banner's. Null for versions and history runs.
 * - An NFT row's `file_id` is the NFT id, its `version_id` and `blob_id` its asset version's. A
 *   collection has no blob of its own (its data is made from its NFTs' item ids): its `blob_id` is
 *   '' as a history run's (0010), its `file_id` the collection id and its `version_id`
 *   `collection:{collectionId}`, which the column's unique index keeps to one row a collection.
 * - `ops_object`: an object id is used once (R136), looked up across vaults by id and type.
 *
 * Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('storage_transactions').addColumn('nft_plan', 'text').execute();
  // GET /vaults/{id}/nfts/chain reads by (vault_id, kind): the index of 0010 starts with those.
  // R136: an NFT or collection id is used once on the server, looked up by object id and type.
  await db.schema.createIndex('ops_object').on('ops').columns(['object_id', 'type']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('ops_object').execute();
  await db.schema.alterTable('storage_transactions').dropColumn('nft_plan').execute();
}
