/**
 * The formats of a permanent vault's history on the network (docs/SYNC_SPEC.md R84, R85, R87):
 * what a history item's data holds, the tags that find it, and an encrypted export's manifest.
 * Shared by the reader (restoreReader.ts), the `cairn` command line and the writers of these
 * items, so the one schema both sides parse is here.
 */
import { z } from 'zod';
import { Id } from '../protocol/primitives';
import { SequencedOperation } from '../protocol/vaults';

export const HISTORY_FORMAT = 'cairn-vault-history';
export const EXPORT_FORMAT = 'cairn-vault-export';
export const FORMAT_VERSION = 1;
/** R84: most operations in one run. */
export const RUN_MAX_OPS = 1_000;
/** R84: most bytes of a run's data; a reader reads no more of an item that claims to be one. */
export const RUN_MAX_BYTES = 2 * 1024 * 1024;

/** The tags every history item carries (R84), and nothing else. */
export const HISTORY_TAGS = { appName: 'Cairn', item: 'vault-history', fileItem: 'file-version' } as const;

/** R84: a history item's data. */
export const HistoryRun = z.object({
  format: z.literal(HISTORY_FORMAT),
  version: z.literal(FORMAT_VERSION),
  vaultId: Id,
  seqFrom: z.number().int().min(1),
  seqTo: z.number().int().min(1),
  ops: z.array(SequencedOperation).min(1).max(RUN_MAX_OPS),
});
export type HistoryRun = z.infer<typeof HistoryRun>;

/** R87: `cairn-export.json`, the first entry of an encrypted export. */
export const ExportManifest = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(FORMAT_VERSION),
  vaultId: Id,
  headSeq: z.number().int().min(0),
  exportedAt: z.number().int().min(0),
});
export type ExportManifest = z.infer<typeof ExportManifest>;

/** R84's tags of the run `seqFrom..seqTo` of vault `vaultId`. */
export function historyItemTags(vaultId: string, seqFrom: number, seqTo: number): { name: string; value: string }[] {
  return [
    { name: 'App-Name', value: HISTORY_TAGS.appName },
    { name: 'Cairn-Item', value: HISTORY_TAGS.item },
    { name: 'Cairn-Format-Version', value: String(FORMAT_VERSION) },
    { name: 'Vault-Id', value: vaultId },
    { name: 'Seq-From', value: String(seqFrom) },
    { name: 'Seq-To', value: String(seqTo) },
  ];
}

/** R85's tags of a private file version's item (a public vault's adds Content-Type and File-Name). */
export function fileItemTags(vaultId: string, blobId: string): { name: string; value: string }[] {
  return [
    { name: 'App-Name', value: HISTORY_TAGS.appName },
    { name: 'Cairn-Item', value: HISTORY_TAGS.fileItem },
    { name: 'Cairn-Format-Version', value: String(FORMAT_VERSION) },
    { name: 'Vault-Id', value: vaultId },
    { name: 'Blob-Id', value: blobId },
  ];
}

/**
 * A run as R86 reads it: its data parses, names the vault and seqs its tags name, and holds the
 * operations seqFrom..seqTo in order, each exactly once. Null for anything else (anyone can post
 * an item with these tags).
 */
export function parseRun(data: Uint8Array, expected: { vaultId: string; seqFrom?: number; seqTo?: number }): HistoryRun | null {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    return null;
  }
  const parsed = HistoryRun.safeParse(json);
  if (!parsed.success) return null;
  const run = parsed.data;
  if (run.vaultId !== expected.vaultId) return null;
  if (expected.seqFrom !== undefined && run.seqFrom !== expected.seqFrom) return null;
  if (expected.seqTo !== undefined && run.seqTo !== expected.seqTo) return null;
  if (run.seqTo - run.seqFrom + 1 !== run.ops.length) return null;
  if (run.ops.some((entry, i) => entry.seq !== run.seqFrom + i)) return null;
  return run;
}

/** R87: the entry name of the run starting at `seqFrom` (10 digits). */
export function exportRunEntryName(seqFrom: number): string {
  return `history/${String(seqFrom).padStart(10, '0')}.json`;
}
