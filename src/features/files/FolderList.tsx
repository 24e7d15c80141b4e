import { Box, Center, Group, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import type { NodeRecord } from '../../storage/vaultRecords';
import { FileBatchBar, type FileBatchBarProps } from './FileBatchBar';
import { FileGrid } from './FileGrid';
import { FileTable, type FileTableProps } from './FileTable';
import { FileViewToggle, useFileView } from './FileViewToggle';
import { SelectAllCheckbox, selectAllState } from './SelectAllCheckbox';
import type { useFileList } from './useFileList';

type ListProps = 'nodes' | 'selected' | 'sort' | 'onSort' | 'onToggle' | 'onToggleAll' | 'toolbar';

interface FolderListProps extends Omit<FileTableProps, ListProps> {
  /** The folder's sorting and selection (useFileList over `items`). */
  list: ReturnType<typeof useFileList>;
  /** The folder's items; undefined while they are read. */
  items: NodeRecord[] | undefined;
  loadingLabel: string;
  /** Shown when there is nothing to list. */
  empty: ReactNode;
  /** The batch actions on the selection, in the list's sticky toolbar. */
  batch: Pick<FileBatchBarProps, 'actions' | 'onDownload'>;
}

/** A folder as the Files and Hidden files tabs show it: a loader, the empty panel, or the list with its batch bar. */
export function FolderList({ list, items, loadingLabel, empty, batch, ...table }: FolderListProps) {
  if (items === undefined) {
    return (
      <Center py="xl">
        <Loader aria-label={loadingLabel} />
      </Center>
    );
  }
  if (list.sorted.length === 0) return empty;
  return <FolderView list={list} batch={batch} table={table} />;
}

/** The list or the grid (issue 26), as this device last chose, with the toggle in the toolbar. */
function FolderView({ list, batch, table }: Pick<FolderListProps, 'list' | 'batch'> & { table: Omit<FileTableProps, ListProps> }) {
  const [view, setView] = useFileView();
  const toolbar = (
    <Group justify="space-between" gap="xs" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
      <FileBatchBar selected={list.selectedNodes} itemCount={list.itemCount} pendingCount={list.pendingCount} isComplete={table.isComplete} {...batch} />
      <FileViewToggle view={view} onChange={setView} />
    </Group>
  );
  if (view === 'grid') {
    return (
      <Box>
        <Group py={6} pl={12} gap="sm" wrap="nowrap" pos="sticky" style={{ top: 'var(--app-shell-header-offset, 0rem)', zIndex: 3, background: 'var(--mantine-color-body)' }} mb="xs">
          {/* The list has it in its header row; tiles have no header, so it leads the toolbar. */}
          <SelectAllCheckbox {...selectAllState(list.sorted, list.selected, table.uploads)} isComplete={table.isComplete ?? true} onToggleAll={list.onToggleAll} />
          {toolbar}
        </Group>
        <FileGrid
          nodes={list.sorted}
          selected={list.selected}
          onToggle={list.onToggle}
          onOpen={table.onOpen}
          rowActions={table.rowActions}
          deleteLabel={table.deleteLabel}
          onAction={table.onAction}
          uploads={table.uploads}
        />
      </Box>
    );
  }
  return (
    <FileTable
      {...table}
      nodes={list.sorted}
      selected={list.selected}
      sort={list.sort}
      onSort={list.onSort}
      onToggle={list.onToggle}
      onToggleAll={list.onToggleAll}
      toolbar={toolbar}
    />
  );
}
