/**
 * The NFTs and collections of a vault as its verified log says (spec 002 section 3, SYNC_SPEC
 * R141): read from the `nft.mint` and `nft.collection` operations, never from anything served
 * beside them. Pure: the signed-in app feeds it the cached verified pages, the public viewer its
 * in-memory pulled operations.
 */
import { NFT_LIMITS, type Udl } from '../protocol/nfts';
import type { FileVersion, Operation } from '../protocol/vaults';

/** A verified operation of the vault (refused ones must not be passed in). */
export interface NftLogEntry {
  seq: number;
  /** When the server received it (ms). */
  time: number;
  op: Operation;
}

export interface NftRecord {
  kind: 'nft';
  id: string;
  name: string;
  description: string;
  types: string[];
  topics: string[];
  owner: string;
  creator: string;
  /** The minting operation's author (Ed25519 public key, hex). */
  authorKey: string;
  fractional: boolean;
  /** Parts of a fractional NFT; null for one token. */
  fractionParts: number | null;
  /** Address -> tokens held: the owner holds every part at mint (the atomic asset's init state). */
  balances: Record<string, number>;
  collectionId: string | null;
  /** The asset's bytes (a public version: clear MIME type, no file key). */
  version: FileVersion;
  mimeType: string;
  udl: Udl | null;
  ucm: boolean;
  createdAt: number;
  seq: number;
}

export interface NftCollectionRecord {
  kind: 'collection';
  id: string;
  name: string;
  description: string;
  topics: string[];
  owner: string;
  creator: string;
  authorKey: string;
  /** Its NFTs in mint order (only those minted into it). */
  nftIds: string[];
  thumbnail: FileVersion | null;
  banner: FileVersion | null;
  udl: Udl | null;
  ucm: boolean;
  createdAt: number;
  seq: number;
}

export type NftListItem = NftRecord | NftCollectionRecord;

export interface VaultNfts {
  nfts: ReadonlyMap<string, NftRecord>;
  collections: ReadonlyMap<string, NftCollectionRecord>;
  /** The vault's list: single NFTs and collections, newest first. */
  listed: NftListItem[];
}

/** A public version's clear MIME type ('' when sealed, which a mint's never is). */
export function clearMime(version: FileVersion): string {
  return 'clear' in version.mimeType ? version.mimeType.clear : '';
}

/**
 * The vault's NFTs and collections. An id is used once (R136): a second operation on it is
 * ignored. An NFT minted into a collection is listed in that collection only; while its
 * collection's operation has not arrived (the mint is finishing, or it never came), it is listed
 * on its own so nothing the user minted and paid for disappears.
 */
export function nftsOfVault(entries: readonly NftLogEntry[]): VaultNfts {
  const nfts = new Map<string, NftRecord>();
  const collections = new Map<string, NftCollectionRecord>();
  const ordered = [...entries].sort((a, b) => a.seq - b.seq);
  for (const { seq, time, op } of ordered) {
    const { body, objectId: id } = op;
    if (nfts.has(id) || collections.has(id)) continue;
    if (body.type === 'nft.mint') {
      const { metadata } = body;
      const parts = metadata.fractionParts;
      nfts.set(id, {
        kind: 'nft',
        id,
        name: metadata.name,
        description: metadata.description,
        types: [...metadata.types],
        topics: [...metadata.topics],
        owner: metadata.owner,
        creator: metadata.creator,
        authorKey: op.author,
        fractional: parts !== null,
        fractionParts: parts,
        balances: { [metadata.owner]: parts ?? 1 },
        collectionId: body.collectionId,
        version: body.version,
        mimeType: clearMime(body.version),
        udl: body.udl,
        ucm: body.ucm,
        createdAt: time,
        seq,
      });
    } else if (body.type === 'nft.collection') {
      const { metadata } = body;
      collections.set(id, {
        kind: 'collection',
        id,
        name: metadata.name,
        description: metadata.description,
        topics: [...metadata.topics],
        owner: metadata.owner,
        creator: metadata.creator,
        authorKey: op.author,
        nftIds: body.nftIds.filter((nftId) => nfts.get(nftId)?.collectionId === id),
        thumbnail: body.thumbnail,
        banner: body.banner,
        udl: body.udl,
        ucm: body.ucm,
        createdAt: time,
        seq,
      });
    }
  }
  const singles = [...nfts.values()].filter((nft) => !(nft.collectionId && collections.get(nft.collectionId)?.nftIds.includes(nft.id)));
  const listed: NftListItem[] = [...singles, ...collections.values()].sort((a, b) => b.seq - a.seq);
  return { nfts, collections, listed };
}

/** A collection's NFTs in mint order ([] for an unknown collection). */
export function nftsOfCollection(vaultNfts: VaultNfts, collectionId: string): NftRecord[] {
  const collection = vaultNfts.collections.get(collectionId);
  if (!collection) return [];
  return collection.nftIds.flatMap((id) => vaultNfts.nfts.get(id) ?? []);
}

/** Pages of NFT_LIMITS.PAGE_SIZE (40, spec 002 section 9), numbered from 1. */
export function nftPageCount(total: number): number {
  return Math.max(1, Math.ceil(total / NFT_LIMITS.PAGE_SIZE));
}

/** Page `page` (from 1; clamped to the pages there are) of `items`. */
export function nftPage<T>(items: readonly T[], page: number): T[] {
  const last = nftPageCount(items.length);
  const current = Math.min(Math.max(1, Math.floor(page) || 1), last);
  return items.slice((current - 1) * NFT_LIMITS.PAGE_SIZE, current * NFT_LIMITS.PAGE_SIZE);
}

/** The vault's NFT or an NFT of a collection: the page's lookup, by route parameters. */
export function findNft(vaultNfts: VaultNfts, nftId: string, collectionId?: string): NftRecord | null {
  const nft = vaultNfts.nfts.get(nftId);
  if (!nft) return null;
  if (collectionId !== undefined && nft.collectionId !== collectionId) return null;
  return nft;
}
