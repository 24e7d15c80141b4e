/**
 * File list selection (spec 000 section 5): shift-click selects a range; batch download is
 * disabled at or above 1e9 bytes in total.
 */
import { VAULT_LIMITS } from '../protocol/vaults';

export const BATCH_DOWNLOAD_LIMIT_TEXT = 'Batch downloads cannot exceed the limit';

/**
 * The selection after clicking `targetId`. With shift and a previous click (`anchorId`) on the
 * page, every id between them (inclusive) takes the clicked row's new state; otherwise the
 * clicked row toggles.
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

/** Select-all toggles the whole page. */
export function toggleAll(pageIds: readonly string[], selected: ReadonlySet<string>): Set<string> {
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  return allSelected ? new Set() : new Set(pageIds);
}

export function canBatchDownload(totalBytes: number): boolean {
  return totalBytes < VAULT_LIMITS.BATCH_DOWNLOAD_MAX;
}
