import { Button, Text } from '@mantine/core';
import { type KeyboardEvent, useCallback, useRef, useState } from 'react';
import { formatBytes, formatFileType } from '../../domain/formatting';
import type { NodeRecord, UploadRecord } from '../../storage/vaultRecords';
import classes from './FileGrid.module.css';
import { FileRowMenu, type RowAction } from './FileRowMenu';
import { NodeIcon } from './NodeIcon';

/** Tiles shown before 'Show more': a grid is not virtualized, so a 10,000-item folder grows by pages. */
export const GRID_PAGE = 120;

export interface FileGridProps {
  nodes: NodeRecord[];
  selected: ReadonlySet<string>;
  onToggle: (id: string, isShift: boolean) => void;
  onOpen: (node: NodeRecord) => void;
  rowActions: (node: NodeRecord) => RowAction[];
  deleteLabel?: string;
  onAction: (action: RowAction, node: NodeRecord) => void;
  uploads?: ReadonlyMap<string, UploadRecord>;
}

/** How many tiles a row of the grid holds now (its computed template), for Up and Down. */
function columnsOf(grid: HTMLElement | null): number {
  if (!grid) return 1;
  const template = getComputedStyle(grid).gridTemplateColumns;
  return Math.max(1, template.split(' ').filter(Boolean).length);
}

/**
 * The folder as tiles (issue 26): each file's thumbnail (R79) or its type's icon, its name and
 * size, a selection box and the same actions menu as its row. One tab stop, like the list: the
 * arrow keys move between tiles (Up and Down by a row of the grid), Home and End to the ends,
 * Enter opens, Space selects (with Shift, a range).
 */
export function FileGrid({ nodes, selected, onToggle, onOpen, rowActions, deleteLabel, onAction, uploads }: FileGridProps) {
  const [current, setCurrent] = useState(0);
  const [shown, setShown] = useState(GRID_PAGE);
  const gridRef = useRef<HTMLUListElement>(null);
  const visible = nodes.slice(0, shown);
  const tabbable = Math.min(current, visible.length - 1);

  const focusTile = useCallback((index: number) => {
    setCurrent(index);
    gridRef.current?.querySelector<HTMLElement>(`[data-tile-index="${index}"]`)?.focus();
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLElement>, index: number, node: NodeRecord) => {
    if (e.target !== e.currentTarget) return;
    const isUploading = uploads?.has(node.id) ?? false;
    const last = visible.length - 1;
    let next: number | null = null;
    switch (e.key) {
      case 'ArrowRight':
        next = Math.min(last, index + 1);
        break;
      case 'ArrowLeft':
        next = Math.max(0, index - 1);
        break;
      case 'ArrowDown':
        next = Math.min(last, index + columnsOf(gridRef.current));
        break;
      case 'ArrowUp':
        next = Math.max(0, index - columnsOf(gridRef.current));
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = last;
        break;
      case 'Enter':
        e.preventDefault();
        if (!isUploading) onOpen(node);
        return;
      case ' ':
        e.preventDefault();
        if (!isUploading) onToggle(node.id, e.shiftKey);
        return;
      default:
        return;
    }
    e.preventDefault();
    focusTile(next);
  };

  return (
    <>
      <ul ref={gridRef} className={classes.grid} aria-label="Files and folders">
        {visible.map((node, index) => {
          const isUploading = uploads?.has(node.id) ?? false;
          const isSelected = selected.has(node.id);
          const actions = isUploading ? [] : rowActions(node);
          const tabIndex = index === tabbable ? 0 : -1;
          return (
            <li key={node.id} style={{ minWidth: 0 }}>
              <div
                className={classes.tile}
                role="group"
                aria-label={node.name}
                data-tile-index={index}
                data-selected={isSelected || undefined}
                data-testid={isUploading ? 'pending-upload' : undefined}
                tabIndex={tabIndex}
                onFocus={() => setCurrent(index)}
                onKeyDown={(e) => onKeyDown(e, index, node)}
                onClick={() => !isUploading && onOpen(node)}
              >
                <div className={classes.preview}>
                  <NodeIcon node={node} size={48} thumbnailSize={256} />
                </div>
                <div className={classes.caption}>
                  <div className={classes.label}>
                    <Text size="sm" fw={500} truncate="end" title={node.name}>
                      {node.name}
                    </Text>
                    <Text size="xs" c="dimmed" truncate="end">
                      {node.kind === 'folder' ? 'Folder' : `${formatFileType(node.mimeType, node.name)} · ${formatBytes(node.size)}`}
                    </Text>
                  </div>
                  {actions.length > 0 && (
                    <span onClick={(e) => e.stopPropagation()}>
                      <FileRowMenu node={node} actions={actions} deleteLabel={deleteLabel} onAction={onAction} tabIndex={tabIndex} />
                    </span>
                  )}
                </div>
                {!isUploading && (
                  <input
                    type="checkbox"
                    className={classes.select}
                    aria-label={`Select ${node.name}`}
                    checked={isSelected}
                    tabIndex={tabIndex}
                    onChange={() => undefined}
                    onClick={(e) => {
                      e.stopPropagation();
                      onToggle(node.id, e.shiftKey);
                    }}
                  />
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {nodes.length > shown && (
        <Button variant="default" mt="md" onClick={() => setShown((n) => n + GRID_PAGE)}>
          Show more
        </Button>
      )}
    </>
  );
}
