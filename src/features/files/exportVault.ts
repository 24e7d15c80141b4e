/**
 * 'Export vault' and 'Export encrypted' (docs/SYNC_SPEC.md R87, R88): the vault as one zip,
 * streamed to disk through the download machinery of batch downloads (writeZipToDisk: entries
 * fetched a few ahead, each file's chunks flowing through decryption into client-zip, so memory
 * stays flat whatever the vault's size), under the same progress notice with Cancel.
 *
 * Where the browser has the File System Access save picker, the zip goes to the file the user
 * picks: the browser writes it to a temporary file and moves it into place only when the zip is
 * complete, so a cancelled or failed export leaves no file that looks whole. Elsewhere it is a
 * download through the service worker's stream, which the browser marks failed when it ends short.
 */
import Dexie from 'dexie';
import { chatExport, encryptedExportFileName, exportManifest, ExportLayoutError, historyRuns, plainExportLayout, timelineExport } from '../../domain/exportLayout';
import { EXPORT_MANIFEST_ENTRY, exportBlobEntryName, exportRunEntryName } from '../../protocol/vaultHistory';
import { zipFileName } from '../../domain/zipEntries';
import { getDb } from '../../storage/db';
import type { VaultRecord } from '../../storage/vaultRecords';
import { getStoreAccount, getVaultNodes } from '../../storage/vaultStore';
import { requireSync } from '../../sync/currentSync';
import { ExportError, failedExportMessage, readExportVersions, readVaultHistory, storedBlobStream, tamperedExportMessage } from '../../sync/exportStored';
import { DownloadError } from '../../sync/vaultActions';
import { readTimeline } from '../timeline/timelineSource';
import { runDownload } from './runDownload';
import { bytesZipSource, fileZipSource, writeZipToDisk, type ZipSource } from './saveFileToDisk';

interface SaveFilePickerWindow {
  showSaveFilePicker?: (options: { suggestedName: string; types: { description: string; accept: Record<string, string[]> }[] }) => Promise<{
    createWritable(): Promise<WritableStream<Uint8Array>>;
  }>;
}

/**
 * The file the user picks for the zip, opened for writing; null where the browser has no save
 * picker (the download path is used); 'dismissed' when the user closed the picker.
 */
async function pickSaveFile(fileName: string): Promise<WritableStream<Uint8Array> | null | 'dismissed'> {
  const picker = (globalThis as SaveFilePickerWindow).showSaveFilePicker;
  if (typeof picker !== 'function') return null;
  try {
    const handle = await picker.call(globalThis, { suggestedName: fileName, types: [{ description: 'Zip archive', accept: { 'application/zip': ['.zip'] } }] });
    return await handle.createWritable();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return 'dismissed';
    // A picker refused here (no user gesture left, a blocked location) falls back to a download.
    console.warn('save picker unavailable', error);
    return null;
  }
}

const encoder = new TextEncoder();
const jsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value));

/**
 * A JSON entry made when the zip reaches it: its size is measured once up front (the archive's
 * length is predicted) and the bytes dropped, so a history of many runs is never all in memory.
 */
function lazyJsonSource(path: string, make: () => unknown, updatedAt: number): ZipSource {
  const size = jsonBytes(make()).byteLength;
  return {
    path,
    size,
    updatedAt,
    heldBytes: size,
    open: (signal, onProgress, onDone) => bytesZipSource(path, jsonBytes(make()), updatedAt).open(signal, onProgress, onDone),
  };
}

/** What the user reads when one file of the export fails: its name, and why. */
function describeFileError(source: ZipSource, error: unknown): unknown {
  if (error instanceof ExportError) return error;
  const name = source.path.split('/').at(-1) ?? source.path;
  if (error instanceof DownloadError && error.code === 'CHUNK_TAMPERED') return new ExportError('CHUNK_TAMPERED', tamperedExportMessage(name), { cause: error });
  return new ExportError('CHUNK_FAILED', failedExportMessage(name), { cause: error });
}

export const NOT_SYNCED_EXPORT_MESSAGE = 'This vault has not synced to this device yet: export it once it says Synced.';

