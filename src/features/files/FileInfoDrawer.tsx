import { Drawer, Stack, Text } from '@mantine/core';
import { formatBytes, formatDateTime, formatFileType } from '../../domain/formatting';
import type { NodeRecord } from '../../storage/vaultRecords';
import { InfoList } from '../../ui/InfoList';
import { FileStorageStatus } from '../storage/FileStorageStatus';

const STATUS_LABELS = { ACTIVE: 'Active', REVOKED: 'Hidden', DELETED: 'Removed' } as const;

/** File info (First uploaded, Last modified, Version, Status, Size, File type) and folder info (spec 000 section 2). */
export function FileInfoDrawer({ node, onClose }: { node: NodeRecord | null; onClose: () => void }) {
  const items: [string, string][] = !node
    ? []
    : node.kind === 'file'
      ? [
          ['First uploaded', formatDateTime(node.createdAt)],
          ['Last modified', formatDateTime(node.updatedAt)],
          ['Version', String(node.versionCount)],
          ['Status', STATUS_LABELS[node.status]],
          ['Size', formatBytes(node.size)],
          // The row's label: a renamed 'notes.txt' is TXT here too, not its stored 'text/plain'.
          ['File type', formatFileType(node.mimeType, node.name)],
        ]
      : [
          ['Node ID', node.id],
          ['Last modified', formatDateTime(node.updatedAt)],
          ['Status', STATUS_LABELS[node.status]],
          ['Size', formatBytes(node.size)],
        ];
  return (
    <Drawer opened={node !== null} onClose={onClose} position="right" title={node?.kind === 'folder' ? 'Folder info' : 'File info'} size={336}>
      {node && (
        <Stack gap="md">
          <Text fw={700} style={{ wordBreak: 'break-word' }}>
            {node.name}
          </Text>
          <InfoList items={items} />
          {node.kind === 'file' && <FileStorageStatus versionId={node.latestVersionId} />}
        </Stack>
      )}
    </Drawer>
  );
}
