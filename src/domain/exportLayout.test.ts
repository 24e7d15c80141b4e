import { describe, expect, it } from 'vitest';
import {
  canExportVault,
  chatExport,
  encryptedExportFileName,
  ExportLayoutError,
  exportManifest,
  historyRuns,
  plainExportLayout,
  timelineExport,
} from './exportLayout';
import { exportRunEntryName as historyEntryName, splitIntoRuns, type HistoryEntry } from '../protocol/vaultHistory';
import type { ExportNode } from './exportLayout';

let created = 0;

function n(id: string, kind: 'folder' | 'file', parentId: string | null, name = id, status = 'ACTIVE'): ExportNode {
  return { id, kind, parentId, name, status, size: 10, updatedAt: 0, createdAt: (created += 1) };
}

describe('plain export layout (R88)', () => {
  it('[R88] puts every active file in its folders, a second entry at one path gets (2) before the extension', () => {
    const layout = plainExportLayout([
      n('f1', 'file', null, 'a.txt'),
      n('d1', 'folder', null, 'Maps'),
      n('f2', 'file', 'd1', 'route.gpx'),
      n('d2', 'folder', 'd1', 'Old'),
      n('f3', 'file', 'd2', 'Note.md'),
      n('f4', 'file', 'd2', 'Note.md'),
      n('f5', 'file', 'd2', 'Note.md'),
      n('f6', 'file', 'd1', 'hidden.txt', 'REVOKED'),
      n('f7', 'file', 'd9', 'orphan.txt'),
    ]);
    expect(layout.files.map((e) => [e.fileId, e.path])).toEqual([
      ['f1', 'a.txt'],
      ['f2', 'Maps/route.gpx'],
      ['f3', 'Maps/Old/Note.md'],
      ['f4', 'Maps/Old/Note (2).md'],
      ['f5', 'Maps/Old/Note (3).md'],
    ]);
    expect(layout.chatPath).toBe('.cairn/chat.json');
    expect(layout.timelinePath).toBe('.cairn/timeline.json');
  });

  it('[R88] a member\'s own .cairn/chat.json keeps its path; the export\'s chat takes the next one', () => {
    const layout = plainExportLayout([n('d', 'folder', null, '.cairn'), n('f', 'file', 'd', 'chat.json')]);
    expect(layout.files.map((e) => e.path)).toEqual(['.cairn/chat.json']);
    expect(layout.chatPath).toBe('.cairn/chat (2).json');
    expect(layout.timelinePath).toBe('.cairn/timeline.json');
  });

  it('[R88] chat.json lists the messages oldest first with the reactions members hold now', () => {
    const chat = chatExport([
      { memoId: 'm2', authorKey: 'bb', createdAt: 20, order: 2, text: 'second', reactions: [] },
      {
        memoId: 'm1',
        authorKey: 'aa',
        createdAt: 10,
        order: 1,
        text: 'first',
        reactions: [
          { emoji: '👍', authorKey: 'aa', isAdded: true },
          { emoji: '👍', authorKey: 'bb', isAdded: true },
          { emoji: '🎉', authorKey: 'bb', isAdded: false },
        ],
      },
    ]);
    expect(JSON.parse(JSON.stringify(chat))).toEqual({
      format: 'cairn-chat',
      version: 1,
      memos: [
        { id: 'm1', author: 'aa', createdAt: 10, message: 'first', reactions: { '👍': ['aa', 'bb'] } },
        { id: 'm2', author: 'bb', createdAt: 20, message: 'second', reactions: {} },
      ],
    });
  });

  it('[R88] timeline.json holds the room\'s items oldest first', () => {
    expect(timelineExport([{ seq: 3 }, { seq: 2 }, { seq: 1 }])).toEqual({ format: 'cairn-timeline', version: 1, items: [{ seq: 1 }, { seq: 2 }, { seq: 3 }] });
  });
});

describe('encrypted export layout (R87)', () => {
  // Only the seqs matter to the layout: the operations are stand-ins.
  const ops = (count: number): HistoryEntry[] =>
    Array.from({ length: count }, (_, i) => ({ seq: i + 1, receivedAt: 1000 + i, op: { id: `op${i + 1}` } as unknown as HistoryEntry['op'] }));

  it('[R87] splits the history 1..N into runs of at most 1,000 named by their first seq in 10 digits', () => {
    const runs = historyRuns('v1', ops(2_001));
    expect(runs.map((r) => [r.seqFrom, r.seqTo, r.ops.length])).toEqual([
      [1, 1000, 1000],
      [1001, 2000, 1000],
      [2001, 2001, 1],
    ]);
    expect(runs[0]).toMatchObject({ format: 'cairn-vault-history', version: 1, vaultId: 'v1' });
    expect(runs[2]!.ops[0]).toEqual({ seq: 2001, receivedAt: 3000, op: { id: 'op2001' } });
    expect(runs.map((r) => historyEntryName(r.seqFrom))).toEqual(['history/0000000001.json', 'history/0000001001.json', 'history/0000002001.json']);
    expect(historyRuns('v1', [])).toEqual([]);
  });

  it('[R84] runs cut by bytes too (the in-app restore\'s import requests): each within the limit, none empty, nothing lost', () => {
    const entries = ops(10);
    const oneEntry = JSON.stringify(entries[0]).length;
    const runs = [...splitIntoRuns('v1', entries, 1_000, oneEntry * 3)];
    expect(runs.map((r) => r.ops.length)).toEqual([3, 3, 3, 1]);
    expect(runs.flatMap((r) => r.ops.map((o) => o.seq))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // An operation larger than the limit still goes, alone.
    expect([...splitIntoRuns('v1', entries.slice(0, 2), 1_000, 1)].map((r) => [r.seqFrom, r.seqTo])).toEqual([[1, 1], [2, 2]]);
  });

  it('[R87] refuses a history with a gap rather than write one no reader can verify', () => {
    const gappy = ops(5).filter((o) => o.seq !== 3);
    expect(() => historyRuns('v1', gappy)).toThrow(ExportLayoutError);
    expect(() => historyRuns('v1', gappy)).toThrow(/operation 3 is missing/);
  });

  it('[R87] the manifest and the file name', () => {
    expect(exportManifest('v1', 7, 123)).toEqual({ format: 'cairn-vault-export', version: 1, vaultId: 'v1', headSeq: 7, exportedAt: 123 });
    expect(encryptedExportFileName('Trip.zip')).toBe('Trip (encrypted).zip');
  });
});

describe('who may export', () => {
  it('any accepted member of a vault that exists, whatever the role', () => {
    expect(canExportVault({ membershipStatus: 'ACCEPTED', isPending: false, status: 'ACTIVE' })).toBe(true);
    expect(canExportVault({ membershipStatus: 'ACCEPTED', isPending: false, status: 'ARCHIVED' })).toBe(true);
    expect(canExportVault({ membershipStatus: 'PENDING', isPending: false, status: 'ACTIVE' })).toBe(false);
    expect(canExportVault({ membershipStatus: 'ACCEPTED', isPending: true, status: 'ACTIVE' })).toBe(false);
    expect(canExportVault({ membershipStatus: 'ACCEPTED', isPending: false, status: 'DELETED' })).toBe(false);
  });
});
