import { Alert, Button, Center, Loader, Progress, Stack, Text } from '@mantine/core';
import { IconAlert, IconDownload, IconFile } from '../../../ui/icons';
import { NOT_OFFLINE_MESSAGE } from '../../../sync/vaultActions';

export const TAMPERED_TEXT = 'This file failed its integrity check and was not shown.';

/** Decrypting, with the share of chunks done. */
export function DecryptingPanel({ progress }: { progress: number }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="xs" w={240} maw="100%">
        <Loader aria-label="Decrypting" />
        <Text size="sm" c="dimmed">
          Decrypting… {progress}%
        </Text>
        <Progress value={progress} w="100%" aria-label="Decrypting progress" />
      </Stack>
    </Center>
  );
}

/** A failed integrity check or another download failure. */
export function PreviewError({ error, onRetry }: { error: 'tampered' | 'offline' | 'failed'; onRetry?: () => void }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlert size={18} />} role="alert" title={error === 'tampered' ? 'Integrity check failed' : error === 'offline' ? 'Not available offline' : 'Could not open the file'}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{error === 'tampered' ? TAMPERED_TEXT : error === 'offline' ? NOT_OFFLINE_MESSAGE : 'There was an error decrypting this file.'}</Text>
        {error !== 'tampered' && onRetry && (
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** For types Cairn does not show, or files too large to decrypt for a preview. */
export function NoPreviewPanel({ reason, onDownload }: { reason: string; onDownload?: () => void }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm" maw={360} ta="center">
        <IconFile size={40} />
        <Text fw={600}>{reason}</Text>
        {onDownload && (
          <Button leftSection={<IconDownload size={16} />} variant="light" onClick={onDownload}>
            Download
          </Button>
        )}
      </Stack>
    </Center>
  );
}
