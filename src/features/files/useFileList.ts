import { useCallback, useEffect, useMemo, useState } from 'react';
import { type SortColumn, type SortDirection, sortNodes } from '../../domain/nodeSort';
import { toggleAll, toggleSelection } from '../../domain/selectionRules';
import type { NodeRecord } from '../../storage/vaultRecords';

const NO_ROWS: NodeRecord[] = [];

export type FileListSort = { column: SortColumn; direction: SortDirection };

/**
 * Sorting and selection of a folder's items, all of them (the list is virtualized, not paged):
 * select-all and shift ranges reach rows that are not rendered. The selection resets when the
 * folder changes; the sort is kept. `pending` rows (new files still uploading) are sorted among
 * the items but are not items yet: they are neither selected nor counted.
 */
export function useFileList(children: NodeRecord[] | undefined, folderKey: string, pending: NodeRecord[] = NO_ROWS) {
  const [sort, setSort] = useState<FileListSort>({ column: 'name', direction: 'asc' });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [anchorId, setAnchorId] = useState<string | null>(null);

  // Memoised on the list itself: a re-render (a scroll, a selection) never sorts again, and
  // lists from the store arrive in name order, which sortNodes checks in one pass.
  const sorted = useMemo(
    () => sortNodes(pending.length === 0 ? (children ?? []) : [...(children ?? []), ...pending], sort.column, sort.direction),
    [children, pending, sort],
  );
  // Rows of files still uploading are in the list but not yet items: they cannot be selected.
  const orderedIds = useMemo(() => {
    const pendingIds = new Set(pending.map((n) => n.id));
    return sorted.flatMap((n) => (pendingIds.has(n.id) ? [] : [n.id]));
  }, [sorted, pending]);

  useEffect(() => {
    setSelected(new Set());
    setAnchorId(null);
  }, [folderKey]);

  // Items that left the folder (moved, hidden, removed) leave the selection too.
  useEffect(() => {
    setSelected((current) => {
      if (current.size === 0) return current;
      const present = new Set(orderedIds);
      return [...current].every((id) => present.has(id)) ? current : new Set([...current].filter((id) => present.has(id)));
    });
  }, [orderedIds]);

  const onToggle = useCallback(
    (id: string, isShift: boolean) => {
      setSelected((current) => toggleSelection(orderedIds, current, id, anchorId, isShift));
      setAnchorId(id);
    },
    [orderedIds, anchorId],
  );
  const onToggleAll = useCallback(() => setSelected((current) => toggleAll(orderedIds, current)), [orderedIds]);
  const onSort = useCallback(
    (column: SortColumn) =>
      setSort((current) => ({ column, direction: current.column === column && current.direction === 'asc' ? 'desc' : 'asc' })),
    [],
  );
  const selectedNodes = useMemo(() => (selected.size === 0 ? [] : sorted.filter((n) => selected.has(n.id))), [sorted, selected]);
  const clearSelection = useCallback(() => setSelected(new Set()), []);

  // Rows still uploading, counted with the items in the toolbar (selectionSummary).
  const pendingCount = sorted.length - orderedIds.length;
  return { sorted, itemCount: orderedIds.length, pendingCount, sort, onSort, selected, selectedNodes, onToggle, onToggleAll, clearSelection };
}
