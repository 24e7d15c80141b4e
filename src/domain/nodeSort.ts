/**
 * File list ordering (spec 000 section 2, sort columns): folders first, then files; names with
 * numeric-aware comparison ('file 2' before 'file 10').
 */

export const SORT_COLUMNS = ['name', 'updatedAt', 'size', 'version', 'type'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export type SortDirection = 'asc' | 'desc';

export interface SortableNode {
  kind: 'folder' | 'file';
  name: string;
  updatedAt: number;
  size: number;
  versionCount: number;
  mimeType: string;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function compareNames(a: string, b: string): number {
  return collator.compare(a, b);
}

function compareBy(column: SortColumn, a: SortableNode, b: SortableNode): number {
  switch (column) {
    case 'updatedAt':
      return a.updatedAt - b.updatedAt;
    case 'size':
      return a.size - b.size;
    case 'version':
      return a.versionCount - b.versionCount;
    case 'type':
      return compareNames(a.mimeType, b.mimeType);
    default:
      return compareNames(a.name, b.name);
  }
}

/** Folders stay above files whatever the column; ties fall back to the name. */
export function sortNodes<T extends SortableNode>(nodes: readonly T[], column: SortColumn, direction: SortDirection): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...nodes].sort((a, b) => {
    if (a.kind !== b.kind) return a.kind === 'folder' ? -1 : 1;
    const byColumn = compareBy(column, a, b) * sign;
    return byColumn !== 0 ? byColumn : compareNames(a.name, b.name);
  });
}
