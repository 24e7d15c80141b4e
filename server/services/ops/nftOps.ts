/**
 * nft.mint and nft.collection (spec 002 section 6; docs/SYNC_SPEC.md R136, R137): accepted only in
 * an ACTIVE public permanent vault (role and archive checks ran before these). A mint's version is
 * a public one, committed and counted like file.create's (versionRules.ts), and scheduled as a
 * storage row of kind 'nft' whose plan holds the item's tags; a collection's thumbnail and banner
 * are ordinary version rows, and the collection's own row (kind 'collection') names them and its
 * NFTs' rows, whose item ids the relay waits for (server/arweave/nftItems.ts).
 */
import { collectionItemDataSize, nftItemTags } from '../../../src/protocol/nfts';
import { ApiError } from '../../../src/protocol/errors';
import type { FileVersion, OperationBody } from '../../../src/protocol/vaults';
import type { CollectionItemPlan, NftItemPlan } from '../../arweave/nftItems';
import { scheduledRow } from '../../arweave/storageTransactionRows';
import { randomId } from '../tokens';
import type { VaultOpContext } from './OpContext';
import { checkThumbnailBlob, commitThumbnail } from './thumbnailRules';
import { checkVersionBlob, commitVersion } from './versionRules';

type NftOpBody = Extract<OperationBody, { type: 'nft.mint' | 'nft.collection' }>;

const NFT_TYPES = ['nft.mint', 'nft.collection'] as const;

export function isNftOp(body: OperationBody): body is NftOpBody {
  return body.type === 'nft.mint' || body.type === 'nft.collection';
}

function invalid(message: string): ApiError {
  return new ApiError('INVALID_OPERATION', message);
}

export async function applyNftOp(ctx: VaultOpContext, body: NftOpBody): Promise<void> {
  const { vault } = ctx;
  if (!vault.isPublic || vault.isCloud) throw invalid('NFTs are minted only in public permanent vaults');
  if (vault.status !== 'ACTIVE') throw invalid('NFTs are minted only in active vaults');
  await assertNewId(ctx, ctx.op.objectId);
  if (body.type === 'nft.mint') return mint(ctx, body);
  return closeCollection(ctx, body);
}

async function mint(ctx: VaultOpContext, body: Extract<NftOpBody, { type: 'nft.mint' }>): Promise<void> {
  const { op } = ctx;
  const contentType = publicMimeType(body.version);
  if (body.collectionId !== null) {
    if (body.collectionId === op.objectId) throw invalid('An NFT is not its own collection');
    if (await objectIdUsed(ctx, body.collectionId)) throw invalid('The collection is already minted, or its id is used');
  }
  const blob = await checkVersionBlob(ctx, body.version);
  const thumbnail = await checkThumbnailBlob(ctx, body.version);
  const plan: NftItemPlan = {
    kind: 'nft',
    tags: nftItemTags({ nftId: op.objectId, collectionId: body.collectionId, metadata: body.metadata, udl: body.udl, ucm: body.ucm, contentType }),
  };
  await commitVersion(ctx, blob, op.objectId, body.version, { kind: 'nft', nft_plan: JSON.stringify(plan), public_name: body.metadata.name });
  await commitThumbnail(ctx, thumbnail, op.objectId);
}

