import { describe, expect, it } from 'vitest';
import { needsZip, type ZipSourceNode, zipEntries, zipFileName } from './zipEntries';

function n(id: string, kind: 'folder' | 'file', parentId: string | null, name = id, status = 'ACTIVE'): ZipSourceNode {
  return { id, kind, parentId, name, status, size: 1, updatedAt: 0 };
}

describe('batch download archive (spec 000 section 5)', () => {
  const vault = [
    n('f1', 'file', null, 'a.txt'),
    n('d1', 'folder', null, 'Receipts'),
    n('f2', 'file', 'd1', 'a.txt'),
    n('d2', 'folder', 'd1', 'May'),
    n('f3', 'file', 'd2', 'b.pdf'),
    n('f4', 'file', 'd2', 'hidden.pdf', 'REVOKED'),
  ];
  it('zips several files or any folder, but not one file', () => {
    expect(needsZip([n('a', 'file', null)])).toBe(false);
    expect(needsZip([n('a', 'folder', null)])).toBe(true);
    expect(needsZip([n('a', 'file', null), n('b', 'file', null)])).toBe(true);
  });
  it('puts a folder\'s active files at paths relative to the selection', () => {
    const paths = zipEntries([vault[0]!, vault[1]!], vault).map((e) => [e.fileId, e.path]);
    expect(paths).toEqual([
      ['f1', 'a.txt'],
      ['f2', 'Receipts/a.txt'],
      ['f3', 'Receipts/May/b.pdf'],
    ]);
  });
  it('keeps names unique and path-safe', () => {
    const entries = zipEntries([n('x', 'file', null, 'a.txt'), n('y', 'file', null, 'a.txt'), n('z', 'file', null, '../etc/p')], []);
    expect(entries.map((e) => e.path)).toEqual(['a.txt', 'a (2).txt', '.._etc_p']);
  });
  it('names the archive after the vault', () => {
    expect(zipFileName('Expedition')).toBe('Expedition.zip');
    expect(zipFileName('')).toBe('vault.zip');
  });
});
