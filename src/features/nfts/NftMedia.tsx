import { Alert, Center, Image, Loader, Paper, Stack, Text } from '@mantine/core';
import type { FileVersion } from '../../protocol/vaults';
import { IconAlert, IconFile } from '../../ui/icons';
import { useVersionUrl } from './useVersionUrl';

/** How the detail page shows an asset (spec 002 section 2): image, audio, video, or a document icon. */
export type NftMediaKind = 'image' | 'audio' | 'video' | 'document';

export function nftMediaKind(mimeType: string): NftMediaKind {
  const top = mimeType.toLowerCase().split('/')[0];
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'document';
}

interface NftMediaProps {
  name: string;
  mimeType: string;
  version: FileVersion;
  download: (version: FileVersion) => Promise<Blob>;
}

/**
 * The asset itself, downloaded through the checked path (every chunk against its signed hash):
 * a tampered asset is never shown, and says so. A document shows its icon and loads nothing.
 */
export function NftMedia({ name, mimeType, version, download }: NftMediaProps) {
  const kind = nftMediaKind(mimeType);
  const source = useVersionUrl(kind === 'document' ? null : version, download);
  if (kind === 'document' || !source) {
    return (
      <Paper withBorder radius="md" p="xl">
        <Center>
          <Stack align="center" gap="xs">
            <IconFile size={64} aria-hidden />
            <Text size="sm" c="dimmed">
              {mimeType || 'Document'}
            </Text>
          </Stack>
        </Center>
      </Paper>
    );
  }
  if (source.status === 'loading') {
    return (
      <Center py="xl">
        <Loader aria-label={`Loading ${name}`} />
      </Center>
    );
  }
  if (source.status === 'error') {
    return (
      <Alert color="red" icon={<IconAlert size={18} />} title="The asset could not be shown">
        {source.message}
      </Alert>
    );
  }
  if (kind === 'image') return <Image src={source.url} alt={name} radius="md" fit="contain" mah={480} />;
  if (kind === 'audio') return <audio src={source.url} controls aria-label={name} style={{ width: '100%' }} />;
  return <video src={source.url} controls aria-label={name} style={{ width: '100%', maxHeight: 480, borderRadius: 8 }} />;
}
