import { describe, expect, it } from 'vitest';
import type { Operation } from '../../protocol/vaults';
import { filterItems, NO_FILTERS } from './timelineFilters';
import { buildTimeline, groupItems, groupSummary, timelineNodeIds, type TimelineContext, type TimelineNode, type TimelineOp } from './timelineItems';
import { dateBadge, describeItem, relativeTime, withDateBadges } from './timelineText';

const ME = 'a'.repeat(64);
const ALEX = 'b'.repeat(64);
const GONE = 'c'.repeat(64);
const VAULT = 'vault1';
const FIELD = { clear: 'x' };
const VERSION = { versionId: 'v1', blobId: 'b1', size: 1, storedSize: 1, chunkSize: 4194304, chunkCount: 1, chunkHashes: ['0'.repeat(64)], mimeType: FIELD, lastModified: 0 } as const;

let seq = 0;
function pulled(author: string, objectId: string, body: Record<string, unknown>, fields: Record<string, string> = {}, extra: Partial<TimelineOp> & { groupRef?: string } = {}): TimelineOp {
  seq += 1;
  const { groupRef, ...rest } = extra;
  const op = { id: `op${seq}`, vaultId: VAULT, objectId, author, createdAt: seq * 1000, body, signature: 's', ...(groupRef ? { groupRef } : {}) } as unknown as Operation;
  return { seq, postedAt: seq * 1000, op, isVerified: true, fields, isPending: false, ...rest };
}

const nodes = new Map<string, TimelineNode>([
  ['f1', { id: 'f1', kind: 'file', name: 'report.pdf', mimeType: 'application/pdf' }],
  ['d1', { id: 'd1', kind: 'folder', name: 'Plans', mimeType: '' }],
  ['n1', { id: 'n1', kind: 'file', name: 'minutes.md', mimeType: 'text/markdown' }],
]);
const ctx: TimelineContext = {
  viewerKey: ME,
  viewerRole: 'OWNER',
  members: [
    { membershipId: 'm1', publicSigningKey: ME, email: 'me@example.com', profileName: null, status: 'ACCEPTED' },
    { membershipId: 'm2', publicSigningKey: ALEX, email: 'alex@example.com', profileName: 'Alex Moss', status: 'ACCEPTED' },
    { membershipId: 'm3', publicSigningKey: 'd'.repeat(64), email: 'new@example.com', profileName: null, status: 'INVITED' },
  ],
  nodes,
};

