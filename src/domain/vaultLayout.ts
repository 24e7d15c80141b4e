/**
 * A vault as a tree of paths (docs/SYNC_SPEC.md R88): the layout of 'Export vault' and of
 * `cairn restore`. Only ACTIVE nodes under ACTIVE folders are in it (hidden and deleted ones, and
 * whatever sits under them, are not); folders keep their place even when empty. Each name is
 * made one a disk can hold (`uploadSafeName`, R73). Two entries of one folder that a disk would
 * take for one (case and Unicode form aside, as Windows and macOS do) keep the first, in the
 * order they were created; the next gets ' (2)', ' (3)' before its extension.
 *
 * Pure: no I/O.
 */
import { nameKey, uploadSafeName } from './nodeNames';

export interface LayoutNode {
  id: string;
  kind: 'folder' | 'file';
  parentId: string | null;
  name: string;
  status: string;
  /** Orders siblings: the first created keeps its name. */
  createdAt: number;
}

export interface LayoutEntry {
  id: string;
  kind: 'folder' | 'file';
  /** '/'-separated, relative to the vault's root; parents come before their children. */
  path: string;
}

/** 'a.txt' -> 'a (n).txt'; a name without an extension (or a dot file) gets ' (n)' at its end. */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  return `${stem} (${n})${ext}`;
}

/** The vault's folders and files as paths, parents first, siblings in creation order. */
export function vaultLayout(nodes: readonly LayoutNode[]): LayoutEntry[] {
  const childrenOf = new Map<string | null, LayoutNode[]>();
  for (const node of nodes) {
    if (node.status !== 'ACTIVE') continue;
    const list = childrenOf.get(node.parentId) ?? [];
    list.push(node);
    childrenOf.set(node.parentId, list);
  }
  const entries: LayoutEntry[] = [];
  const visited = new Set<string>();
  const walk = (parentId: string | null, dir: string) => {
    const children = [...(childrenOf.get(parentId) ?? [])].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const taken = new Set<string>();
    for (const child of children) {
      // A folder cycle (which the log's rules should never let through) is cut, not looped.
      if (visited.has(child.id)) continue;
      visited.add(child.id);
      const safe = uploadSafeName(child.name);
      let name = safe;
      for (let n = 2; taken.has(nameKey(name)); n += 1) name = numberedName(safe, n);
      taken.add(nameKey(name));
      const path = `${dir}${name}`;
      entries.push({ id: child.id, kind: child.kind, path });
      if (child.kind === 'folder') walk(child.id, `${path}/`);
    }
  };
  walk(null, '');
  return entries;
}
