import { describe, expect, it } from 'vitest';
import { boundedDistance, SearchIndex, type SearchDoc } from './searchIndex';

function doc(id: string, name: string, extra: Partial<SearchDoc> = {}): SearchDoc {
  return { id, type: 'STACK_DOCUMENT', vaultId: 'v1', vaultName: 'Family', name, url: `/vaults/active/v1/stack/${id}`, ...extra };
}

const names = (index: SearchIndex, term: string) => index.search(term, 0, 50).hits.map((h) => h.name);

function sample(): SearchIndex {
  const index = SearchIndex.create();
  index.put(doc('a', 'Quarterly report 2024.pdf'));
  index.put(doc('b', 'Holiday photos', { type: 'FOLDER' }));
  index.put(doc('c', 'receipt scan.png', { type: 'STACK_IMAGE' }));
  index.put(doc('d', 'Invoice March.pdf'));
  index.put(doc('n', 'Meeting.md', { type: 'NOTE', text: 'We agreed on the lighthouse budget.\nNext: zeppelin tickets', textVersion: 'ver1' }));
  return index;
}

describe('SearchIndex', () => {
  it('matches a prefix of any word of a name, from one letter', () => {
    const index = sample();
    expect(names(index, 'qua')).toEqual(['Quarterly report 2024.pdf']);
    expect(names(index, 'rep')).toEqual(['Quarterly report 2024.pdf']);
    expect(names(index, 'h')).toEqual(['Holiday photos']);
    expect(names(index, 'HOLI')).toEqual(['Holiday photos']);
    expect(names(index, 'holiday pho')).toEqual(['Holiday photos']);
    expect(names(index, 'holiday report')).toEqual([]);
  });

  it('matches with typos: about one letter in five (fuzzy 0.2)', () => {
    const index = sample();
    expect(names(index, 'hollday')).toEqual(['Holiday photos']);
    expect(names(index, 'invioce')).toEqual(['Invoice March.pdf']);
    expect(names(index, 'quartelry')).toEqual(['Quarterly report 2024.pdf']);
    // Too far off: two edits in a five-letter word.
    expect(names(index, 'hxlxday')).toEqual([]);
    expect(names(index, 'plutonium')).toEqual([]);
  });

  it('matches a short term (under five letters) only where a name word starts with it, never by sound', () => {
    const index = sample();
    index.put(doc('big', 'big-5mb.bin'));
    index.put(doc('pic', 'picnic.jpg', { type: 'STACK_IMAGE' }));
    index.put(doc('pics', 'Pictures', { type: 'FOLDER' }));
    index.put(doc('bik', 'bike.txt'));
    // The spelling-folding encoder hears 'pic' and 'big' alike: a user typing 'pic' does not.
    expect(names(index, 'pic').sort()).toEqual(['Pictures', 'picnic.jpg']);
    expect(names(index, 'big')).toEqual(['big-5mb.bin']);
    expect(names(index, 'bi')).toEqual(['big-5mb.bin', 'bike.txt']);
    expect(names(index, 'pict')).toEqual(['Pictures']);
    // Five letters and more stay fuzzy (one edit).
    expect(names(index, 'picnc')).toEqual(['picnic.jpg']);
  });

  it("finds a note by a word of its body, after the name matches", () => {
    const index = sample();
    expect(names(index, 'lighthouse')).toEqual(['Meeting.md']);
    expect(names(index, 'zeppelin')).toEqual(['Meeting.md']);
    index.put(doc('z', 'zeppelin museum'));
    expect(names(index, 'zeppelin')).toEqual(['zeppelin museum', 'Meeting.md']);
  });

  it('keeps a note body through a rename, and replaces it with a new version', () => {
    const index = sample();
    index.put(doc('n', 'Board meeting.md', { type: 'NOTE' }));
    expect(names(index, 'lighthouse')).toEqual(['Board meeting.md']);
    index.put(doc('n', 'Board meeting.md', { type: 'NOTE', text: 'Only the harbour now', textVersion: 'ver2' }));
    expect(names(index, 'lighthouse')).toEqual([]);
    expect(names(index, 'harbour')).toEqual(['Board meeting.md']);
    expect(index.get('n')?.textVersion).toBe('ver2');
  });

  it('forgets removed documents: names, words and fuzzy matches', () => {
    const index = sample();
    index.remove('b');
    index.remove('n');
    expect(names(index, 'holi')).toEqual([]);
    expect(names(index, 'hollday')).toEqual([]);
    expect(names(index, 'lighthouse')).toEqual([]);
    expect(index.size).toBe(3);
    expect(index.docsOfVault('v1').map((d) => d.id).sort()).toEqual(['a', 'c', 'd']);
  });

  it('renames replace the old name', () => {
    const index = sample();
    index.put(doc('a', 'Annual summary.pdf'));
    expect(names(index, 'quarterly')).toEqual([]);
    expect(names(index, 'annual')).toEqual(['Annual summary.pdf']);
  });

  it('pages results 20 at a time with the total', () => {
    const index = SearchIndex.create();
    for (let i = 0; i < 45; i++) index.put(doc(`f${i}`, `scan ${i}.png`));
    const first = index.search('scan', 0, 20);
    expect(first.total).toBe(45);
    expect(first.hits).toHaveLength(20);
    expect(index.search('scan', 40, 20).hits).toHaveLength(5);
    const all = new Set([0, 20, 40].flatMap((offset) => index.search('scan', offset, 20).hits.map((h) => h.id)));
    expect(all.size).toBe(45);
  });

  it('reopens from its snapshot with the same answers, and goes on changing', () => {
    const before = sample();
    const snapshot = JSON.parse(JSON.stringify(before.exportSnapshot())) as ReturnType<SearchIndex['exportSnapshot']>;
    const after = SearchIndex.fromSnapshot(snapshot);
    for (const term of ['qua', 'hollday', 'lighthouse', 'march', 'r']) expect(names(after, term)).toEqual(names(before, term));
    expect(after.get('n')?.textVersion).toBe('ver1');
    after.remove('a');
    after.put(doc('e', 'Quartz watch'));
    expect(names(after, 'quar')).toEqual(['Quartz watch']);
    expect(names(after, 'quartelry')).toEqual([]);
  });

  it('boundedDistance counts edits and stops early past the bound', () => {
    expect(boundedDistance('holiday', 'hollday', 1)).toBe(1);
    expect(boundedDistance('kitten', 'sitting', 3)).toBe(3);
    expect(boundedDistance('abcdef', 'uvwxyz', 1)).toBe(2);
    expect(boundedDistance('invoice', 'invioce', 1)).toBe(1);
  });
});
