/**
 * Batch download as one zip (spec 000 sections 5, 9): the selected files, and the active files
 * under each selected folder at their path relative to the folder's parent. Names are made
 * unique inside the archive (two selected folders may hold 'a.txt' at the same path).
 */

export interface ZipSourceNode {
  id: string;
  kind: 'folder' | 'file';
  parentId: string | null;
  name: string;
  status: string;
  size: number;
  updatedAt: number;
}

export interface ZipEntry {
  fileId: string;
  /** Path inside the archive, '/'-separated. */
  path: string;
  size: number;
  updatedAt: number;
}

/** Whether the selection needs an archive rather than a single saved file. */
export function needsZip(selected: readonly { kind: 'folder' | 'file' }[]): boolean {
  return selected.length > 1 || selected.some((n) => n.kind === 'folder');
}

/** Slashes and control characters would turn a name into a path or break the archive. */
function safeName(name: string): string {
  const cleaned = name.replace(/[/\\\u0000-\u001f]/g, '_').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}

/** 'a.txt' -> 'a (2).txt' until the path is free. */
export function uniquePath(path: string, taken: Set<string>): string {
  if (!taken.has(path)) return path;
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const base = path.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
  for (let n = 2; ; n += 1) {
    const candidate = `${dir}${stem} (${n})${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The archive's entries for `selected`, given every node of the vault. Only ACTIVE nodes are
 * included; a folder cycle (which the sync layer should never produce) is cut rather than looped.
 */
export function zipEntries(selected: readonly ZipSourceNode[], vaultNodes: readonly ZipSourceNode[]): ZipEntry[] {
  const childrenOf = new Map<string, ZipSourceNode[]>();
  for (const node of vaultNodes) {
    if (node.status !== 'ACTIVE' || node.parentId === null) continue;
    const list = childrenOf.get(node.parentId) ?? [];
    list.push(node);
    childrenOf.set(node.parentId, list);
  }
  const entries: ZipEntry[] = [];
  const taken = new Set<string>();
  const visited = new Set<string>();
  function add(node: ZipSourceNode, dir: string) {
    if (visited.has(node.id)) return;
    visited.add(node.id);
    const path = `${dir}${safeName(node.name)}`;
    if (node.kind === 'file') {
      const unique = uniquePath(path, taken);
      taken.add(unique);
      entries.push({ fileId: node.id, path: unique, size: node.size, updatedAt: node.updatedAt });
      return;
    }
    for (const child of childrenOf.get(node.id) ?? []) add(child, `${path}/`);
  }
  for (const node of selected) add(node, '');
  return entries;
}

/** '{vault name}.zip', with a fallback for a vault whose name is not known yet. */
export function zipFileName(vaultName: string): string {
  return `${safeName(vaultName) === '_' ? 'vault' : safeName(vaultName)}.zip`;
}
