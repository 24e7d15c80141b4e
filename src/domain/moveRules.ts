/**
 * Where files and folders may be moved (spec 000 section 5: the move picker excludes the item
 * being moved and batch items, so a folder never lands inside itself or its own subtree) and what
 * a row drag carries (spec 000 section 2: dragging onto a folder moves it).
 */

/**
 * The ids a drag starting on `draggedId` carries: the whole selection when the dragged row is
 * part of it, otherwise that row alone.
 */
export function draggedIds(draggedId: string, selected: ReadonlySet<string>): string[] {
  return selected.has(draggedId) ? [...selected] : [draggedId];
}

export interface MoveTarget {
  /** The destination folder; null: the vault root. */
  folderId: string | null;
  /** Ids of the destination's folders from the root down to it (inclusive); [] for the root. */
  pathIds: readonly string[];
}

/**
 * Whether the items can go into `target`: not into one of them nor anything beneath them, and
 * not where every one of them already is (a drop that changes nothing is refused too).
 */
export function canMoveInto(moving: readonly { id: string; parentId: string | null }[], target: MoveTarget): boolean {
  if (moving.length === 0) return false;
  const movingIds = new Set(moving.map((n) => n.id));
  if (target.folderId !== null && movingIds.has(target.folderId)) return false;
  if (target.pathIds.some((id) => movingIds.has(id))) return false;
  return moving.some((n) => n.parentId !== target.folderId);
}
