import { ActionIcon, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { findNft } from '../../domain/nftsOfVault';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconAlert, IconArrowLeft } from '../../ui/icons';
import { copyPublicLink } from '../public/shareLinks';
import { NftLoading } from './NftListView';
import { NftMedia } from './NftMedia';
import { nftCollectionHref, nftListHref, publicNftLink } from './nftPaths';
import { OnChainSection, UdlSection } from './NftSections';
import type { NftView } from './nftView';

/** What an unknown NFT or collection id shows. */
export const NFT_NOT_FOUND = 'This Atomic NFT is not in this vault.';

export function NftNotFound({ view }: { view: NftView }) {
  return (
    <EmptyPanel
      icon={<IconAlert size={24} />}
      title={NFT_NOT_FOUND}
      description="It may still be on its way: minted NFTs show here once the vault has them."
      actions={
        <Button component={Link} to={nftListHref(view.scope, view.status, view.vaultId)} variant="default">
          Back to the Atomic NFTs
        </Button>
      }
    />
  );
}

/**
 * An NFT (spec 002 section 2): its media, Share (members only: the public page's link), 'On-chain
 * data' and 'Universal Data License'. Everything it says of the NFT is text, never HTML.
 */
export function NftDetailView({ view, nftId, collectionId }: { view: NftView; nftId: string; collectionId?: string }) {
  if (!view.nfts) return <NftLoading />;
  const nft = findNft(view.nfts, nftId, collectionId);
  if (!nft) return <NftNotFound view={view} />;
  const backHref = collectionId ? nftCollectionHref(view.scope, view.status, view.vaultId, collectionId) : nftListHref(view.scope, view.status, view.vaultId);
  const backLabel = collectionId ? `Back to ${view.nfts.collections.get(collectionId)?.name ?? 'the collection'}` : 'Back to the Atomic NFTs';
  return (
    <Stack gap="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ActionIcon component={Link} to={backHref} variant="subtle" size="lg" aria-label={backLabel}>
          <IconArrowLeft size={20} aria-hidden />
        </ActionIcon>
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Title order={view.scope === 'public' ? 2 : 1} fz={{ base: 22, xs: 28 }} style={{ overflowWrap: 'anywhere' }}>
            {nft.name}
          </Title>
          {nft.description && (
            <Text c="dimmed" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {nft.description}
            </Text>
          )}
        </Stack>
        {view.scope === 'member' && (
          <Button variant="default" onClick={() => void copyPublicLink(publicNftLink(view.status, view.vaultId, nft.id))}>
            Share
          </Button>
        )}
      </Group>
      {(nft.types.length > 0 || nft.topics.length > 0) && (
        <Group gap="xs" aria-label="Types and topics">
          {nft.types.map((type) => (
            <Badge key={`type-${type}`} variant="light">
              {type}
            </Badge>
          ))}
          {nft.topics.map((topic) => (
            <Badge key={`topic-${topic}`} variant="outline">
              {topic}
            </Badge>
          ))}
        </Group>
      )}
      <NftMedia name={nft.name} mimeType={nft.mimeType} version={nft.version} download={view.download} />
      <OnChainSection nft={nft} state={view.chain.get(nft.id)} headingOrder={view.scope === 'public' ? 3 : 2} />
      <UdlSection udl={nft.udl} headingOrder={view.scope === 'public' ? 3 : 2} />
    </Stack>
  );
}
