/**
 * Atomic NFTs and collections (spec 002 sections 2-9, docs/SYNC_SPEC.md R136-R141): the metadata
 * and Universal Data License (UDL) a mint carries in its signed operation, and the tags of the
 * ANS-104 data items the relay makes of them. One definition for the app's forms, the server's
 * checks, the relay and the tests that read the items back from the gateway.
 *
 * Tag names and values follow the published standards, checked against public implementations:
 * - ANS-110 (asset discoverability): `Title`, `Description`, `Type` (one per asset type),
 *   `Topic:{topic}` = topic;
 * - the atomic asset standard (SmartWeave): `App-Name: SmartWeaveContract`, `App-Version: 0.3.0`,
 *   `Contract-Src` (the public atomic asset source), `Contract-Manifest`, `Init-State` (ticker,
 *   name, description, owner, creator, balances, claimable);
 * - the UDL 0.2 (`License` = its transaction id, then one tag per term, R138);
 * - the Universal Content Marketplace: `Indexed-By: ucm`;
 * - collections: `Data-Protocol: Collection`, `Type: Document`, data `{type, items}`.
 */
import { z } from 'zod';
import { Address, Id } from './primitives';

export const NFT_LIMITS = {
  NAME_MAX: 150,
  DESCRIPTION_MAX: 300,
  FRACTION_MIN: 2,
  FRACTION_MAX: 100,
  FRACTION_DEFAULT: 100,
  /** NFTs and collections listed a page (spec 002 section 9). */
  PAGE_SIZE: 40,
  /** File names in the mint flow, without their extension (NAME_TOO_LONG). */
  FILE_NAME_MAX: 150,
  TOPICS_MAX: 10,
  TOPIC_MAX: 50,
  /** NFTs minted in one collection (docs/decisions.md: the spec leaves it open). */
  COLLECTION_MAX: 100,
  CURRENCY_MAX: 16,
  /** Licence duration in years. */
  EXPIRES_MAX: 1_000,
  FEE_MAX: 1_000_000_000,
} as const;

/** The asset type tag's values (spec 002 section 5). */
export const NFT_ASSET_TYPES = [
  'app',
  'audio',
  'blog-post',
  'collection',
  'contract',
  'document',
  'image',
  'meme',
  'music',
  'podcast',
  'presentation',
  'profile',
  'social-post',
  'token',
  'video',
  'web-page',
  'other',
] as const;
export const NftAssetType = z.enum(NFT_ASSET_TYPES);
export type NftAssetType = z.infer<typeof NftAssetType>;

/** The UDL 0.2 licence transaction (includes data model training). */
export const UDL_LICENSE_ID = 'IVjAM1C3x3GFdc3t9EqMnbtGnpgTuJbaiYZa1lk09_8';
/** The public atomic asset contract source and the evaluation manifest that goes with it. */
export const ATOMIC_ASSET_CONTRACT_SRC = 'Of9pi--Gj7hCTawhgxOwbuWnFI1h24TTgO5pw8ENJNQ';
export const ATOMIC_ASSET_MANIFEST = '{"evaluationOptions":{"sourceType":"redstone-sequencer","allowBigInt":true,"internalWrites":true,"unsafeClient":"skip","useConstructor":true}}';
export const ATOMIC_ASSET_TICKER = 'ATOMIC';
/** Where a collection listed on the marketplace is shown ('View on the marketplace'). */
export const MARKETPLACE_COLLECTION_URL = 'https://bazar.arweave.net/#/collection/';
/** The currency a UDL's fees are in unless it says otherwise: the U token. */
export const UDL_DEFAULT_CURRENCY = 'U';

const Text = (max: number) => z.string().max(max).refine((value) => !/[\u0000-\u001f\u007f]/.test(value.replace(/[\n\t]/g, '')), 'No control characters');

export const NftFeeType = z.enum(['One-Time', 'Monthly']);
export type NftFeeType = z.infer<typeof NftFeeType>;
export const UdlFee = z.strictObject({ type: NftFeeType, value: z.number().positive().max(NFT_LIMITS.FEE_MAX) });
export type UdlFee = z.infer<typeof UdlFee>;

