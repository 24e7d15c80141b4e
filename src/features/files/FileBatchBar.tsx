import { Box, Button, Group, Text, Tooltip } from '@mantine/core';
import { useMemo } from 'react';
import { BATCH_DOWNLOAD_LIMIT_TEXT, canBatchDownload, selectionSummary } from '../../domain/selectionRules';
import type { NodeRecord } from '../../storage/vaultRecords';

export interface FileBatchBarProps {
  selected: NodeRecord[];
  /** Items in the folder (all of them, rendered or not). */
  itemCount: number;
  /** Rows of new files still uploading: shown and counted, not selectable. */
  pendingCount?: number;
  /** False while only the folder's first rows are read: the count is not known yet. */
  isComplete?: boolean;
  actions: { label: string; onClick: () => void; isDisabled?: boolean; isDanger?: boolean }[];
  onDownload?: () => void;
}

/** The file list toolbar's count and batch actions on the selection (spec 000 sections 2, 5). */
export function FileBatchBar({ selected, itemCount, pendingCount = 0, isComplete = true, actions, onDownload }: FileBatchBarProps) {
  // Folder sizes are their active descendants' total, so a folder counts what the zip would hold.
  const total = useMemo(() => selected.reduce((sum, n) => sum + n.size, 0), [selected]);
  const isDownloadAllowed = canBatchDownload(total);

  return (
    <Group gap="xs" mih={30}>
      <Text size="sm" c="dimmed" aria-live="polite" style={{ whiteSpace: 'nowrap' }}>
        {isComplete || selected.length > 0 ? selectionSummary(selected.length, itemCount, pendingCount) : 'Loading…'}
      </Text>
      {selected.length > 0 && onDownload && (
        <Tooltip label={BATCH_DOWNLOAD_LIMIT_TEXT} disabled={isDownloadAllowed}>
          <Box component="span">
            <Button size="xs" variant="default" onClick={onDownload} disabled={!isDownloadAllowed}>
              Download
            </Button>
          </Box>
        </Tooltip>
      )}
      {selected.length > 0 &&
        actions.map((action) => (
          <Button key={action.label} size="xs" variant="default" color={action.isDanger ? 'red' : undefined} onClick={action.onClick} disabled={action.isDisabled}>
            {action.label}
          </Button>
        ))}
    </Group>
  );
}
