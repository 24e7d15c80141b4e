import { useCallback, useMemo, useState } from 'react';
import { canMoveInto, draggedIds } from '../../domain/moveRules';
import type { NodeRecord } from '../../storage/vaultRecords';
import { dropNodes } from './fileCommands';

/** What FileTable needs to let rows be dragged onto folder rows. */
export interface RowDrag {
  onDragStart: (node: NodeRecord) => void;
  onDragEnd: () => void;
  canDropOn: (folder: NodeRecord) => boolean;
  onDrop: (folder: NodeRecord) => void;
}

/**
 * Drag of rows onto a folder moves them (spec 000 section 2). A drag from a selected row carries
 * the whole selection. Returns undefined when the user cannot move (VIEWER, read-only mode,
 * archived vault), so rows are not draggable at all; keyboard users keep the Move picker.
 */
export function useNodeDrag(options: {
  vaultId: string;
  isEnabled: boolean;
  nodes: readonly NodeRecord[];
  selected: ReadonlySet<string>;
  /** Folder ids from the root down to the folder shown. */
  pathIds: readonly string[];
  onMoved: () => void;
}): RowDrag | undefined {
  const { vaultId, isEnabled, nodes, selected, pathIds, onMoved } = options;
  const [moving, setMoving] = useState<NodeRecord[] | null>(null);

  const onDragStart = useCallback(
    (node: NodeRecord) => {
      const ids = new Set(draggedIds(node.id, selected));
      setMoving(nodes.filter((n) => ids.has(n.id)));
    },
    [nodes, selected],
  );
  const onDragEnd = useCallback(() => setMoving(null), []);
  const canDropOn = useCallback(
    (folder: NodeRecord) => folder.kind === 'folder' && moving !== null && canMoveInto(moving, { folderId: folder.id, pathIds: [...pathIds, folder.id] }),
    [moving, pathIds],
  );
  const onDrop = useCallback(
    (folder: NodeRecord) => {
      if (!moving || !canDropOn(folder)) return;
      const items = moving;
      setMoving(null);
      void dropNodes(vaultId, items, folder.id).then((ok) => ok && onMoved());
    },
    [moving, canDropOn, vaultId, onMoved],
  );

  return useMemo(() => (isEnabled ? { onDragStart, onDragEnd, canDropOn, onDrop } : undefined), [isEnabled, onDragStart, onDragEnd, canDropOn, onDrop]);
}
