import { describe, expect, it } from 'vitest';
import { approximateNameKey, compareNames, nodeComparator, type SortableNode, sortNodes } from './nodeSort';

let nextId = 0;
function node(name: string, kind: 'folder' | 'file' = 'file', size = 0, extra: Partial<SortableNode> = {}): SortableNode {
  nextId += 1;
  return { id: `id${String(nextId).padStart(6, '0')}`, kind, name, size, updatedAt: 0, versionCount: 1, mimeType: '', ...extra };
}

/** A deterministic shuffle (mulberry32), so a failure can be replayed. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Names on which code-unit order and the collator disagree: case, accents, punctuation, digits. */
const AWKWARD = ['Report', 'report', 'résumé', 'Resume', 'IMG_0010', 'img-9', 'img 10', '_draft', 'draft-2', 'Ärger', 'Zebra', 'zeta', 'naïve', 'photo (1)', 'photo (10)', 'photo_2', 'a.b', 'a-b', 'a b', '007', '7', 'x99999999999999999999', 'x100000000000000000000'];

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
  it('breaks ties of equal names by id, so the order does not depend on the input order', () => {
    const a = node('Same');
    const b = node('same');
    expect(sortNodes([b, a], 'name', 'asc')).toEqual([a, b]);
    expect(sortNodes([a, b], 'name', 'asc')).toEqual([a, b]);
  });

  it('gives exactly the collator order whatever the input order, for every column and direction', () => {
    const names = [...AWKWARD, ...Array.from({ length: 300 }, (_, i) => `scan ${i % 120}${i % 3 ? '.jpg' : ' copy.PDF'}`)];
    const nodes = names.map((name, i) =>
      node(name, i % 11 === 0 ? 'folder' : 'file', (i * 7919) % 50, { updatedAt: (i * 104729) % 13, versionCount: i % 4, mimeType: i % 2 ? 'image/jpeg' : 'application/pdf' }),
    );
    for (const column of ['name', 'updatedAt', 'size', 'version', 'type'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const expected = [...nodes].sort(nodeComparator(column, direction));
        for (const seed of [1, 2, 3]) {
          expect(sortNodes(shuffled(nodes, seed), column, direction), `${column} ${direction} seed ${seed}`).toEqual(expected);
        }
        expect(sortNodes([...expected].reverse(), column, direction), `${column} ${direction} reversed`).toEqual(expected);
        expect(sortNodes(expected, column, direction), `${column} ${direction} sorted`).toEqual(expected);
      }
    }
  });

  it('sorts 10,000 shuffled names with far fewer collator calls than a plain sort', () => {
    const nodes = shuffled(
      Array.from({ length: 10_000 }, (_, i) => node(`bench-${String(i + 1).padStart(5, '0')}.txt`)),
      7,
    );
    const sorted = sortNodes(nodes, 'name', 'asc');
    expect(sorted[0]!.name).toBe('bench-00001.txt');
    expect(sorted.at(-1)!.name).toBe('bench-10000.txt');
    // The exact pass runs over a list the approximate keys already ordered: one call per pair.
    let calls = 0;
    const counting = nodeComparator('name', 'asc');
    const keys = new Map(nodes.map((n) => [n, approximateNameKey(n.name)]));
    const presorted = [...nodes].sort((a, b) => (keys.get(a)! < keys.get(b)! ? -1 : 1));
    presorted.sort((a, b) => {
      calls += 1;
      return counting(a, b);
    });
    expect(calls).toBeLessThan(10_000);
  });

  it('orders the approximate keys like the collator for plain names', () => {
    const names = ['file 10', 'File 9', 'file 2', 'a', 'B', 'café', 'cafe 1', 'Z 100', 'z 20'];
    const byKey = [...names].sort((a, b) => (approximateNameKey(a) < approximateNameKey(b) ? -1 : approximateNameKey(a) > approximateNameKey(b) ? 1 : 0));
    expect(byKey).toEqual([...names].sort(compareNames));
  });
});
