import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { formatBytes } from '../../../domain/formatting';
import type { UploadRecord } from '../../../storage/vaultRecords';
import { useUploads } from '../../../storage/vaultStore';
import { useSyncStatus } from '../../../sync';
import { IconUpload } from '../../../ui/icons';

const WAITING = new Set<UploadRecord['state']>(['queued', 'encrypting', 'uploading', 'paused', 'resuming', 'finalising']);

function stateLabel(upload: UploadRecord, isOffline: boolean): string {
  if (isOffline || upload.state === 'paused') return 'Waiting to upload';
  if (upload.state === 'queued') return 'Queued';
  if (upload.state === 'resuming') return 'Resuming';
  if (upload.state === 'finalising') return 'Finalising';
  return `Uploading ${upload.size ? Math.floor((100 * upload.sentBytes) / upload.size) : 0}%`;
}

/**
 * New files still on their way into this folder (docs/SYNC_SPEC.md R7, R14): they show here at
 * once, offline too, and join the list when their upload is done.
 */
export function PendingUploads({ vaultId, folderId }: { vaultId: string; folderId: string | null }) {
  const uploads = useUploads().filter((u) => u.vaultId === vaultId && u.parentId === folderId && u.isNewFile && WAITING.has(u.state));
  const isOffline = useSyncStatus() === 'offline';
  if (uploads.length === 0) return null;
  const shown = uploads.slice(0, 5);
  return (
    <Paper withBorder radius="md" p="sm" mb="sm" aria-label="Files waiting to upload here" role="region">
      <Stack gap={6}>
        {shown.map((upload) => (
          <Group key={upload.uploadId} gap="sm" wrap="nowrap" justify="space-between" data-testid="pending-upload">
            <Group gap={8} wrap="nowrap" miw={0}>
              <IconUpload size={16} style={{ flexShrink: 0 }} />
              <Text size="sm" truncate miw={0}>
                {upload.name}
              </Text>
            </Group>
            <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
              <Text size="xs" c="dimmed" visibleFrom="xs">
                {formatBytes(upload.size)}
              </Text>
              <Badge size="xs" variant="light" color="gray">
                {stateLabel(upload, isOffline)}
              </Badge>
            </Group>
          </Group>
        ))}
        {uploads.length > shown.length && (
          <Text size="xs" c="dimmed">
            and {uploads.length - shown.length} more
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