/**
 * One grant of the licence (derivations, commercial use, data model training): a type, with the
 * revenue share percentage (1-100) or the fee that type needs.
 */
export const UdlGrant = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('None') }),
  z.strictObject({ type: z.literal('Allowed') }),
  z.strictObject({ type: z.literal('Allowed-With-Credit') }),
  z.strictObject({ type: z.literal('Allowed-With-Indication') }),
  z.strictObject({ type: z.literal('Allowed-With-License-Passthrough') }),
  z.strictObject({ type: z.literal('Allowed-With-RevenueShare'), value: z.number().gt(0).max(100) }),
  z.strictObject({ type: z.literal('Allowed-With-Fee'), fee: UdlFee }),
]);
export type UdlGrant = z.infer<typeof UdlGrant>;
export type UdlGrantType = UdlGrant['type'];

/** Which grant types each term offers (spec 002 section 9). */
export const UDL_GRANT_TYPES = {
  derivation: ['None', 'Allowed-With-Credit', 'Allowed-With-Indication', 'Allowed-With-License-Passthrough', 'Allowed-With-RevenueShare', 'Allowed-With-Fee'],
  commercialUse: ['None', 'Allowed', 'Allowed-With-Credit', 'Allowed-With-RevenueShare', 'Allowed-With-Fee'],
  dataModelTraining: ['None', 'Allowed', 'Allowed-With-Fee'],
} as const satisfies Record<string, readonly UdlGrantType[]>;
export type UdlTerm = keyof typeof UDL_GRANT_TYPES;

export const UdlPaymentMode = z.enum(['Random-Distribution', 'Global-Distribution']);
export type UdlPaymentMode = z.infer<typeof UdlPaymentMode>;

/**
 * The licence terms of a mint. The spec's entity holds each grant as a list whose first entry is
 * the one shown; Cairn keeps the one entry (docs/decisions.md).
 */
export const Udl = z
  .strictObject({
    /** The access fee; null: free. Its value is at least 1 ('Enter a number'). */
    licenseFee: z.strictObject({ type: NftFeeType, value: z.number().min(1).max(NFT_LIMITS.FEE_MAX) }).nullable(),
    derivation: UdlGrant,
    commercialUse: UdlGrant,
    dataModelTraining: UdlGrant,
    unknownUsageRights: z.enum(['Included', 'Excluded']),
    currency: z.string().trim().min(1).max(NFT_LIMITS.CURRENCY_MAX).regex(/^[A-Za-z0-9$_-]+$/),
    /** Years; null: indefinite. */
    expires: z.number().int().min(1).max(NFT_LIMITS.EXPIRES_MAX).nullable(),
    paymentAddress: Address.nullable(),
    paymentMode: UdlPaymentMode.nullable(),
  })
  .superRefine((udl, ctx) => {
    for (const term of Object.keys(UDL_GRANT_TYPES) as UdlTerm[]) {
      if (!(UDL_GRANT_TYPES[term] as readonly string[]).includes(udl[term].type)) {
        ctx.addIssue({ code: 'custom', path: [term], message: `${udl[term].type} is not offered for ${term}` });
      }
    }
  });
export type Udl = z.infer<typeof Udl>;

/** The default UDL: the display defaults of spec 002 section 3 (free, nothing granted, in U, forever). */
export const DEFAULT_UDL: Udl = {
  licenseFee: null,
  derivation: { type: 'None' },
  commercialUse: { type: 'None' },
  dataModelTraining: { type: 'None' },
  unknownUsageRights: 'Included',
  currency: UDL_DEFAULT_CURRENCY,
  expires: null,
  paymentAddress: null,
  paymentMode: null,
};

