import { Box, Button, Group, Pagination, Text, Tooltip } from '@mantine/core';
import { BATCH_DOWNLOAD_LIMIT_TEXT, canBatchDownload } from '../../domain/selectionRules';
import type { NodeRecord } from '../../storage/vaultRecords';

interface FileBatchBarProps {
  selected: NodeRecord[];
  /** Items in the folder, shown while nothing is selected. */
  itemCount: number;
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  actions: { label: string; onClick: () => void; isDisabled?: boolean; isDanger?: boolean }[];
  onDownload?: () => void;
}

/** The file list toolbar: batch actions on the selection and pagination (spec 000 sections 2, 5). */
export function FileBatchBar({ selected, itemCount, page, pageCount, onPage, actions, onDownload }: FileBatchBarProps) {
  // Folder sizes are their active descendants' total, so a folder counts what the zip would hold.
  const total = selected.reduce((sum, n) => sum + n.size, 0);
  const isDownloadAllowed = canBatchDownload(total);

  return (
    <Group justify="space-between" mb="xs" mih={36} gap="xs">
      <Group gap="xs">
        <Text size="sm" c="dimmed" aria-live="polite">
          {selected.length > 0 ? `${selected.length} selected` : itemCount === 1 ? '1 item' : `${itemCount} items`}
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
      {pageCount > 1 && <Pagination size="sm" total={pageCount} value={page} onChange={onPage} aria-label="File pages" />}
    </Group>
  );
}
