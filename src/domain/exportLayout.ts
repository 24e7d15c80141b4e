/**
 * The layouts of the two vault exports (docs/SYNC_SPEC.md R87, R88), as pure functions so the
 * app, the tests and the bench agree on every name and JSON shape.
 *
 * - Plain export (R88): the vault's active files at their paths, laid out as `cairn restore` lays
 *   them out (vaultLayout: names made safe, a second entry at one path gets ' (2)' before its
 *   extension), then `.cairn/chat.json` and `.cairn/timeline.json`, which yield to a member's own
 *   file at that path (they come last).
 * - Encrypted export (R87): the manifest, the history runs (at most HISTORY_RUN_MAX_OPS operations,
 *   the data of R84's history items) and the blobs, named as src/protocol/vaultHistory.ts says.
 */
import {
  EXPORT_FORMAT,
  type ExportManifest,
  splitIntoRuns,
  HISTORY_FORMAT_VERSION,
  HISTORY_RUN_MAX_OPS,
  type HistoryEntry,
  type VaultHistoryRun,
} from '../protocol/vaultHistory';
import { type LayoutNode, vaultLayout } from './vaultLayout';
import { uniquePath, type ZipEntry } from './zipEntries';

export const CHAT_ENTRY = '.cairn/chat.json';
export const TIMELINE_ENTRY = '.cairn/timeline.json';

/** A node as the plain export lays it out: R88's layout, and what the zip entry needs. */
export type ExportNode = LayoutNode & { size: number; updatedAt: number };

/**
 * The plain export's file entries for every active file of the vault (from its root), and the
 * paths its chat and timeline JSON take (made unique against the files).
 */
export function plainExportLayout(vaultNodes: readonly ExportNode[]): { files: ZipEntry[]; chatPath: string; timelinePath: string } {
  const byId = new Map(vaultNodes.map((n) => [n.id, n]));
  const files = vaultLayout(vaultNodes).flatMap((entry): ZipEntry[] => {
    const node = byId.get(entry.id);
    return entry.kind === 'file' && node ? [{ fileId: entry.id, path: entry.path, size: node.size, updatedAt: node.updatedAt }] : [];
  });
  const taken = new Set(files.map((e) => e.path));
  const chatPath = uniquePath(CHAT_ENTRY, taken);
  taken.add(chatPath);
  return { files, chatPath, timelinePath: uniquePath(TIMELINE_ENTRY, taken) };
}

/** A chat message as the plain export writes it (R88). */
export interface ExportedMemo {
  id: string;
  /** The author's Ed25519 public key (hex): the identity the signed log knows them by. */
  author: string;
  createdAt: number;
  /** The message; null where this device could not open it. */
  message: string | null;
  /** Emoji -> the public keys of the members who hold that reaction now. */
  reactions: Record<string, string[]>;
}

export interface MemoSource {
  memoId: string;
  authorKey: string;
  createdAt: number;
  order: number;
  text: string | null;
  reactions: readonly { emoji: string; authorKey: string; isAdded: boolean }[];
}

/** `.cairn/chat.json`: every message, oldest first (the chat's order), removed reactions left out. */
export function chatExport(memos: readonly MemoSource[]): { format: 'cairn-chat'; version: 1; memos: ExportedMemo[] } {
  const sorted = [...memos].sort((a, b) => a.order - b.order);
  return {
    format: 'cairn-chat',
    version: 1,
    memos: sorted.map((m) => {
      const reactions: Record<string, string[]> = {};
      for (const r of m.reactions) if (r.isAdded) (reactions[r.emoji] ??= []).push(r.authorKey);
      return { id: m.memoId, author: m.authorKey, createdAt: m.createdAt, message: m.text, reactions };
    }),
  };
}

/** `.cairn/timeline.json`: the items as the room shows them (it lists newest first), oldest first. */
export function timelineExport<T>(itemsNewestFirst: readonly T[]): { format: 'cairn-timeline'; version: 1; items: T[] } {
  return { format: 'cairn-timeline', version: 1, items: [...itemsNewestFirst].reverse() };
}

export class ExportLayoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportLayoutError';
  }
}

/**
 * The runs covering seqs 1..N of `ops` (which must be exactly 1..N in order: an export with a gap
 * would be a history no reader can verify, so it is refused rather than written).
 */
export function historyRuns(vaultId: string, ops: readonly HistoryEntry[], runMax = HISTORY_RUN_MAX_OPS): VaultHistoryRun[] {
  ops.forEach((o, i) => {
    if (o.seq !== i + 1) throw new ExportLayoutError(`This device holds the vault's history up to operation ${i} only; operation ${i + 1} is missing. Let the vault sync, then export again.`);
  });
  return [...splitIntoRuns(vaultId, ops, runMax)];
}

export function exportManifest(vaultId: string, headSeq: number, exportedAt: number): ExportManifest {
  return { format: EXPORT_FORMAT, version: HISTORY_FORMAT_VERSION, vaultId, headSeq, exportedAt };
}

/** '{vault name} (encrypted).zip' beside the plain export's '{vault name}.zip'. */
export function encryptedExportFileName(plainName: string): string {
  return plainName.replace(/\.zip$/, ' (encrypted).zip');
}

/** Any member who may read the vault may export it: an accepted membership of a vault that exists. */
export function canExportVault(vault: { membershipStatus: string; isPending: boolean; status: string }): boolean {
  return vault.membershipStatus === 'ACCEPTED' && !vault.isPending && vault.status !== 'DELETED';
}
