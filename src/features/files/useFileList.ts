import { useCallback, useEffect, useMemo, useState } from 'react';
import { type SortColumn, type SortDirection, sortNodes } from '../../domain/nodeSort';
import { toggleAll, toggleSelection } from '../../domain/selectionRules';
import { VAULT_LIMITS } from '../../protocol/vaults';
import type { NodeRecord } from '../../storage/vaultRecords';
import { usePage } from '../../ui/usePage';

/** Sorting, 40-per-page pagination and selection of a folder's items; reset when the folder changes. */
export function useFileList(children: NodeRecord[] | undefined, folderKey: string) {
  const [sort, setSort] = useState<{ column: SortColumn; direction: SortDirection }>({ column: 'name', direction: 'asc' });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [anchorId, setAnchorId] = useState<string | null>(null);

  const sorted = useMemo(() => sortNodes(children ?? [], sort.column, sort.direction), [children, sort]);
  const { page, setPage, pageCount, pageItems } = usePage(sorted, VAULT_LIMITS.VAULT_PAGE_SIZE, `${folderKey}`);

  useEffect(() => {
    setSelected(new Set());
    setAnchorId(null);
  }, [folderKey]);

  // Items that left the folder (moved, hidden, removed) leave the selection too.
  useEffect(() => {
    const present = new Set(sorted.map((n) => n.id));
    setSelected((current) => ([...current].every((id) => present.has(id)) ? current : new Set([...current].filter((id) => present.has(id)))));
  }, [sorted]);

  const pageIds = useMemo(() => pageItems.map((n) => n.id), [pageItems]);
  const onToggle = useCallback(
    (id: string, isShift: boolean) => {
      setSelected((current) => toggleSelection(pageIds, current, id, anchorId, isShift));
      setAnchorId(id);
    },
    [pageIds, anchorId],
  );
  const onToggleAll = useCallback(() => setSelected((current) => toggleAll(pageIds, current)), [pageIds]);
  const onSort = useCallback(
    (column: SortColumn) =>
      setSort((current) => ({ column, direction: current.column === column && current.direction === 'asc' ? 'desc' : 'asc' })),
    [],
  );
  const selectedNodes = useMemo(() => sorted.filter((n) => selected.has(n.id)), [sorted, selected]);
  const clearSelection = useCallback(() => setSelected(new Set()), []);

  return { sorted, sort, onSort, page, setPage, pageCount, pageItems, selected, selectedNodes, onToggle, onToggleAll, clearSelection };
}
