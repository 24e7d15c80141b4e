/**
 * The layouts of the two vault exports (docs/SYNC_SPEC.md R87, R88), as pure functions so the
 * app, the tests and the bench agree on every name and JSON shape.
 *
 * - Plain export (R88): the vault's active files at their paths (zipEntries: names made safe, a
 *   second entry at one path gets ' (2)' before its extension), then `.cairn/chat.json` and
 *   `.cairn/timeline.json`, which yield to a member's own file at that path (they come last).
 * - Encrypted export (R87): `cairn-export.json`, `history/{seqFrom, 10 digits}.json` (runs of at
 *   most HISTORY_RUN_MAX operations, the data of R84's history items) and `blobs/{blobId}`.
 */
import { uniquePath, zipEntries, type ZipEntry, type ZipSourceNode } from './zipEntries';

/** R84: a history item holds at most this many operations (R87 keeps the same runs). */
export const HISTORY_RUN_MAX = 1_000;
export const CHAT_ENTRY = '.cairn/chat.json';
export const TIMELINE_ENTRY = '.cairn/timeline.json';
export const EXPORT_MANIFEST_ENTRY = 'cairn-export.json';

/**
 * The plain export's file entries for every active file of the vault (from its root), and the
 * paths its chat and timeline JSON take (made unique against the files).
 */
export function plainExportLayout(vaultNodes: readonly ZipSourceNode[]): { files: ZipEntry[]; chatPath: string; timelinePath: string } {
  const roots = vaultNodes.filter((n) => n.parentId === null && n.status === 'ACTIVE');
  const files = zipEntries(roots, vaultNodes);
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

/** One operation of a history run, as R84 writes it. */
export interface HistoryOp<Op = unknown> {
  seq: number;
  receivedAt: number;
  op: Op;
}

/** A history run's data (R84). */
export interface HistoryRun<Op = unknown> {
  format: 'cairn-vault-history';
  version: 1;
  vaultId: string;
  seqFrom: number;
  seqTo: number;
  ops: HistoryOp<Op>[];
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
export function historyRuns<Op>(vaultId: string, ops: readonly HistoryOp<Op>[], runMax = HISTORY_RUN_MAX): HistoryRun<Op>[] {
  ops.forEach((o, i) => {
    if (o.seq !== i + 1) throw new ExportLayoutError(`This device holds the vault's history up to operation ${i} only; operation ${i + 1} is missing. Let the vault sync, then export again.`);
  });
  const runs: HistoryRun<Op>[] = [];
  for (let start = 0; start < ops.length; start += runMax) {
    const slice = ops.slice(start, start + runMax).map(({ seq, receivedAt, op }) => ({ seq, receivedAt, op }));
    runs.push({ format: 'cairn-vault-history', version: 1, vaultId, seqFrom: slice[0]!.seq, seqTo: slice.at(-1)!.seq, ops: slice });
  }
  return runs;
}

/** `history/0000000001.json`: the run's first seq, 10 digits, so the names sort in order. */
export function historyEntryName(seqFrom: number): string {
  return `history/${String(seqFrom).padStart(10, '0')}.json`;
}

export function blobEntryName(blobId: string): string {
  return `blobs/${blobId}`;
}

export function exportManifest(vaultId: string, headSeq: number, exportedAt: number) {
  return { format: 'cairn-vault-export', version: 1, vaultId, headSeq, exportedAt } as const;
}

/** '{vault name} (encrypted).zip' beside the plain export's '{vault name}.zip'. */
export function encryptedExportFileName(plainName: string): string {
  return plainName.replace(/\.zip$/, ' (encrypted).zip');
}

/** Any member who may read the vault may export it: an accepted membership of a vault that exists. */
export function canExportVault(vault: { membershipStatus: string; isPending: boolean; status: string }): boolean {
  return vault.membershipStatus === 'ACCEPTED' && !vault.isPending && vault.status !== 'DELETED';
}
