/**
 * `.cairn/chat.json` and `.cairn/timeline.json` (docs/SYNC_SPEC.md R88): the vault's chat as its
 * members see it, oldest first, reactions as the last operation of each author and emoji left
 * them (R23); and the timeline's items as the room makes them (the app's own `buildTimeline`),
 * oldest first. Authors are their public signing keys: the network holds no names or e-mails.
 */
import { buildTimeline, type TimelineNode } from '../src/features/timeline/timelineItems';
import type { RestoredVault } from '../src/network/restoreReader';
import type { VaultState } from '../src/storage/vaultProjection';

export function chatJson(state: VaultState): string {
  const memos = [...state.memos.values()]
    .filter((memo) => memo.text !== null && memo.rejection === null)
    .sort((a, b) => a.order - b.order)
    .map((memo) => {
      const reactions: Record<string, string[]> = {};
      for (const reaction of memo.reactions) if (reaction.isAdded) (reactions[reaction.emoji] ??= []).push(reaction.authorKey);
      return { id: memo.memoId, author: memo.authorKey, createdAt: memo.createdAt, message: memo.text, reactions };
    });
  return `${JSON.stringify({ format: 'cairn-chat', version: 1, memos }, null, 2)}\n`;
}

/** The timeline as the restoring member would see it in the room ('You' is them). */
export function timelineJson(restored: RestoredVault, viewerKey: string): string {
  const { log, state } = restored;
  const members = Object.entries(log.members).map(([membershipId, m]) => ({ membershipId, publicSigningKey: m.key, email: null, profileName: null, status: m.status }));
  const viewerRole = Object.values(log.members).find((m) => m.key === viewerKey)?.role ?? 'VIEWER';
  const nodes = new Map<string, TimelineNode>([...state.nodes.values()].map((n) => [n.id, { id: n.id, kind: n.kind, name: n.name, mimeType: n.mimeType }]));
  const ops = restored.ops.map(({ entry, fields }) => ({ seq: entry.seq, postedAt: entry.receivedAt, op: entry.op, isVerified: true, fields, isPending: false }));
  const items = buildTimeline(ops, { viewerKey, viewerRole, members, nodes }).reverse();
  return `${JSON.stringify({ format: 'cairn-timeline', version: 1, items }, null, 2)}\n`;
}