/** What a mint says about its asset (NFT) or its collection. */
export const NftMetadata = z.strictObject({
  name: Text(NFT_LIMITS.NAME_MAX).refine((value) => value.trim().length > 0, 'Required'),
  description: Text(NFT_LIMITS.DESCRIPTION_MAX),
  topics: z.array(z.string().trim().min(1).max(NFT_LIMITS.TOPIC_MAX).regex(/^[^:\u0000-\u001f]+$/)).max(NFT_LIMITS.TOPICS_MAX),
  types: z.array(NftAssetType).min(1).max(NFT_ASSET_TYPES.length),
  owner: Address,
  creator: Address,
  /** Fractional: the number of parts (2-100); null: one token. */
  fractionParts: z.number().int().min(NFT_LIMITS.FRACTION_MIN).max(NFT_LIMITS.FRACTION_MAX).nullable(),
});
export type NftMetadata = z.infer<typeof NftMetadata>;

/** A collection's metadata: an NFT's without fractions (each NFT carries its own). */
export const NftCollectionMetadata = NftMetadata.omit({ fractionParts: true });
export type NftCollectionMetadata = z.infer<typeof NftCollectionMetadata>;

// --- data item tags --------------------------------------------------------------------------------

export type NftTag = { name: string; value: string };

/** The number as the tags write it: no exponent, no trailing zeros. */
function numberText(value: number): string {
  return String(Number(value.toFixed(6)));
}

function grantValue(grant: UdlGrant): string | null {
  switch (grant.type) {
    case 'None':
      return null;
    case 'Allowed-With-RevenueShare':
      return `${grant.type}-${numberText(grant.value)}%`;
    case 'Allowed-With-Fee':
      return `${grant.type}-${grant.fee.type}-${numberText(grant.fee.value)}`;
    default:
      return grant.type;
  }
}

/**
 * R138: a licence as tags. `null` (the user removed the UDL) gives none; otherwise `License` and
 * one tag for each term that is not the UDL's own default (absent terms mean the defaults).
 */
export function udlTags(udl: Udl | null): NftTag[] {
  if (!udl) return [];
  const tags: NftTag[] = [{ name: 'License', value: UDL_LICENSE_ID }];
  if (udl.licenseFee) tags.push({ name: 'Access-Fee', value: `${udl.licenseFee.type}-${numberText(udl.licenseFee.value)}` });
  const terms: [string, UdlGrant][] = [
    ['Derivation', udl.derivation],
    ['Commercial-Use', udl.commercialUse],
    ['Data-Model-Training', udl.dataModelTraining],
  ];
  for (const [name, grant] of terms) {
    const value = grantValue(grant);
    if (value) tags.push({ name, value });
  }
  if (udl.unknownUsageRights === 'Excluded') tags.push({ name: 'Unknown-Usage-Rights', value: 'Excluded' });
  if (udl.currency !== UDL_DEFAULT_CURRENCY) tags.push({ name: 'Currency', value: udl.currency });
  if (udl.expires !== null) tags.push({ name: 'Expires', value: String(udl.expires) });
  if (udl.paymentAddress) tags.push({ name: 'Payment-Address', value: udl.paymentAddress });
  if (udl.paymentMode) tags.push({ name: 'Payment-Mode', value: udl.paymentMode });
  return tags;
}

function discoverabilityTags(metadata: NftCollectionMetadata): NftTag[] {
  const tags: NftTag[] = [{ name: 'Title', value: metadata.name }];
  if (metadata.description) tags.push({ name: 'Description', value: metadata.description });
  for (const type of metadata.types) tags.push({ name: 'Type', value: type });
  for (const topic of metadata.topics) tags.push({ name: `Topic:${topic}`, value: topic });
  tags.push({ name: 'Creator', value: metadata.creator });
  return tags;
}

/** An atomic asset's initial state: the owner holds every part (1 unless fractional). */
export function nftInitState(metadata: NftMetadata, collectionId: string | null): Record<string, unknown> {
  return {
    ticker: ATOMIC_ASSET_TICKER,
    name: metadata.name,
    description: metadata.description,
    owner: metadata.owner,
    creator: metadata.creator,
    ...(collectionId ? { collection: collectionId } : {}),
    balances: { [metadata.owner]: metadata.fractionParts ?? 1 },
    claimable: [],
  };
}

export interface NftItemInput {
  nftId: string;
  collectionId: string | null;
  metadata: NftMetadata;
  udl: Udl | null;
  ucm: boolean;
  contentType: string;
}

