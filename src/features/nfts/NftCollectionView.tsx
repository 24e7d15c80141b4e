import { ActionIcon, Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { nftsOfCollection } from '../../domain/nftsOfVault';
import { MARKETPLACE_COLLECTION_URL } from '../../protocol/nfts';
import { IconArrowLeft } from '../../ui/icons';
import { NftNotFound } from './NftDetailView';
import { NftGrid } from './NftGrid';
import { NftLoading } from './NftListView';
import { nftHref, nftListHref } from './nftPaths';
import type { NftView } from './nftView';

/**
 * A collection (spec 002 section 2): its name, 'View on the marketplace' when it was listed (ucm)
 * and its data item id is known, its NFTs 40 a page, and a back arrow to the vault's NFT list.
 */
export function NftCollectionView({ view, collectionId }: { view: NftView; collectionId: string }) {
  if (!view.nfts) return <NftLoading />;
  const collection = view.nfts.collections.get(collectionId);
  if (!collection) return <NftNotFound view={view} />;
  const dataItemId = view.chain.get(collection.id)?.dataItemId ?? null;
  const items = nftsOfCollection(view.nfts, collection.id);
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ActionIcon component={Link} to={nftListHref(view.scope, view.status, view.vaultId)} variant="subtle" size="lg" aria-label="Back to the Atomic NFTs">
          <IconArrowLeft size={20} aria-hidden />
        </ActionIcon>
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Title order={view.scope === 'public' ? 2 : 1} fz={{ base: 22, xs: 28 }} style={{ overflowWrap: 'anywhere' }}>
            {collection.name}
          </Title>
          {collection.description && (
            <Text c="dimmed" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {collection.description}
            </Text>
          )}
        </Stack>
      </Group>
      {collection.ucm && dataItemId && (
        <Anchor href={`${MARKETPLACE_COLLECTION_URL}${encodeURIComponent(dataItemId)}`} target="_blank" rel="noreferrer noopener">
          View on the marketplace
        </Anchor>
      )}
      <NftGrid
        items={items}
        hrefOf={(item) => nftHref(view.scope, view.status, view.vaultId, item.id, collection.id)}
        chain={view.chain}
        vaultId={view.vaultId}
        download={view.download}
        label={`NFTs of ${collection.name}`}
      />
    </Stack>
  );
}
