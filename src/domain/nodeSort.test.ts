import { describe, expect, it } from 'vitest';
import { compareNames, type SortableNode, sortNodes } from './nodeSort';

function node(name: string, kind: 'folder' | 'file' = 'file', size = 0): SortableNode {
  return { kind, name, size, updatedAt: 0, versionCount: 1, mimeType: '' };
}

describe('file list order (spec 000 section 2)', () => {
  it('compares names numerically', () => {
    expect(compareNames('file 2', 'file 10')).toBeLessThan(0);
    expect(compareNames('a', 'B')).toBeLessThan(0);
  });
  it('keeps folders first in both directions', () => {
    const nodes = [node('b 10'), node('z', 'folder'), node('b 9'), node('a', 'folder')];
    expect(sortNodes(nodes, 'name', 'asc').map((n) => n.name)).toEqual(['a', 'z', 'b 9', 'b 10']);
    expect(sortNodes(nodes, 'name', 'desc').map((n) => n.name)).toEqual(['z', 'a', 'b 10', 'b 9']);
  });
  it('sorts by size with the name as tie-breaker', () => {
    const nodes = [node('c', 'file', 5), node('b', 'file', 1), node('a', 'file', 5)];
    expect(sortNodes(nodes, 'size', 'asc').map((n) => n.name)).toEqual(['b', 'a', 'c']);
  });
});
