import { Badge, Card, Center, Group, Image, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { NftListItem } from '../../domain/nftsOfVault';
import type { NftChainState } from '../../protocol/nfts';
import type { FileVersion } from '../../protocol/vaults';
import { IconFile, IconFolder } from '../../ui/icons';
import { useThumbnailObjectUrl } from '../files/thumbnailUrls';
import { nftMediaKind } from './NftMedia';
import { nftStatusText } from './nftText';

/** Images up to this size show themselves on their card; larger ones and other types show an icon. */
const CARD_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/** The picture a card shows: a collection's thumbnail, or an NFT's image when small enough. */
export function cardImageVersion(item: NftListItem): FileVersion | null {
  if (item.kind === 'collection') return item.thumbnail;
  return nftMediaKind(item.mimeType) === 'image' && item.version.size <= CARD_IMAGE_MAX_BYTES ? item.version : null;
}

interface NftCardProps {
  item: NftListItem;
  href: string;
  state: NftChainState | undefined;
  vaultId: string;
  download: (version: FileVersion) => Promise<Blob>;
}

/** One NFT or collection of a list: picture or type icon, name (text only) and status. */
export function NftCard({ item, href, state, vaultId, download }: NftCardProps) {
  const version = cardImageVersion(item);
  const url = useThumbnailObjectUrl(version ? `nft/${vaultId}/${version.versionId}` : null, () => (version ? download(version) : Promise.resolve(null)));
  const status = nftStatusText(state);
  return (
    <Card withBorder radius="md" padding="sm" component={Link} to={href} aria-label={`${item.name}, ${item.kind === 'collection' ? 'collection, ' : ''}${status}`}>
      <Card.Section>
        {url ? (
          <Image src={url} alt="" h={160} fit="cover" />
        ) : (
          <Center h={160} bg="var(--mantine-color-default-hover)">
            {item.kind === 'collection' ? <IconFolder size={48} aria-hidden /> : <IconFile size={48} aria-hidden />}
          </Center>
        )}
      </Card.Section>
      <Stack gap={4} mt="sm">
        <Group gap="xs" wrap="nowrap" justify="space-between">
          <Text fw={600} truncate="end">
            {item.name}
          </Text>
          {item.kind === 'collection' && (
            <Badge size="xs" variant="light">
              Collection
            </Badge>
          )}
        </Group>
        <Text size="xs" c={state?.status === 'REGISTERED' ? 'green' : 'dimmed'}>
          {status}
        </Text>
      </Stack>
    </Card>
  );
}
