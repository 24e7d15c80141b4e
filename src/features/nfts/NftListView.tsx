import { Center, Loader, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconFile } from '../../ui/icons';
import { NftGrid } from './NftGrid';
import { nftCollectionHref, nftHref } from './nftPaths';
import type { NftView } from './nftView';

/** The 'atomic NFT' empty state (spec 000 section 2). */
export const NO_NFTS_TITLE = 'No Atomic NFTs yet';

export function NftLoading() {
  return (
    <Center py="xl">
      <Loader aria-label="Loading the Atomic NFTs" />
    </Center>
  );
}

/**
 * The vault's Atomic NFTs (spec 002 section 2, R141): single NFTs and collections, newest first,
 * 40 a page. `actions` is where the Mint NFT button goes for members who may mint.
 */
export function NftListView({ view, actions }: { view: NftView; actions?: ReactNode }) {
  const { nfts, scope, status, vaultId } = view;
  if (!nfts) return <NftLoading />;
  return (
    <Stack gap="md">
      {actions}
      {nfts.listed.length === 0 ? (
        <EmptyPanel
          icon={<IconFile size={24} />}
          title={NO_NFTS_TITLE}
          description={
            scope === 'member'
              ? 'Mint an Atomic NFT from a file: it is stored on the network with its licence and can be listed on the marketplace.'
              : 'Atomic NFTs minted in this vault will show here.'
          }
        />
      ) : (
        <NftGrid
          items={nfts.listed}
          hrefOf={(item) => (item.kind === 'collection' ? nftCollectionHref(scope, status, vaultId, item.id) : nftHref(scope, status, vaultId, item.id))}
          chain={view.chain}
          vaultId={vaultId}
          download={view.download}
          label="Atomic NFTs"
        />
      )}
    </Stack>
  );
}
