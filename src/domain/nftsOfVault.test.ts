/**
 * [R141] The vault's NFTs and collections come from its verified nft.mint and nft.collection
 * operations: singles and collections newest first, an NFT of a collection inside it only, 40 a
 * page. Every body is parsed with the protocol's schema, so the fixtures are operations the server
 * would accept.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_UDL, NFT_LIMITS } from '../protocol/nfts';
import { OperationBody, type FileVersion } from '../protocol/vaults';
import { findNft, nftPage, nftPageCount, nftsOfCollection, nftsOfVault, type NftLogEntry } from './nftsOfVault';

const OWNER = 'o'.repeat(43);
const CREATOR = 'c'.repeat(43);
const AUTHOR = 'a'.repeat(64);

function version(id: string, mime = 'image/png'): FileVersion {
  return { versionId: `v-${id}`, blobId: `b-${id}`, size: 10, storedSize: 10, chunkSize: 4_194_304, chunkCount: 1, chunkHashes: ['0'.repeat(64)], mimeType: { clear: mime }, lastModified: 1 };
}

function entry(seq: number, objectId: string, body: unknown): NftLogEntry {
  return { seq, time: seq * 1000, op: { id: `op-${seq}`, vaultId: 'vault', objectId, author: AUTHOR, createdAt: 1, body: OperationBody.parse(body), signature: 'x'.repeat(86) } };
}

const metadata = (name: string, fractionParts: number | null = null) => ({ name, description: `About ${name}`, topics: ['art'], types: ['image'], owner: OWNER, creator: CREATOR, fractionParts });

function mint(seq: number, id: string, options: { collectionId?: string; fractionParts?: number; name?: string } = {}): NftLogEntry {
  return entry(seq, id, { type: 'nft.mint', collectionId: options.collectionId ?? null, metadata: metadata(options.name ?? id, options.fractionParts ?? null), udl: DEFAULT_UDL, ucm: false, version: version(id) });
}

function collection(seq: number, id: string, nftIds: string[]): NftLogEntry {
  const { fractionParts: _parts, ...meta } = metadata(id);
  return entry(seq, id, { type: 'nft.collection', metadata: meta, udl: null, ucm: true, nftIds, thumbnail: version(`${id}-thumb`), banner: null });
}

describe('nftsOfVault', () => {
  it('[R141] makes an NFT record of a mint: metadata, owner holding every part, version, author and time', () => {
    const { nfts, listed } = nftsOfVault([mint(3, 'n1', { fractionParts: 25, name: 'Sunset' })]);
    const nft = nfts.get('n1')!;
    expect(nft).toMatchObject({
      kind: 'nft',
      name: 'Sunset',
      description: 'About Sunset',
      types: ['image'],
      topics: ['art'],
      owner: OWNER,
      creator: CREATOR,
      authorKey: AUTHOR,
      fractional: true,
      fractionParts: 25,
      balances: { [OWNER]: 25 },
      collectionId: null,
      mimeType: 'image/png',
      udl: DEFAULT_UDL,
      ucm: false,
      createdAt: 3000,
    });
    expect(nft.version.versionId).toBe('v-n1');
    expect(listed.map((item) => item.id)).toEqual(['n1']);
  });

  it('[R141] a single NFT holds one token', () => {
    const nft = nftsOfVault([mint(1, 'n1')]).nfts.get('n1')!;
    expect(nft.fractional).toBe(false);
    expect(nft.balances).toEqual({ [OWNER]: 1 });
  });

  it('[R141] lists singles and collections newest first; a collection NFT only inside its collection, in mint order', () => {
    const vault = nftsOfVault([mint(1, 'single-old'), mint(2, 'c-a', { collectionId: 'col' }), mint(3, 'c-b', { collectionId: 'col' }), collection(4, 'col', ['c-a', 'c-b']), mint(5, 'single-new')]);
    expect(vault.listed.map((item) => `${item.kind}:${item.id}`)).toEqual(['nft:single-new', 'collection:col', 'nft:single-old']);
    expect(nftsOfCollection(vault, 'col').map((nft) => nft.id)).toEqual(['c-a', 'c-b']);
    const col = vault.collections.get('col')!;
    expect(col).toMatchObject({ name: 'col', ucm: true, udl: null, banner: null, createdAt: 4000 });
    expect(col.thumbnail?.versionId).toBe('v-col-thumb');
    expect(findNft(vault, 'c-a', 'col')?.id).toBe('c-a');
    expect(findNft(vault, 'c-a', 'other')).toBeNull();
    expect(findNft(vault, 'missing')).toBeNull();
  });

  it('[R141] reads the log in seq order whatever order the pages came in', () => {
    const vault = nftsOfVault([collection(4, 'col', ['c-a']), mint(2, 'c-a', { collectionId: 'col' })]);
    expect(vault.listed.map((item) => item.id)).toEqual(['col']);
    expect(nftsOfCollection(vault, 'col').map((nft) => nft.id)).toEqual(['c-a']);
  });

  it('[R141] an NFT whose collection has not arrived yet is listed on its own', () => {
    const vault = nftsOfVault([mint(1, 'c-a', { collectionId: 'col' })]);
    expect(vault.listed.map((item) => item.id)).toEqual(['c-a']);
    expect(nftsOfCollection(vault, 'col')).toEqual([]);
  });

  it('[R136] an id is used once: a second operation on it changes nothing', () => {
    const vault = nftsOfVault([mint(1, 'n1', { name: 'First' }), mint(2, 'n1', { name: 'Second' }), collection(3, 'n1', ['n1'])]);
    expect(vault.nfts.get('n1')?.name).toBe('First');
    expect(vault.collections.size).toBe(0);
    expect(vault.listed).toHaveLength(1);
  });

  it('ignores every other operation of the vault', () => {
    expect(nftsOfVault([entry(1, 'f1', { type: 'folder.create', parentId: null, name: { clear: 'Docs' } })]).listed).toEqual([]);
  });
});

describe('nftPage', () => {
  it('[R141] pages of 40, clamped to the pages there are', () => {
    const items = Array.from({ length: 85 }, (_, i) => i);
    expect(NFT_LIMITS.PAGE_SIZE).toBe(40);
    expect(nftPageCount(85)).toBe(3);
    expect(nftPageCount(0)).toBe(1);
    expect(nftPage(items, 1)).toEqual(items.slice(0, 40));
    expect(nftPage(items, 3)).toEqual(items.slice(80));
    expect(nftPage(items, 9)).toEqual(items.slice(80));
    expect(nftPage(items, 0)).toEqual(items.slice(0, 40));
  });
});
