/**
 * The encrypted export (docs/SYNC_SPEC.md R87): a zip of stored entries holding
 * `cairn-export.json`, the vault's history runs as `history/{seqFrom, 10 digits}.json` (R84's
 * data) and each version's stored bytes as `blobs/{blobId}` (R85's data, still sealed). It holds
 * nothing a history item and a file item do not, so it is read as a `VaultItemSource` with the
 * very checks a gateway's items get (restoreReader.ts): an export is no more trusted than the
 * network.
 *
 * `writeEncryptedExport` makes one (the tests' builder, and the app's 'Export encrypted' may use
 * it); `exportSource` reads one from a Blob (a File in the browser, `fs.openAsBlob` in Node), one
 * entry at a time, never the whole archive in memory.
 */
import { BlobReader, configure, Uint8ArrayReader, Uint8ArrayWriter, ZipReader, ZipWriter, type Entry, type FileEntry } from '@zip.js/zip.js';
import {
  EXPORT_FORMAT,
  EXPORT_MANIFEST_ENTRY as MANIFEST_ENTRY,
  ExportManifest,
  exportBlobEntryName,
  exportRunEntryName,
  HISTORY_FORMAT_VERSION,
  type VaultHistoryRun,
} from '../protocol/vaultHistory';
import { RestoreError, type FileItem, type HistoryItem, type VaultItemSource } from './restoreReader';

configure({ useWebWorkers: false });

const RUN_ENTRY = /^history\/([0-9]{10})\.json$/;
const BLOB_ENTRY = /^blobs\/([A-Za-z0-9_-]{1,64})$/;

export interface ExportBlob {
  blobId: string;
  /** The stored bytes, chunk after chunk. */
  data: ReadableStream<Uint8Array> | Uint8Array;
}

/**
 * Writes an encrypted export of vault `vaultId` into `out`: `runs` cover seq 1..headSeq in order
 * (R84's data, as the relay posts them), then every blob. Entries are stored, not deflated (the
 * chunks are ciphertext).
 */
export async function writeEncryptedExport(
  out: WritableStream<Uint8Array>,
  input: { vaultId: string; runs: readonly VaultHistoryRun[]; blobs: AsyncIterable<ExportBlob> | Iterable<ExportBlob>; exportedAt: number },
): Promise<void> {
  const writer = new ZipWriter(out, { level: 0 });
  const encoder = new TextEncoder();
  const headSeq = input.runs.at(-1)?.seqTo ?? 0;
  const manifest: ExportManifest = { format: EXPORT_FORMAT, version: HISTORY_FORMAT_VERSION, vaultId: input.vaultId, headSeq, exportedAt: input.exportedAt };
  await writer.add(MANIFEST_ENTRY, new Uint8ArrayReader(encoder.encode(JSON.stringify(manifest))));
  for (const run of input.runs) await writer.add(exportRunEntryName(run.seqFrom), new Uint8ArrayReader(encoder.encode(JSON.stringify(run))));
  for await (const blob of input.blobs) {
    const reader = blob.data instanceof Uint8Array ? new Uint8ArrayReader(blob.data) : blob.data;
    await writer.add(exportBlobEntryName(blob.blobId), reader);
  }
  await writer.close();
}

function isFile(entry: Entry): entry is FileEntry {
  return !entry.directory;
}

/** An entry's bytes as they are read (the zip's CRC is checked at the end). */
function entryStream(entry: FileEntry): AsyncIterable<Uint8Array> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  // A failed read (a bad CRC, a cut file) errors the readable side, which the reader sees.
  entry.getData(writable).catch(() => undefined);
  return readable as unknown as AsyncIterable<Uint8Array>;
}

/**
 * An encrypted export as a source of items. Throws RestoreError BAD_INPUT when `file` is not a
 * zip with R87's manifest.
 */
export async function exportSource(file: Blob, name: string): Promise<VaultItemSource & { manifest: ExportManifest }> {
  const label = `the export file ${name}`;
  let entries: Entry[];
  try {
    entries = await new ZipReader(new BlobReader(file)).getEntries();
  } catch {
    throw new RestoreError('BAD_INPUT', `${name} is not an encrypted export of a vault (not a zip file).`);
  }
  const byName = new Map<string, FileEntry>();
  for (const entry of entries) if (isFile(entry) && !byName.has(entry.filename)) byName.set(entry.filename, entry);
  const manifestEntry = byName.get(MANIFEST_ENTRY);
  const manifest = manifestEntry ? ExportManifest.safeParse(await readJson(manifestEntry)) : null;
  if (!manifest?.success) throw new RestoreError('BAD_INPUT', `${name} is not an encrypted export of a vault (no ${MANIFEST_ENTRY} in it).`);

  return {
    label,
    manifest: manifest.data,
    async *historyItems(vaultId: string): AsyncGenerator<HistoryItem> {
      if (vaultId !== manifest.data.vaultId) return;
      for (const [entryName, entry] of byName) {
        const match = RUN_ENTRY.exec(entryName);
        if (!match) continue;
        const data = await entry.getData(new Uint8ArrayWriter()).catch(() => new Uint8Array(0));
        // An export has no owners and no tags: the run's data names its own seqs, checked by the reader.
        let seqTo = Number(match[1]);
        try {
          seqTo = Number((JSON.parse(new TextDecoder().decode(data)) as { seqTo?: unknown }).seqTo) || seqTo;
        } catch {
          // The reader ignores a run that does not parse.
        }
        // No block heights either (R98's order): one entry per seq, so no two runs compete.
        yield { id: entryName, owner: 'export', height: null, seqFrom: Number(match[1]), seqTo, read: async () => data };
      }
    },
    async *fileItems(vaultId: string, blobId: string): AsyncGenerator<FileItem> {
      if (vaultId !== manifest.data.vaultId) return;
      const entry = byName.get(exportBlobEntryName(blobId));
      if (!entry || !BLOB_ENTRY.test(entry.filename)) return;
      yield { id: entry.filename, size: entry.uncompressedSize, open: async () => entryStream(entry) };
    },
  };
}

async function readJson(entry: FileEntry): Promise<unknown> {
  try {
    return JSON.parse(new TextDecoder().decode(await entry.getData(new Uint8ArrayWriter())));
  } catch {
    return null;
  }
}
