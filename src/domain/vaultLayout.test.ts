import { describe, expect, it } from 'vitest';
import { numberedName, vaultLayout, type LayoutNode } from './vaultLayout';

let clock = 0;
function node(id: string, kind: 'folder' | 'file', parentId: string | null, name: string, status = 'ACTIVE'): LayoutNode {
  clock += 1;
  return { id, kind, parentId, name, status, createdAt: clock };
}

describe('[R88] the vault as paths (export and cairn restore)', () => {
  it('folders (empty ones too) and files in their places, parents first', () => {
    const layout = vaultLayout([
      node('f1', 'folder', null, 'Survey'),
      node('f2', 'folder', 'f1', 'Maps'),
      node('a', 'file', 'f2', 'terrain.bin'),
      node('e', 'folder', 'f1', 'Empty'),
      node('n', 'file', null, 'Notes.md'),
    ]);
    expect(layout).toEqual([
      { id: 'f1', kind: 'folder', path: 'Survey' },
      { id: 'f2', kind: 'folder', path: 'Survey/Maps' },
      { id: 'a', kind: 'file', path: 'Survey/Maps/terrain.bin' },
      { id: 'e', kind: 'folder', path: 'Survey/Empty' },
      { id: 'n', kind: 'file', path: 'Notes.md' },
    ]);
  });

  it('hidden and deleted nodes, and everything under a hidden folder, are left out', () => {
    const layout = vaultLayout([
      node('h', 'folder', null, 'Hidden', 'REVOKED'),
      node('x', 'file', 'h', 'inside.txt'),
      node('d', 'file', null, 'gone.txt', 'DELETED'),
      node('k', 'file', null, 'kept.txt'),
      node('o', 'file', 'missing-parent', 'orphan.txt'),
    ]);
    expect(layout.map((e) => e.path)).toEqual(['kept.txt']);
  });

  it('two names a disk takes for one: the first created keeps it, the next gets (2), (3) before the extension', () => {
    const layout = vaultLayout([
      node('1', 'file', null, 'Report.pdf'),
      node('2', 'file', null, 'report.PDF'),
      node('3', 'file', null, 'Report.pdf'),
      node('4', 'folder', null, 'README'),
      node('5', 'file', null, 'readme'),
    ]);
    expect(layout.map((e) => e.path)).toEqual(['Report.pdf', 'report (2).PDF', 'Report (3).pdf', 'README', 'readme (2)']);
    expect(numberedName('.env', 2)).toBe('.env (2)');
  });

  it('a name no disk can hold is made safe, never a path out of the folder', () => {
    const layout = vaultLayout([node('1', 'file', null, '../../etc/passwd'), node('2', 'file', null, 'CON.txt'), node('3', 'file', null, '..')]);
    for (const entry of layout) expect(entry.path).not.toContain('/');
    expect(layout.map((e) => e.path)).toEqual(['.._.._etc_passwd', '_CON.txt', '_']);
  });

  it('a folder cycle is cut, not looped', () => {
    const a = node('a', 'folder', 'b', 'A');
    const b = node('b', 'folder', 'a', 'B');
    expect(vaultLayout([a, b, node('r', 'file', null, 'root.txt')]).map((e) => e.path)).toEqual(['root.txt']);
  });
});
