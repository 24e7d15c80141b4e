import { Checkbox, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { type DragEvent, type MouseEvent, type ReactNode, useState } from 'react';
import { formatBytes, formatDate, formatFileType } from '../../domain/formatting';
import type { SortColumn, SortDirection } from '../../domain/nodeSort';
import type { NodeRecord } from '../../storage/vaultRecords';
import { IconChevronDown } from '../../ui/icons';
import { FileRowMenu, type RowAction } from './FileRowMenu';
import { NodeName } from './NodeName';
import type { RowDrag } from './useNodeDrag';

/** Marks our own row drags, so a drop of files from the desktop is never read as a move. */
const DRAG_TYPE = 'application/x-cairn-node';

export interface FileTableProps {
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
}

const COLUMNS: { column: SortColumn; label: string; width: number; visibleFrom?: 'xs' | 'sm' }[] = [
  { column: 'updatedAt', label: 'Updated', width: 120, visibleFrom: 'sm' },
  { column: 'size', label: 'Size', width: 96 },
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

/** Folders then files, sortable columns, checkboxes with shift ranges (spec 000 sections 2, 5). */
export function FileTable(props: FileTableProps) {
  const { nodes, selected, sort, onSort, onToggle, onToggleAll, onOpen, renderLink, rowActions, deleteLabel, onAction, drag } = props;
  const [dropTargetId, setDropTargetId] = useState<string | null>(null);
  let selectedOnPage = 0;
  for (const n of nodes) if (selected.has(n.id)) selectedOnPage += 1;

  function dragProps(node: NodeRecord) {
    if (!drag) return {};
    const isOurs = (e: DragEvent) => e.dataTransfer.types.includes(DRAG_TYPE);
    const rowProps = {
      draggable: true,
      onDragStart: (e: DragEvent<HTMLTableRowElement>) => {
        e.dataTransfer.setData(DRAG_TYPE, node.id);
        e.dataTransfer.setData('text/plain', node.name);
        e.dataTransfer.effectAllowed = 'move';
        drag.onDragStart(node);
      },
      onDragEnd: () => {
        setDropTargetId(null);
        drag.onDragEnd();
      },
    };
    if (node.kind !== 'folder') return rowProps;
    return {
      ...rowProps,
      onDragOver: (e: DragEvent<HTMLTableRowElement>) => {
        if (!isOurs(e) || !drag.canDropOn(node)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        if (dropTargetId !== node.id) setDropTargetId(node.id);
      },
      onDragLeave: (e: DragEvent<HTMLTableRowElement>) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropTargetId((id) => (id === node.id ? null : id));
      },
      onDrop: (e: DragEvent<HTMLTableRowElement>) => {
        if (!isOurs(e)) return;
        e.preventDefault();
        setDropTargetId(null);
        drag.onDrop(node);
      },
    };
  }
  const ariaSort = (column: SortColumn) => (sort.column === column ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined);

  return (
    <Table highlightOnHover verticalSpacing="xs" layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={44}>
            <Checkbox
              aria-label="Select all on this page"
              checked={nodes.length > 0 && selectedOnPage === nodes.length}
              indeterminate={selectedOnPage > 0 && selectedOnPage < nodes.length}
              onChange={onToggleAll}
            />
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
      <Table.Tbody>
        {nodes.map((node) => {
          const actions = rowActions(node);
          return (
            <Table.Tr
              key={node.id}
              bg={selected.has(node.id) || dropTargetId === node.id ? 'var(--mantine-primary-color-light)' : undefined}
              style={dropTargetId === node.id ? { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: -2 } : undefined}
              data-drop-target={dropTargetId === node.id || undefined}
              onDoubleClick={() => onOpen(node)}
              {...dragProps(node)}
            >
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${node.name}`}
                  checked={selected.has(node.id)}
                  onChange={() => undefined}
                  onClick={(e: MouseEvent<HTMLInputElement>) => onToggle(node.id, e.shiftKey)}
                />
              </Table.Td>
              <Table.Td>
                <NodeName node={node} renderLink={renderLink(node)} />
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <Text size="sm">{formatDate(node.updatedAt)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatBytes(node.size)}</Text>
              </Table.Td>
              <Table.Td visibleFrom="sm">
                <Text size="sm">{node.kind === 'file' ? node.versionCount : ''}</Text>
              </Table.Td>
              <Table.Td visibleFrom="xs">
                <Text size="sm" truncate>
                  {node.kind === 'folder' ? 'Folder' : formatFileType(node.mimeType, node.name)}
                </Text>
              </Table.Td>
              <Table.Td>{actions.length > 0 && <FileRowMenu node={node} actions={actions} deleteLabel={deleteLabel} onAction={onAction} />}</Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