describe('buildTimeline', () => {
  it('names authors by member (yourself as You), newest first, names from the op or the node', () => {
    const ops = [
      pulled(ME, VAULT, { type: 'vault.create', isPublic: false, isCloud: true, name: FIELD }, { name: 'Field archive', terms: 'Research only.' }),
      pulled(ALEX, 'f1', { type: 'file.create', parentId: null, name: FIELD, version: VERSION }, { name: 'report-draft.pdf', mimeType: 'application/pdf' }),
      pulled(ALEX, 'd1', { type: 'node.rename', name: FIELD }, { name: 'Plans' }),
      pulled(GONE, 'f1', { type: 'node.move', parentId: 'd1' }),
      pulled(ME, 'f1', { type: 'node.hide' }),
    ];
    const items = buildTimeline(ops, ctx);
    expect(items.map((i) => [i.authorName, i.action, i.name])).toEqual([
      ['You', 'node.hide', 'report.pdf'],
      ['A former member', 'node.move', 'report.pdf'],
      ['Alex Moss', 'node.rename', 'Plans'],
      ['Alex Moss', 'file.upload', 'report-draft.pdf'],
      ['You', 'vault.create', 'Field archive'],
    ]);
    expect(describeItem(items[1]!)).toEqual({ before: 'moved the file', object: 'report.pdf', after: ' to Plans' });
    expect(describeItem(items[2]!).before).toBe('renamed the folder to');
    expect(items[4]!.terms).toBe('Research only.');
  });

  it('never shows unverified operations, note drafts or reactions as items; unknown types say Unknown action', () => {
    const ops = [
      pulled(ALEX, 'f1', { type: 'node.hide' }, {}, { isVerified: false }),
      pulled(ALEX, 'n1', { type: 'note.draft', update: 'x' }),
      pulled(ALEX, 'memo1', { type: 'memo.react', reaction: FIELD, isAdded: true }, { reaction: '👍' }),
      pulled(ALEX, 'x1', { type: 'stack.sign' }),
    ];
    const items = buildTimeline(ops, ctx);
    expect(items).toHaveLength(1);
    expect(items[0]!.action).toBe('unknown');
    expect(describeItem(items[0]!).before).toBe('Unknown action');
  });

  it('notes are markdown files: created a note / saved a new version of a note', () => {
    const items = buildTimeline(
      [
        pulled(ME, 'n1', { type: 'file.create', parentId: null, name: FIELD, version: VERSION }, { name: 'minutes.md', mimeType: 'text/markdown' }),
        pulled(ALEX, 'n1', { type: 'file.addVersion', version: VERSION }, { mimeType: 'text/markdown' }),
        pulled(ALEX, 'f1', { type: 'file.addVersion', version: VERSION }, { mimeType: 'application/pdf' }),
      ],
      ctx,
    );
    expect(items.map((i) => describeItem(i).before)).toEqual(['uploaded a new version of', 'saved a new version of a note', 'created a note']);
    expect(items[1]!.name).toBe('minutes.md');
  });

  it('a memo shows its text and reactions, the last word of each author and emoji counting', () => {
    const items = buildTimeline(
      [
        pulled(ALEX, 'memo1', { type: 'memo.create', message: FIELD }, { message: 'Cairn at the ridge' }),
        pulled(ALEX, 'memo1', { type: 'memo.react', reaction: FIELD, isAdded: true }, { reaction: '👍' }),
        pulled(ME, 'memo1', { type: 'memo.react', reaction: FIELD, isAdded: true }, { reaction: '👍' }),
        pulled(ME, 'memo1', { type: 'memo.react', reaction: FIELD, isAdded: true }, { reaction: '🎉' }),
        pulled(ME, 'memo1', { type: 'memo.react', reaction: FIELD, isAdded: false }, { reaction: '🎉' }),
        pulled(ALEX, 'memo1', { type: 'memo.react', reaction: FIELD, isAdded: true }, { reaction: '🎉' }, { isVerified: false }),
      ],
      ctx,
    );
    expect(items).toHaveLength(1);
    expect(describeItem(items[0]!).before).toBe('sent a message');
    expect(items[0]!.message).toBe('Cairn at the ridge');
    expect(items[0]!.reactions).toEqual([{ emoji: '👍', count: 2, isMine: true }]);
  });

  it('USER_VERIFIED: only the OWNER sees an invitee waiting for confirmation, and only while INVITED', () => {
    const invite = (membershipId: string) => pulled(ME, membershipId, { type: 'member.invite', role: 'VIEWER', memberKey: 'd'.repeat(64) });
    const ops = [invite('m3'), invite('m2')];
    const asOwner = buildTimeline(ops, ctx);
    expect(asOwner.map((i) => [i.action, i.name])).toEqual([
      ['member.invite', 'Alex Moss'],
      ['member.verified', 'new@example.com'],
    ]);
    const asContributor = buildTimeline(ops, { ...ctx, viewerRole: 'CONTRIBUTOR' });
    expect(asContributor.map((i) => i.action)).toEqual(['member.invite']);
  });

  it('pending outbox operations come first, marked pending, and a pulled copy of one is shown once', () => {
    const accepted = pulled(ME, 'd1', { type: 'node.hide' });
    const pending = { ...pulled(ME, 'f1', { type: 'node.hide' }), seq: null, isPending: true, postedAt: 1 };
    const items = buildTimeline([accepted, { ...accepted, seq: null, isPending: true }, pending], ctx);
    expect(items.map((i) => [i.objectId, i.isPending])).toEqual([
      ['f1', true],
      ['d1', false],
    ]);
  });
});

describe('timelineNodeIds', () => {
  it('names only the nodes the items read, and with just those the timeline is the same as with every node', () => {
    const ops = [
      pulled(ME, VAULT, { type: 'vault.create', isPublic: false, isCloud: true, name: FIELD }, { name: 'Field archive' }),
      // Creations carry their own name and MIME type: no node needed.
      pulled(ALEX, 'f1', { type: 'file.create', parentId: null, name: FIELD, version: VERSION }, { name: 'report-draft.pdf', mimeType: 'application/pdf' }),
      pulled(ALEX, 'd1', { type: 'folder.create', parentId: null, name: FIELD }, { name: 'Plans' }),
      // A version whose fields did not open falls back on its node.
      pulled(ME, 'n1', { type: 'file.addVersion', version: VERSION }, {}),
      pulled(GONE, 'f1', { type: 'node.move', parentId: 'd1' }),
      pulled(ME, 'f1', { type: 'node.hide' }),
      // An unverified operation is never an item, so its node is not read.
      pulled(ME, 'x1', { type: 'node.delete' }, {}, { isVerified: false }),
    ];
    expect(timelineNodeIds(ops).sort()).toEqual(['d1', 'f1', 'n1']);
    const only = new Map([...nodes].filter(([id]) => timelineNodeIds(ops).includes(id)));
    expect(buildTimeline(ops, { ...ctx, nodes: only })).toEqual(buildTimeline(ops, ctx));
    // Without the nodes the items would differ: the lookups matter.
    expect(buildTimeline(ops, { ...ctx, nodes: new Map() })).not.toEqual(buildTimeline(ops, ctx));
  });
});