/**
 * Both exports are made from the log this device pulled and verified: a vault whose history the
 * server has but this device holds none of (not pulled yet, or being pulled again from its
 * creation) would export as an empty vault, so it is refused rather than written.
 */
async function requirePulledVault(accountId: string, vaultId: string): Promise<void> {
  const vault = await getDb().vaults.get([accountId, vaultId]);
  if (!vault || (vault.headSeq > 0 && vault.cursor === 0)) throw new ExportError('HISTORY_INCOMPLETE', NOT_SYNCED_EXPORT_MESSAGE);
}

async function runExport(fileName: string, build: (updatedAt: number) => Promise<ZipSource[]>): Promise<boolean> {
  const picked = await pickSaveFile(fileName);
  if (picked === 'dismissed') return false;
  return runDownload(async (signal, report) => {
    try {
      const sources = await build(Date.now());
      await writeZipToDisk(fileName, sources, signal, report, { describeError: describeFileError, ...(picked ? { target: picked } : {}) });
    } catch (error) {
      // A picked file is written to a temporary copy until closed: aborting it leaves nothing.
      if (picked) await picked.abort(error).catch(() => undefined);
      if (error instanceof ExportLayoutError) throw new ExportError('HISTORY_INCOMPLETE', error.message);
      throw error;
    }
  });
}

/** 'Export vault' (R88): every active file's newest version decrypted in its folders, chat and timeline as JSON. */
export async function exportVaultPlain(vault: VaultRecord): Promise<boolean> {
  const accountId = getStoreAccount();
  if (!accountId) return false;
  const { ctx } = requireSync();
  const db = getDb();
  return runExport(zipFileName(vault.name), async (now) => {
    await requirePulledVault(accountId, vault.vaultId);
    // A file whose first version is still uploading has nothing to export yet.
    const nodes = (await getVaultNodes(db, accountId, vault.vaultId)).filter((n) => n.kind === 'folder' || n.latestVersionId !== null);
    const layout = plainExportLayout(nodes);
    const memos = await db.memos.where('[accountId+vaultId+order]').between([accountId, vault.vaultId, Dexie.minKey], [accountId, vault.vaultId, Dexie.maxKey]).toArray();
    const timeline = await readTimeline(db, accountId, vault.vaultId, { key: ctx.user.publicSigningKey, role: vault.role });
    return [
      ...layout.files.map((entry) => fileZipSource(vault.vaultId, entry)),
      bytesZipSource(layout.chatPath, jsonBytes(chatExport(memos)), now),
      bytesZipSource(layout.timelinePath, jsonBytes(timelineExport(timeline)), now),
    ];
  });
}

/** 'Export encrypted' (R87): the signed history as pulled and every kept version's sealed bytes. */
export async function exportVaultEncrypted(vault: VaultRecord): Promise<boolean> {
  const accountId = getStoreAccount();
  if (!accountId) return false;
  const db = getDb();
  return runExport(encryptedExportFileName(zipFileName(vault.name)), async (now) => {
    await requirePulledVault(accountId, vault.vaultId);
    const history = await readVaultHistory(db, accountId, vault.vaultId);
    const runs = historyRuns(vault.vaultId, history);
    const headSeq = runs.at(-1)?.seqTo ?? 0;
    const versions = await readExportVersions(db, accountId, vault.vaultId);
    return [
      bytesZipSource(EXPORT_MANIFEST_ENTRY, jsonBytes(exportManifest(vault.vaultId, headSeq, now)), now),
      ...runs.map((run) => lazyJsonSource(exportRunEntryName(run.seqFrom), () => run, now)),
      ...versions.map(({ version, fileName }): ZipSource => ({
        path: exportBlobEntryName(version.blobId),
        size: version.storedSize,
        updatedAt: version.createdAt,
        heldBytes: Math.min(version.storedSize, 3 * (version.chunkSize + 16)),
        open: async (signal, onProgress, onDone) => ({ size: version.storedSize, input: storedBlobStream(vault.vaultId, version, fileName, { signal, onProgress, onDone }) }),
      })),
    ];
  });
}
