import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import type { NodeRecord } from '../../storage/vaultRecords';
import { FileBatchBar, type FileBatchBarProps } from './FileBatchBar';
import { FileTable, type FileTableProps } from './FileTable';
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
  return (
    <FileTable
      {...table}
      nodes={list.sorted}
      selected={list.selected}
      sort={list.sort}
      onSort={list.onSort}
      onToggle={list.onToggle}
      onToggleAll={list.onToggleAll}
      toolbar={<FileBatchBar selected={list.selectedNodes} itemCount={list.itemCount} pendingCount={list.pendingCount} isComplete={table.isComplete} {...batch} />}
    />
  );
}