async function closeCollection(ctx: VaultOpContext, body: Extract<NftOpBody, { type: 'nft.collection' }>): Promise<void> {
  const { trx, op, vault, now } = ctx;
  const collectionId = op.objectId;
  if (new Set(body.nftIds).size !== body.nftIds.length) throw invalid('Each NFT is listed once in its collection');
  const mints = await trx.selectFrom('ops').select(['object_id', 'body']).where('vault_id', '=', vault.id).where('type', '=', 'nft.mint').execute();
  const collectionOf = new Map(mints.map((row) => [row.object_id, (JSON.parse(row.body) as { body: { collectionId: string | null } }).body.collectionId]));
  for (const nftId of body.nftIds) {
    if (!collectionOf.has(nftId)) throw invalid(`The NFT ${nftId} is not minted in this vault`);
    if (collectionOf.get(nftId) !== collectionId) throw invalid(`The NFT ${nftId} belongs to another collection`);
  }
  const listed = new Set(body.nftIds);
  const left = [...collectionOf].filter(([nftId, of]) => of === collectionId && !listed.has(nftId));
  if (left.length > 0) throw invalid(`The collection leaves out its NFT ${left[0]![0]}`);

  for (const version of [body.thumbnail, body.banner]) if (version) publicMimeType(version);
  if (body.thumbnail && body.banner && body.thumbnail.blobId === body.banner.blobId) throw invalid('The thumbnail and the banner are uploads of their own');
  const thumbnailBlob = body.thumbnail ? await checkVersionBlob(ctx, body.thumbnail) : null;
  const bannerBlob = body.banner ? await checkVersionBlob(ctx, body.banner) : null;
  const thumbnailRowId = thumbnailBlob && body.thumbnail ? await commitVersion(ctx, thumbnailBlob, collectionId, body.thumbnail) : null;
  const bannerRowId = bannerBlob && body.banner ? await commitVersion(ctx, bannerBlob, collectionId, body.banner) : null;
  // An imported history is on the network already (R85): nothing is scheduled, as for versions.
  if (ctx.importing) return;

  const rows = await trx.selectFrom('storage_transactions').select(['id', 'file_id']).where('vault_id', '=', vault.id).where('kind', '=', 'nft').where('file_id', 'in', body.nftIds).execute();
  const rowOf = new Map(rows.map((row) => [row.file_id, row.id]));
  const nftRowIds = body.nftIds.map((nftId) => rowOf.get(nftId));
  if (nftRowIds.some((id) => id === undefined)) throw invalid('An NFT of the collection has no item to list');
  const plan: CollectionItemPlan = {
    kind: 'collection',
    collectionId,
    metadata: body.metadata,
    udl: body.udl,
    ucm: body.ucm,
    nftRowIds: nftRowIds as string[],
    thumbnailRowId,
    bannerRowId,
  };
  await trx
    .insertInto('storage_transactions')
    .values(
      scheduledRow({
        id: randomId(),
        vault_id: vault.id,
        file_id: collectionId,
        // Unique: one collection row per collection (migration 0021).
        version_id: `collection:${collectionId}`,
        // A collection's data is made from its NFTs' item ids: it has no blob (docs/decisions.md).
        blob_id: '',
        uploader_user_id: ctx.userId,
        size: collectionItemDataSize(body.nftIds.length),
        public_name: body.metadata.name,
        content_type: 'application/json',
        kind: 'collection',
        nft_plan: JSON.stringify(plan),
        created_at: now,
      }),
    )
    .execute();
}

/** R136: a minted version is public: a clear MIME type and no file key. */
function publicMimeType(version: FileVersion): string {
  if (!('clear' in version.mimeType) || version.fileKey !== undefined) throw invalid('An NFT is public: its file is not encrypted');
  return version.mimeType.clear;
}

/** R136: an object id is used once: no node, vault, NFT or collection has it. */
async function assertNewId(ctx: VaultOpContext, id: string): Promise<void> {
  if (await objectIdUsed(ctx, id)) throw invalid('The object id is already used');
}

async function objectIdUsed(ctx: VaultOpContext, id: string): Promise<boolean> {
  const { trx } = ctx;
  const node = await trx.selectFrom('nodes').select('id').where('id', '=', id).executeTakeFirst();
  const vault = await trx.selectFrom('vaults').select('id').where('id', '=', id).executeTakeFirst();
  const minted = await trx.selectFrom('ops').select('seq').where('object_id', '=', id).where('type', 'in', [...NFT_TYPES]).executeTakeFirst();
  return node !== undefined || vault !== undefined || minted !== undefined;
}
