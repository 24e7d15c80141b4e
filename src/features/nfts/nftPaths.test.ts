import { describe, expect, it } from 'vitest';
import { nftCollectionHref, nftHref, nftListHref, publicNftLink } from './nftPaths';

describe('NFT paths (spec 002 section 2)', () => {
  it('puts the signed-in pages under /vaults and the public ones under /public/vaults', () => {
    expect(nftListHref('member', 'active', 'v1')).toBe('/vaults/active/v1/nfts');
    expect(nftListHref('public', 'active', 'v1')).toBe('/public/vaults/active/v1/nfts');
    expect(nftHref('member', 'active', 'v1', 'n1')).toBe('/vaults/active/v1/nfts/n1');
    expect(nftCollectionHref('public', 'archived', 'v1', 'c1')).toBe('/public/vaults/archived/v1/nfts/collection/c1');
    expect(nftHref('member', 'active', 'v1', 'n1', 'c1')).toBe('/vaults/active/v1/nfts/collection/c1/n1');
  });

  it('Share copies the public link /public/vaults/{status}/{vaultId}/nfts/{nftId}', () => {
    expect(publicNftLink('active', 'v1', 'n1', 'https://cairn.example')).toBe('https://cairn.example/public/vaults/active/v1/nfts/n1');
  });
});
