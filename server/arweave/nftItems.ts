/**
 * The plan of an NFT's or a collection's data item (SYNC_SPEC R137), kept as JSON in
 * `storage_transactions.nft_plan` (migration 0021) by the operation that mints it and read by the
 * relay when it signs the item. An NFT's tags are known when it is minted; a collection's need its
 * thumbnail's and banner's item ids and its data its NFTs', which exist only once those rows are
 * bundled, so its plan names those rows instead.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { NftChainStates, NftCollectionMetadata, Udl } from '../../src/protocol/nfts';
import type { Database } from '../db/Database';
import type { Clock } from '../services/Clock';
import { requireAccess } from '../services/vaultAccess';

const Tag = z.strictObject({ name: z.string(), value: z.string() });

export const NftItemPlan = z.strictObject({ kind: z.literal('nft'), tags: z.array(Tag) });
export type NftItemPlan = z.infer<typeof NftItemPlan>;

export const CollectionItemPlan = z.strictObject({
  kind: z.literal('collection'),
  collectionId: z.string(),
  metadata: NftCollectionMetadata,
  udl: Udl.nullable(),
  ucm: z.boolean(),
  /** The storage rows of the collection's NFTs, in `nftIds` order. */
  nftRowIds: z.array(z.string()).min(1),
  thumbnailRowId: z.string().nullable(),
  bannerRowId: z.string().nullable(),
});
export type CollectionItemPlan = z.infer<typeof CollectionItemPlan>;

export const ItemPlan = z.discriminatedUnion('kind', [NftItemPlan, CollectionItemPlan]);
export type ItemPlan = z.infer<typeof ItemPlan>;

export function readItemPlan(json: string | null): ItemPlan | null {
  if (json === null) return null;
  const parsed = ItemPlan.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : null;
}

/** The rows a collection's item waits for (R137): its NFTs', thumbnail's and banner's. */
export function namedRowIds(plan: CollectionItemPlan): string[] {
  return [...plan.nftRowIds, ...(plan.thumbnailRowId ? [plan.thumbnailRowId] : []), ...(plan.bannerRowId ? [plan.bannerRowId] : [])];
}


/**
 * R140: every NFT and collection row of a vault, oldest first: where its item is on the network.
 * The caller has checked who may read it (a member, or anyone for a public vault).
 */
export async function nftChainStates(db: Kysely<Database>, vaultId: string): Promise<NftChainStates> {
  const rows = await db
    .selectFrom('storage_transactions')
    .select(['file_id', 'kind', 'data_item_id', 'tx_id', 'status'])
    .where('vault_id', '=', vaultId)
    .where('kind', 'in', ['nft', 'collection'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return NftChainStates.parse({
    items: rows.map((row) => ({ objectId: row.file_id, kind: row.kind, dataItemId: row.data_item_id, txId: row.tx_id, status: row.status })),
  });
}

/** GET /vaults/{vaultId}/nfts/chain (R140): for any member who may read the vault (the vault routes' 404 and 403 otherwise). */
export class NftChainService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async forMember(userId: string, vaultId: string): Promise<NftChainStates> {
    await requireAccess(this.db, vaultId, userId, 'read', this.clock.now());
    return nftChainStates(this.db, vaultId);
  }
}
