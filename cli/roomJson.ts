/**
 * `.cairn/chat.json` and `.cairn/timeline.json` (docs/SYNC_SPEC.md R88): the vault's chat as its
 * members see it, oldest first, reactions as the last operation of each author and emoji left
 * them (R23); and the timeline's items as the room makes them (the app's own `buildTimeline`),
 * oldest first. Authors are their public signing keys: the network holds no names or e-mails.
 */
import { chatExport, timelineExport } from '../src/domain/exportLayout';
import { buildTimeline, type TimelineNode } from '../src/features/timeline/timelineItems';
import type { RestoredVault } from '../src/network/restoreReader';
import type { VaultState } from '../src/storage/vaultProjection';

/** The app's 'Export vault' writes the same JSON (chatExport); messages nobody could open are left out. */
export function chatJson(state: VaultState): string {
  const memos = [...state.memos.values()].filter((memo) => memo.text !== null && memo.rejection === null);
  return `${JSON.stringify(chatExport(memos), null, 2)}\n`;
}

/** The timeline as the restoring member would see it in the room ('You' is them). */
export function timelineJson(restored: RestoredVault, viewerKey: string): string {
  const { log, state } = restored;
  const members = Object.entries(log.members).map(([membershipId, m]) => ({ membershipId, publicSigningKey: m.key, email: null, profileName: null, status: m.status }));
  const viewerRole = Object.values(log.members).find((m) => m.key === viewerKey)?.role ?? 'VIEWER';
  const nodes = new Map<string, TimelineNode>([...state.nodes.values()].map((n) => [n.id, { id: n.id, kind: n.kind, name: n.name, mimeType: n.mimeType }]));
  const ops = restored.ops.map(({ entry, fields }) => ({ seq: entry.seq, postedAt: entry.receivedAt, op: entry.op, isVerified: true, fields, isPending: false }));
  // buildTimeline lists newest first, as the room shows it; timelineExport turns it oldest first.
  return `${JSON.stringify(timelineExport(buildTimeline(ops, { viewerKey, viewerRole, members, nodes })), null, 2)}\n`;
}