/** R137: the tags of an NFT's data item (its data is the asset's bytes). */
export function nftItemTags(input: NftItemInput): NftTag[] {
  const { metadata } = input;
  const tags: NftTag[] = [
    { name: 'Content-Type', value: input.contentType },
    { name: 'App-Name', value: 'SmartWeaveContract' },
    { name: 'App-Version', value: '0.3.0' },
    { name: 'Contract-Src', value: ATOMIC_ASSET_CONTRACT_SRC },
    { name: 'Contract-Manifest', value: ATOMIC_ASSET_MANIFEST },
    { name: 'Init-State', value: JSON.stringify(nftInitState(metadata, input.collectionId)) },
    ...discoverabilityTags(metadata),
    { name: 'Cairn-Nft', value: input.nftId },
  ];
  if (input.collectionId) tags.push({ name: 'Collection-Code', value: input.collectionId });
  tags.push(...udlTags(input.udl));
  if (input.ucm) tags.push({ name: 'Indexed-By', value: 'ucm' });
  return tags;
}

export interface CollectionItemInput {
  collectionId: string;
  metadata: NftCollectionMetadata;
  udl: Udl | null;
  ucm: boolean;
  /** The data item ids of the collection's thumbnail and banner, when it has them. */
  thumbnailItemId: string | null;
  bannerItemId: string | null;
}

/** R137: the tags of a collection's data item (its data is `collectionItemData`). */
export function collectionItemTags(input: CollectionItemInput): NftTag[] {
  const tags: NftTag[] = [
    { name: 'Content-Type', value: 'application/json' },
    { name: 'Data-Protocol', value: 'Collection' },
    { name: 'Name', value: input.metadata.name },
    ...discoverabilityTags({ ...input.metadata, types: [] }),
    { name: 'Type', value: 'Document' },
    { name: 'Cairn-Collection', value: input.collectionId },
    { name: 'Collection-Code', value: input.collectionId },
  ];
  if (input.thumbnailItemId) tags.push({ name: 'Thumbnail', value: input.thumbnailItemId });
  if (input.bannerItemId) tags.push({ name: 'Banner', value: input.bannerItemId });
  tags.push(...udlTags(input.udl));
  if (input.ucm) tags.push({ name: 'Indexed-By', value: 'ucm' });
  return tags;
}

/** A collection item's data: its NFTs' data item ids in mint order. */
export const CollectionItemData = z.strictObject({ type: z.literal('Collection'), items: z.array(z.string().regex(/^[A-Za-z0-9_-]{43}$/)).min(1) });
export type CollectionItemData = z.infer<typeof CollectionItemData>;

export function collectionItemData(itemIds: readonly string[]): string {
  return JSON.stringify({ type: 'Collection', items: [...itemIds] } satisfies CollectionItemData);
}

/** The size of `collectionItemData` for `count` items (every data item id is 43 characters). */
export function collectionItemDataSize(count: number): number {
  return collectionItemData(Array.from({ length: count }, () => 'x'.repeat(43))).length;
}

// --- on-chain state served to the app ------------------------------------------------------------

/** Where a mint's items are on the network (R140): ids only, for members and public viewers alike. */
export const NftChainState = z.strictObject({
  /** The NFT or collection id (the operation's object id). */
  objectId: Id,
  kind: z.enum(['nft', 'collection']),
  dataItemId: z.string().nullable(),
  txId: z.string().nullable(),
  status: z.enum(['SCHEDULED', 'VERIFICATION', 'BUNDLED', 'PENDING', 'REGISTERED', 'REJECTED', 'BLOCKED']),
});
export type NftChainState = z.infer<typeof NftChainState>;

export const NftChainStates = z.strictObject({ items: z.array(NftChainState) });
export type NftChainStates = z.infer<typeof NftChainStates>;

/** The path of GET /vaults/{vaultId}/nfts/chain and GET /public/vaults/{vaultId}/nfts/chain. */
export const NftChainParams = z.strictObject({ vaultId: Id });
export type NftChainParams = z.infer<typeof NftChainParams>;
