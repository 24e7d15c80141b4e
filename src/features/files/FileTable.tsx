import { Box, Group, Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { type DragEvent, Fragment, type KeyboardEvent, type ReactNode, type RefObject, memo, useCallback, useMemo, useState } from 'react';
import { rowForKey } from '../../domain/listRange';
import type { SortColumn, SortDirection } from '../../domain/nodeSort';
import { VAULT_LIMITS } from '../../protocol/vaults';
import type { NodeRecord, UploadRecord } from '../../storage/vaultRecords';
import { IconChevronDown } from '../../ui/icons';
import { FileListPager } from './FileListPager';
import { FileRow, type FileRowHandlers } from './FileRow';
import type { RowAction } from './FileRowMenu';
import { SelectAllCheckbox, selectAllState } from './SelectAllCheckbox';
import type { RowDrag } from './useNodeDrag';
import { useVirtualRows } from './useVirtualRows';

/** Marks our own row drags, so a drop of files from the desktop is never read as a move. */
const DRAG_TYPE = 'application/x-cairn-node';
const PAGE_SIZE = VAULT_LIMITS.VAULT_PAGE_SIZE;

export interface FileTableProps {
  /** Every item of the folder, in display order; only the rows on screen are rendered. */
  nodes: NodeRecord[];
  selected: ReadonlySet<string>;
  sort: { column: SortColumn; direction: SortDirection };
  onSort: (column: SortColumn) => void;
  onToggle: (id: string, isShift: boolean) => void;
  onToggleAll: () => void;
  onOpen: (node: NodeRecord) => void;
  renderLink: (node: NodeRecord) => ((props: Record<string, unknown>) => ReactNode) | undefined;
  rowActions: (node: NodeRecord) => RowAction[];
  deleteLabel?: string;
  onAction: (action: RowAction, node: NodeRecord) => void;
  /** Rows are draggable onto folder rows only when given (the user can move). */
  drag?: RowDrag;
  /** The count and batch actions, shown in the sticky toolbar beside the pager. */
  toolbar: ReactNode;
  /** False while only the folder's first rows are read: select-all and the pager wait for the rest. */
  isComplete?: boolean;
  /** Rows of new files still uploading, by row id: shown with their upload state, not selectable. */
  uploads?: ReadonlyMap<string, UploadRecord>;
}

const COLUMNS: { column: SortColumn; label: string; width: number; visibleFrom?: 'xs' | 'sm' }[] = [
  { column: 'updatedAt', label: 'Updated', width: 120, visibleFrom: 'sm' },
  // Below xs (phones) the name needs the room more than the size, which File info still gives.
  { column: 'size', label: 'Size', width: 96, visibleFrom: 'xs' },
  { column: 'version', label: 'Versions', width: 96, visibleFrom: 'sm' },
  { column: 'type', label: 'Type', width: 96, visibleFrom: 'xs' },
];

function SortHeader({ label, column, sort, onSort }: { label: string; column: SortColumn } & Pick<FileTableProps, 'sort' | 'onSort'>) {
  const isActive = sort.column === column;
  return (
    <UnstyledButton onClick={() => onSort(column)} fw={700} fz="sm" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      {label}
      {isActive && <IconChevronDown size={14} style={{ transform: sort.direction === 'asc' ? 'rotate(180deg)' : undefined }} />}
    </UnstyledButton>
  );
}

/**
 * A spacer row standing in for rows that are not rendered. One cell, not one spanning every
 * column: columns hidden at a breakpoint are not columns, and a wider span would add phantom
 * ones that take width from the name.
 */
function Spacer({ height }: { height: number }) {
  return (
    <tr aria-hidden="true" data-spacer="">
      <td style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

/**
 * The header row: select-all and the sort columns. Memoised apart from the rows, since the
 * virtualizer re-renders the table on every scrolled frame and the header's Mantine components
 * (a checkbox, five sort buttons, seven cells) need not follow.
 */
const FileTableHead = memo(function FileTableHead({
  headRef,
  sort,
  onSort,
  isAllSelected,
  isIndeterminate,
  isComplete,
  onToggleAll,
}: Pick<FileTableProps, 'sort' | 'onSort' | 'onToggleAll'> & {
  headRef: RefObject<HTMLTableSectionElement | null>;
  isAllSelected: boolean;
  isIndeterminate: boolean;
  isComplete: boolean;
}) {
  const ariaSort = (column: SortColumn) => (sort.column === column ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined);
  return (
    <Table.Thead ref={headRef}>
      <Table.Tr aria-rowindex={1}>
        <Table.Th w={44}>
          <SelectAllCheckbox isAllSelected={isAllSelected} isIndeterminate={isIndeterminate} isComplete={isComplete} onToggleAll={onToggleAll} />
        </Table.Th>
        <Table.Th aria-sort={ariaSort('name')}>
          <SortHeader label="Name" column="name" sort={sort} onSort={onSort} />
        </Table.Th>
        {COLUMNS.map((c) => (
          <Table.Th key={c.column} w={c.width} visibleFrom={c.visibleFrom} aria-sort={ariaSort(c.column)}>
            <SortHeader label={c.label} column={c.column} sort={sort} onSort={onSort} />
          </Table.Th>
        ))}
        <Table.Th w={52}>
          <VisuallyHidden>Actions</VisuallyHidden>
        </Table.Th>
      </Table.Tr>
    </Table.Thead>
  );
});

/**
 * Separate borders, not collapsed ones: collapsed borders give rows fractional heights that differ
 * by half a pixel, and the virtualizer then re-lays out every following row whenever one is shown.
 * With the line inside each cell, every row is exactly ROW_HEIGHT (FileRow) tall.
 */
const LINE = 'calc(0.0625rem * var(--mantine-scale)) solid var(--table-border-color)';
const TABLE_STYLES = { table: { borderCollapse: 'separate', borderSpacing: 0 }, th: { borderBottom: LINE } } as const;

/**
 * The folder as one virtualized list (spec 000 section 2): folders then files, sortable columns,
 * checkboxes with shift ranges, a sticky toolbar and header. The window scrolls (the page keeps
 * its header and bottom bar); only the rows on screen and a few around them are in the DOM,
 * with spacer rows for the rest.
 *
 * Keyboard: the list is one tab stop (the current row); Tab goes on into that row's checkbox,
 * name and menu. Up/Down, Page Up/Down (40 rows), Home and End move between rows, rendered or
 * not; Space selects (with Shift, the range from the last click); Enter opens.
 */
export function FileTable(props: FileTableProps) {
  const { nodes, selected, sort, onSort, onToggle, onToggleAll, onOpen, renderLink, rowActions, deleteLabel, onAction, drag, toolbar, isComplete = true, uploads } = props;
  const [dropTargetId, setDropTargetId] = useState<string | null>(null);
  const [draggingId, setDraggingId] = useState<string | null>(null);
  const draggingIndex = useMemo(() => {
    const index = draggingId === null ? -1 : nodes.findIndex((n) => n.id === draggingId);
    return index < 0 ? null : index;
  }, [nodes, draggingId]);
  const getKey = useCallback((index: number) => nodes[index]!.id, [nodes]);
  const rows = useVirtualRows({ count: nodes.length, getKey, pageSize: PAGE_SIZE, pinnedIndex: draggingIndex });
  const { virtualizer, tabbableIndex, focusRow, onFocusRow } = rows;

  const { isAllSelected, isIndeterminate } = selectAllState(nodes, selected, uploads);

  const rowDrag = useMemo<FileRowHandlers['drag']>(() => {
    if (!drag) return undefined;
    const isOurs = (e: DragEvent) => e.dataTransfer.types.includes(DRAG_TYPE);
    return {
      onDragStart: (node, e) => {
        e.dataTransfer.setData(DRAG_TYPE, node.id);
        e.dataTransfer.setData('text/plain', node.name);
        e.dataTransfer.effectAllowed = 'move';
        // The dragged row stays rendered while the page scrolls under the pointer, so it gets its dragend.
        setDraggingId(node.id);
        drag.onDragStart(node);
      },
      onDragEnd: () => {
        setDropTargetId(null);
        setDraggingId(null);
        drag.onDragEnd();
      },
      onDragOver: (node, e) => {
        if (!isOurs(e) || !drag.canDropOn(node)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setDropTargetId(node.id);
      },
      onDragLeave: (node, e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropTargetId((id) => (id === node.id ? null : id));
      },
      onDrop: (node, e) => {
        if (!isOurs(e)) return;
        e.preventDefault();
        setDropTargetId(null);
        setDraggingId(null);
        drag.onDrop(node);
      },
    };
  }, [drag]);

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLTableSectionElement>) => {
      // Keys from a row's menu reach here through the React tree, though the menu is elsewhere in the DOM.
      const target = e.target as HTMLElement;
      if (!e.currentTarget.contains(target)) return;
      const row = target.closest<HTMLTableRowElement>('tr[data-index]');
      if (!row) return;
      const index = Number(row.dataset.index);
      const node = nodes[index];
      if (!node) return;
      const isOnRow = target === row;
      const isUploading = uploads?.has(node.id) ?? false;
      if (isOnRow && isUploading && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        return;
      }
      if (isOnRow && e.key === 'Enter') {
        e.preventDefault();
        onOpen(node);
        return;
      }
      if (isOnRow && e.key === ' ') {
        e.preventDefault();
        onToggle(node.id, e.shiftKey);
        return;
      }
      // From a control inside the row only Up and Down move on; the other keys keep their meaning there.
      if (!isOnRow && e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const next = rowForKey(e.key, index, nodes.length, PAGE_SIZE);
      if (next === null) return;
      e.preventDefault();
      focusRow(next);
    },
    [nodes, uploads, onOpen, onToggle, focusRow],
  );

  const handlers: FileRowHandlers = { onToggle, onOpen, renderLink, rowActions, deleteLabel, onAction, onFocusRow, drag: rowDrag };
  const items = virtualizer.getVirtualItems();
  const scrollMargin = virtualizer.options.scrollMargin;
  let previousEnd = scrollMargin;

  return (
    <Box>
      <div
        ref={rows.footerProbeRef}
        aria-hidden="true"
        style={{ position: 'fixed', left: 0, bottom: 'var(--app-shell-footer-offset, 0rem)', width: 0, height: 0, pointerEvents: 'none', visibility: 'hidden' }}
      />
      <Group
        ref={rows.toolbarRef}
        justify="space-between"
        gap="xs"
        py={6}
        pos="sticky"
        style={{ top: 'var(--app-shell-header-offset, 0rem)', zIndex: 3, background: 'var(--mantine-color-body)' }}
      >
        {toolbar}
        {isComplete && rows.pageCount > 1 && (
          <FileListPager range={rows.visible} count={nodes.length} page={rows.page} pageCount={rows.pageCount} onPage={rows.jumpToPage} />
        )}
      </Group>
      <Table highlightOnHover verticalSpacing="xs" layout="fixed" withRowBorders={false} styles={TABLE_STYLES} stickyHeader stickyHeaderOffset={`calc(var(--app-shell-header-offset, 0rem) + ${rows.toolbarHeight}px)`} aria-rowcount={nodes.length + 1}>
        <FileTableHead
          headRef={rows.headRef}
          sort={sort}
          onSort={onSort}
          isAllSelected={isAllSelected}
          isIndeterminate={isIndeterminate}
          isComplete={isComplete}
          onToggleAll={onToggleAll}
        />
        <Table.Tbody ref={rows.bodyRef} onKeyDown={onKeyDown} onBlur={rows.onBlurBody}>
          {items.map((item) => {
            const node = nodes[item.index];
            if (!node) return null;
            const gap = item.start - previousEnd;
            previousEnd = item.end;
            return (
              <Fragment key={item.key}>
                {gap > 0.5 && <Spacer height={gap} />}
                <FileRow
                  node={node}
                  upload={uploads?.get(node.id)}
                  index={item.index}
                  isSelected={selected.has(node.id)}
                  isDropTarget={dropTargetId === node.id}
                  isTabbable={item.index === tabbableIndex}
                  rowRef={virtualizer.measureElement}
                  {...handlers}
                />
              </Fragment>
            );
          })}
          {virtualizer.getTotalSize() + scrollMargin - previousEnd > 0.5 && <Spacer height={virtualizer.getTotalSize() + scrollMargin - previousEnd} />}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
