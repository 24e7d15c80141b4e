/**
 * Reads what the timeline is made of from Dexie (DESIGN.md section 4: screens read IndexedDB
 * only): the vault's pulled operations (`opPages`, in seq order, each with its signature check
 * and opened fields), this device's pending outbox operations, the nodes' current names and the
 * cached members. One read, live through useLiveQuery in the page.
 */
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { getDb, type CairnDb } from '../../storage/db';
import { getMembers } from '../../storage/memberStore';
import { useStoreAccount } from '../../storage/vaultStore';
import { buildTimeline, timelineNodeIds, type TimelineItem, type TimelineNode, type TimelineOp } from './timelineItems';

export async function readTimelineOps(db: CairnDb, accountId: string, vaultId: string): Promise<TimelineOp[]> {
  const [pages, outbox] = await Promise.all([
    db.opPages.where('[accountId+vaultId+firstSeq]').between([accountId, vaultId, Dexie.minKey], [accountId, vaultId, Dexie.maxKey]).toArray(),
    db.outbox.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray(),
  ]);
  const ops: TimelineOp[] = [];
  for (const page of pages) {
    for (const cached of page.ops) {
      ops.push({ seq: cached.seq, postedAt: cached.receivedAt, op: cached.op, isVerified: cached.isVerified, fields: cached.fields, isPending: false });
    }
  }
  // This device signed its own operations; a rejected one is not shown (its item carries the error).
  for (const record of outbox) {
    if (record.status !== 'pending') continue;
    ops.push({ seq: null, postedAt: record.op.createdAt, op: record.op, isVerified: true, fields: record.fields, isPending: true });
  }
  return ops;
}

/** The vault's nodes of `ids`, by id; ids not on this device (or not of this vault) are left out. */
export async function readTimelineNodes(db: CairnDb, accountId: string, vaultId: string, ids: readonly string[]): Promise<Map<string, TimelineNode>> {
  const nodes = await db.nodes.bulkGet(ids.map((id) => [accountId, id] as [string, string]));
  const byId = new Map<string, TimelineNode>();
  for (const n of nodes) if (n && n.vaultId === vaultId) byId.set(n.id, { id: n.id, kind: n.kind, name: n.name, mimeType: n.mimeType });
  return byId;
}

/**
 * Every item of the vault's timeline as the viewer may see it, newest first.
 *
 * One explicit read transaction: inside useLiveQuery, Dexie's query cache deep-copies every
 * result it hands out unless the read is in an explicit transaction, and for 10,000 operations
 * that copy cost more than the read itself. The reads are observed all the same, so the page
 * still updates live. Only the nodes the items name are read (timelineNodeIds), not the vault's.
 */
export async function readTimeline(db: CairnDb, accountId: string, vaultId: string, viewer: { key: string; role: string }): Promise<TimelineItem[]> {
  return db.transaction('r', [db.opPages, db.outbox, db.nodes, db.members], async () => {
    const [ops, members] = await Promise.all([readTimelineOps(db, accountId, vaultId), getMembers(db, accountId, vaultId)]);
    const nodes = await readTimelineNodes(db, accountId, vaultId, timelineNodeIds(ops));
    return buildTimeline(ops, { viewerKey: viewer.key, viewerRole: viewer.role, members, nodes });
  });
}

/** The vault's timeline items, live (undefined while the first read is in flight). */
export function useTimeline(vaultId: string, viewerKey: string, viewerRole: string): TimelineItem[] | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(
    () => (accountId ? readTimeline(getDb(), accountId, vaultId, { key: viewerKey, role: viewerRole }) : []),
    [accountId, vaultId, viewerKey, viewerRole],
  );
}
