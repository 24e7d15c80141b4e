/**
 * File list selection (spec 000 section 5): shift-click selects a range; batch download is
 * disabled at or above 1e9 bytes in total.
 */
import { VAULT_LIMITS } from '../protocol/vaults';

export const BATCH_DOWNLOAD_LIMIT_TEXT = 'Batch downloads cannot exceed the limit';

/**
 * The selection after clicking `targetId`. With shift and a previous click (`anchorId`) in the
 * list, every id between them (inclusive, in list order, rendered or not) takes the clicked
 * row's new state; otherwise the clicked row toggles.
 */
export function toggleSelection(
  orderedIds: readonly string[],
  selected: ReadonlySet<string>,
  targetId: string,
  anchorId: string | null,
  isShift: boolean,
): Set<string> {
  const next = new Set(selected);
  const willSelect = !selected.has(targetId);
  const from = anchorId === null ? -1 : orderedIds.indexOf(anchorId);
  const to = orderedIds.indexOf(targetId);
  if (!isShift || from < 0 || to < 0) {
    if (willSelect) next.add(targetId);
    else next.delete(targetId);
    return next;
  }
  const [start, end] = from <= to ? [from, to] : [to, from];
  for (const id of orderedIds.slice(start, end + 1)) {
    if (willSelect) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** Select-all toggles every item of the folder, shown on screen or not. */
export function toggleAll(ids: readonly string[], selected: ReadonlySet<string>): Set<string> {
  const allSelected = ids.length > 0 && ids.every((id) => selected.has(id));
  return allSelected ? new Set() : new Set(ids);
}

/**
 * The list toolbar's count: '10,000 items' with nothing selected, '12 selected', 'All 10,000
 * selected'. With nothing selected it counts every row the list shows, new files still uploading
 * (`pendingCount`) included: '0 items' above four uploading rows read as a broken list. Only items
 * can be selected, so the selection counts against `itemCount` alone.
 */
export function selectionSummary(selectedCount: number, itemCount: number, pendingCount = 0): string {
  const format = (n: number) => n.toLocaleString('en-US');
  const rowCount = itemCount + pendingCount;
  if (selectedCount === 0) return rowCount === 1 ? '1 item' : `${format(rowCount)} items`;
  if (selectedCount === itemCount && itemCount > 1) return `All ${format(itemCount)} selected`;
  return `${format(selectedCount)} selected`;
}

export function canBatchDownload(totalBytes: number): boolean {
  return totalBytes < VAULT_LIMITS.BATCH_DOWNLOAD_MAX;
}
