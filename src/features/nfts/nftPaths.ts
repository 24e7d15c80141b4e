/**
 * The NFT pages' paths (spec 002 section 2), signed in under /vaults and signed out under
 * /public/vaults, and the public link 'Share' copies.
 */
export type NftScope = 'member' | 'public';

function vaultBase(scope: NftScope, status: string, vaultId: string): string {
  const base = `/vaults/${encodeURIComponent(status)}/${encodeURIComponent(vaultId)}/nfts`;
  return scope === 'public' ? `/public${base}` : base;
}

/** The vault's NFT list. */
export function nftListHref(scope: NftScope, status: string, vaultId: string): string {
  return vaultBase(scope, status, vaultId);
}

/** A collection's page. */
export function nftCollectionHref(scope: NftScope, status: string, vaultId: string, collectionId: string): string {
  return `${vaultBase(scope, status, vaultId)}/collection/${encodeURIComponent(collectionId)}`;
}

/** An NFT's page: inside its collection's path when it is shown from there. */
export function nftHref(scope: NftScope, status: string, vaultId: string, nftId: string, collectionId?: string | null): string {
  if (collectionId) return `${nftCollectionHref(scope, status, vaultId, collectionId)}/${encodeURIComponent(nftId)}`;
  return `${vaultBase(scope, status, vaultId)}/${encodeURIComponent(nftId)}`;
}

/** What 'Share' copies: the NFT's public page, absolute. */
export function publicNftLink(status: string, vaultId: string, nftId: string, origin: string = window.location.origin): string {
  return `${origin}${nftHref('public', status, vaultId, nftId)}`;
}
