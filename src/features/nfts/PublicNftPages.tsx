/**
 * The signed-out NFT pages (spec 001 section 2, spec 002 section 2) under
 * /public/vaults/{status}/{vaultId}/nfts: the same views without Share. A cloud vault has none and
 * goes to its files.
 */
import { Navigate, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { NftCollectionView } from './NftCollectionView';
import { NftDetailView } from './NftDetailView';
import { NftListView } from './NftListView';
import type { NftView } from './nftView';
import { usePublicNftView } from './publicNftView';

function Guarded({ view, children }: { view: NftView; children: ReactNode }) {
  if (!view.isAvailable) return <Navigate to="/public/vaults/$status/$vaultId/assets" params={{ status: view.status, vaultId: view.vaultId }} replace />;
  return children;
}

export function PublicNftListPage() {
  const view = usePublicNftView();
  return (
    <Guarded view={view}>
      <NftListView view={view} />
    </Guarded>
  );
}

export function PublicNftDetailPage() {
  const view = usePublicNftView();
  const { nftId = '', collectionId } = useParams({ strict: false });
  return (
    <Guarded view={view}>
      <NftDetailView view={view} nftId={nftId} {...(collectionId ? { collectionId } : {})} />
    </Guarded>
  );
}

export function PublicNftCollectionPage() {
  const view = usePublicNftView();
  const { collectionId = '' } = useParams({ strict: false });
  return (
    <Guarded view={view}>
      <NftCollectionView view={view} collectionId={collectionId} />
    </Guarded>
  );
}