describe('groupItems', () => {
  it('groups consecutive items of one groupRef only', () => {
    const ops = [
      pulled(ME, 'f1', { type: 'file.create', parentId: null, name: FIELD, version: VERSION }, { name: 'a.txt', mimeType: 'text/plain' }, { groupRef: 'g1' }),
      pulled(ME, 'f2', { type: 'file.create', parentId: null, name: FIELD, version: VERSION }, { name: 'b.txt', mimeType: 'text/plain' }, { groupRef: 'g1' }),
      pulled(ALEX, 'd1', { type: 'node.hide' }),
      pulled(ME, 'f3', { type: 'file.create', parentId: null, name: FIELD, version: VERSION }, { name: 'c.txt', mimeType: 'text/plain' }, { groupRef: 'g1' }),
      pulled(ME, 'f1', { type: 'node.hide' }, {}, { groupRef: 'g2' }),
      pulled(ME, 'd1', { type: 'node.hide' }, {}, { groupRef: 'g2' }),
    ];
    const entries = groupItems(buildTimeline(ops, ctx));
    expect(entries.map((e) => e.items.map((i) => i.objectId))).toEqual([['d1', 'f1'], ['f3'], ['d1'], ['f2', 'f1']]);
    expect(groupSummary(entries[3]!.items)).toBe('uploaded 2 files');
    expect(groupSummary(entries[0]!.items)).toBe('hid 2 items');
  });
});

describe('filterItems', () => {
  const ops = [
    pulled(ME, 'f1', { type: 'file.create', parentId: null, name: FIELD, version: VERSION }, { name: 'a.png', mimeType: 'image/png' }, { postedAt: Date.UTC(2026, 10, 1) }),
    pulled(ALEX, 'd1', { type: 'folder.create', parentId: null, name: FIELD }, { name: 'Plans' }, { postedAt: Date.UTC(2026, 10, 20) }),
    pulled(ALEX, 'f1', { type: 'node.rename', name: FIELD }, { name: 'b.png' }, { postedAt: Date.UTC(2026, 10, 21, 12) }),
  ];
  const items = buildTimeline(ops, ctx);
  const now = Date.UTC(2026, 10, 22);

  it('narrows by action, member, file type and period', () => {
    expect(filterItems(items, NO_FILTERS, now)).toHaveLength(3);
    expect(filterItems(items, { ...NO_FILTERS, actions: ['upload'] }, now).map((i) => i.name)).toEqual(['a.png']);
    expect(filterItems(items, { ...NO_FILTERS, actions: ['upload', 'folder'] }, now)).toHaveLength(2);
    expect(filterItems(items, { ...NO_FILTERS, members: [ALEX] }, now).map((i) => i.action)).toEqual(['node.rename', 'folder.create']);
    // The rename names f1 by its current node, a PDF now.
    expect(filterItems(items, { ...NO_FILTERS, fileTypes: ['image'] }, now).map((i) => i.action)).toEqual(['file.upload']);
    expect(filterItems(items, { ...NO_FILTERS, fileTypes: ['document'] }, now).map((i) => i.action)).toEqual(['node.rename']);
    expect(filterItems(items, { ...NO_FILTERS, period: '24h' }, now).map((i) => i.action)).toEqual(['node.rename']);
    expect(filterItems(items, { ...NO_FILTERS, period: '7d' }, now)).toHaveLength(2);
  });
});

describe('dates', () => {
  const now = new Date(2026, 10, 22, 15, 0).getTime();
  it('badges say Today, Yesterday, then weekday, month and day', () => {
    expect(dateBadge(new Date(2026, 10, 22, 0, 5).getTime(), now)).toBe('Today');
    expect(dateBadge(new Date(2026, 10, 21, 23, 59).getTime(), now)).toBe('Yesterday');
    expect(dateBadge(new Date(2026, 10, 16, 9).getTime(), now)).toBe('Monday, November 16');
  });
  it('a badge heads each day of entries, newest first', () => {
    const at = (id: string, time: number) => ({ key: id, items: [{ postedAt: time } as never] });
    const rows = withDateBadges(
      [
        at('a', now - 60_000),
        at('b', now - 3_600_000),
        at('c', new Date(2026, 10, 21, 9).getTime()),
        at('d', new Date(2026, 10, 16, 18).getTime()),
        at('e', new Date(2026, 10, 16, 0, 1).getTime()),
        at('f', new Date(2026, 10, 15, 23, 59).getTime()),
      ],
      now,
    );
    expect(rows.map((r) => (r.kind === 'date' ? r.label : r.key))).toEqual(['Today', 'a', 'b', 'Yesterday', 'c', 'Monday, November 16', 'd', 'e', 'Sunday, November 15', 'f']);
  });
  it('relative times: Just now within 5 minutes, minutes, hours, Yesterday, then the date', () => {
    expect(relativeTime(now - 4 * 60_000, now)).toBe('Just now');
    expect(relativeTime(now - 12 * 60_000, now)).toBe('12 minutes ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 hours ago');
    expect(relativeTime(new Date(2026, 10, 21, 20).getTime(), now)).toBe('Yesterday');
    expect(relativeTime(new Date(2026, 9, 3).getTime(), now)).toBe('Oct 3, 2026');
  });
});
