/**
 * The signed-in NFT pages (spec 002 section 2) under /vaults/{status}/{vaultId}/nfts, inside the
 * vault room. Only public permanent vaults have them: any other vault goes to its files.
 */
import { Navigate, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useVaultRoom } from '../files/VaultRoomContext';
import { VaultRoomToolbar } from '../files/VaultRoomToolbar';
import { MintNftButton } from './mint/MintNftButton';
import { useMemberNftView } from './memberNftView';
import { NftCollectionView } from './NftCollectionView';
import { NftDetailView } from './NftDetailView';
import { NftListView } from './NftListView';
import type { NftView } from './nftView';

function Guarded({ view, children }: { view: NftView; children: ReactNode }) {
  if (!view.isAvailable) return <Navigate to="/vaults/$status/$vaultId/assets" params={{ status: view.status, vaultId: view.vaultId }} replace />;
  return children;
}

/** The list, with the vault's toolbar where Mint NFT replaces the add and filter controls (spec 000 section 2). */
export function NftListPage() {
  const view = useMemberNftView();
  const room = useVaultRoom();
  return (
    <Guarded view={view}>
      <VaultRoomToolbar path={[]} actions={<MintNftButton room={room} />} />
      <NftListView view={view} />
    </Guarded>
  );
}

export function NftDetailPage() {
  const view = useMemberNftView();
  const { nftId = '', collectionId } = useParams({ strict: false });
  return (
    <Guarded view={view}>
      <NftDetailView view={view} nftId={nftId} {...(collectionId ? { collectionId } : {})} />
    </Guarded>
  );
}

export function NftCollectionPage() {
  const view = useMemberNftView();
  const { collectionId = '' } = useParams({ strict: false });
  return (
    <Guarded view={view}>
      <NftCollectionView view={view} collectionId={collectionId} />
    </Guarded>
  );
}
