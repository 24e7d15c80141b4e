/**
 * The formats of a permanent vault's history on the network (docs/SYNC_SPEC.md R84, R85, R87): a
 * history item's data and tags, a file version item's tags and an encrypted export's manifest.
 * The relay writes them, the reader (src/network/, the `cairn` command) and the import route
 * (vaultImport.ts) parse them: one definition for all three.
 */
import { z } from 'zod';
import { Id } from './primitives';
import { Operation } from './vaults';

export const HISTORY_FORMAT = 'cairn-vault-history';
export const EXPORT_FORMAT = 'cairn-vault-export';
export const HISTORY_FORMAT_VERSION = 1;
/** R84: at most this many operations in a run. */
export const HISTORY_RUN_MAX_OPS = 1_000;
/** R84: at most this many bytes of data in a run; a reader reads no more of an item that claims to be one. */
export const HISTORY_RUN_MAX_BYTES = 2 * 1024 * 1024;

/** One operation of a run as R84 writes it: its seq, when the first server received it, the signed operation. */
export const HistoryEntry = z.strictObject({ seq: z.number().int().min(1), receivedAt: z.number().int().min(0), op: Operation });
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** An R84 history item's data: operations `seqFrom..seqTo` of one vault, consecutive, each once. */
export const VaultHistoryRun = z
  .strictObject({
    format: z.literal(HISTORY_FORMAT),
    version: z.literal(HISTORY_FORMAT_VERSION),
    vaultId: Id,
    seqFrom: z.number().int().min(1),
    seqTo: z.number().int().min(1),
    ops: z.array(HistoryEntry).min(1).max(HISTORY_RUN_MAX_OPS),
  })
  .superRefine((run, ctx) => {
    if (run.seqTo - run.seqFrom + 1 !== run.ops.length || run.ops.some((entry, i) => entry.seq !== run.seqFrom + i)) {
      ctx.addIssue({ code: 'custom', path: ['ops'], message: 'The operations must be seqFrom..seqTo, in order, each once' });
    }
    if (run.ops.some((entry) => entry.op.vaultId !== run.vaultId)) {
      ctx.addIssue({ code: 'custom', path: ['ops'], message: "Every operation must be of the run's vault" });
    }
  });
export type VaultHistoryRun = z.infer<typeof VaultHistoryRun>;

/**
 * Consecutive `entries` cut into runs of at most `maxOps` operations and, when given, about
 * `maxBytes` of JSON each (a run holds at least one operation). Each entry keeps only the fields
 * R84 writes. The export writes its runs with it, the in-app restore its import requests.
 */
export function* splitIntoRuns(vaultId: string, entries: Iterable<HistoryEntry>, maxOps: number, maxBytes = Infinity): Generator<VaultHistoryRun> {
  let ops: HistoryEntry[] = [];
  let bytes = 0;
  const flush = (): VaultHistoryRun => {
    const run: VaultHistoryRun = { format: HISTORY_FORMAT, version: HISTORY_FORMAT_VERSION, vaultId, seqFrom: ops[0]!.seq, seqTo: ops.at(-1)!.seq, ops };
    ops = [];
    bytes = 0;
    return run;
  };
  for (const { seq, receivedAt, op } of entries) {
    const entry = { seq, receivedAt, op };
    const size = maxBytes === Infinity ? 0 : JSON.stringify(entry).length;
    if (ops.length > 0 && (ops.length >= maxOps || bytes + size > maxBytes)) yield flush();
    ops.push(entry);
    bytes += size;
  }
  if (ops.length > 0) yield flush();
}

/** R87: `cairn-export.json`, the manifest of an encrypted export. */
export const ExportManifest = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(HISTORY_FORMAT_VERSION),
  vaultId: Id,
  headSeq: z.number().int().min(0),
  exportedAt: z.number().int().min(0),
});
export type ExportManifest = z.infer<typeof ExportManifest>;

export type ItemTag = { name: string; value: string };

/** What every Cairn item's `App-Name` and `Cairn-Item` tags say (R84, R85). */
export const ITEM_TAGS = { appName: 'Cairn', history: 'vault-history', fileVersion: 'file-version' } as const;

/** R84's tags of the run `seqFrom..seqTo` of `vaultId`, and nothing else (no name, type, e-mail or size). */
export function historyItemTags(vaultId: string, seqFrom: number, seqTo: number): ItemTag[] {
  return [
    { name: 'App-Name', value: ITEM_TAGS.appName },
    { name: 'Cairn-Item', value: ITEM_TAGS.history },
    { name: 'Cairn-Format-Version', value: String(HISTORY_FORMAT_VERSION) },
    { name: 'Vault-Id', value: vaultId },
    { name: 'Seq-From', value: String(seqFrom) },
    { name: 'Seq-To', value: String(seqTo) },
  ];
}

/** R85's tags of a file version's item (a public vault's relay adds Content-Type and File-Name). */
export function fileItemTags(vaultId: string, blobId: string): ItemTag[] {
  return [
    { name: 'App-Name', value: ITEM_TAGS.appName },
    { name: 'Cairn-Item', value: ITEM_TAGS.fileVersion },
    { name: 'Cairn-Format-Version', value: String(HISTORY_FORMAT_VERSION) },
    { name: 'Vault-Id', value: vaultId },
    { name: 'Blob-Id', value: blobId },
  ];
}

/** R87: the encrypted export's manifest entry. */
export const EXPORT_MANIFEST_ENTRY = 'cairn-export.json';

/** R87: `history/0000000001.json`, the run's first seq in 10 digits, so the names sort in order. */
export function exportRunEntryName(seqFrom: number): string {
  return `history/${String(seqFrom).padStart(10, '0')}.json`;
}

/** R87: a version's stored bytes, by blob id. */
export function exportBlobEntryName(blobId: string): string {
  return `blobs/${blobId}`;
}

/**
 * A gateway's GraphQL search for items by tags, a page at a time (R86): the `cairn` command asks
 * a gateway with it, the server's `GET /api/arweave/items` asks its own. Oldest first, with each
 * item's block height (null while pending), because R98 prefers the run posted first: anyone can
 * post a copy of a vault's run later, nobody can post one before it existed.
 */
export const ITEMS_GRAPHQL_QUERY = `query Items($tags: [TagFilter!], $first: Int, $after: String) {
  transactions(tags: $tags, first: $first, after: $after, sort: HEIGHT_ASC) {
    pageInfo { hasNextPage }
    edges { cursor node { id owner { address } tags { name value } data { size } block { height } } }
  }
}`;

/** The tag filter that finds vault `vaultId`'s history runs (R84) or a blob's file items (R85). */
export function itemTagFilter(vaultId: string, item: 'vault-history' | 'file-version', blobId?: string): { name: string; values: string[] }[] {
  return [
    { name: 'App-Name', values: [ITEM_TAGS.appName] },
    { name: 'Cairn-Item', values: [item === 'vault-history' ? ITEM_TAGS.history : ITEM_TAGS.fileVersion] },
    { name: 'Vault-Id', values: [vaultId] },
    ...(blobId !== undefined ? [{ name: 'Blob-Id', values: [blobId] }] : []),
  ];
}
