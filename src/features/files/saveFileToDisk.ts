/**
 * Saves decrypted files to disk through src/platform/saveStream: one file as itself, or any
 * number as one zip (client-zip), streamed through the service worker when one controls the page
 * so memory stays flat whatever the size, else assembled as a Blob (the fallback).
 */
import { downloadZip, predictLength } from 'client-zip';
import type { ZipEntry } from '../../domain/zipEntries';
import { openSaveStream } from '../../platform/saveStream';
import { openDownload, type FileVersionDownload } from '../../sync/vaultActions';
import type { ReportProgress } from './runDownload';

/** Writes the file's verified plaintext into `writable`, then closes it; aborts it on failure. */
async function pumpInto(download: FileVersionDownload, writable: WritableStream<Uint8Array>, signal: AbortSignal, onProgress: (received: number) => void) {
  const writer = writable.getWriter();
  try {
    await download.pump((chunk) => writer.write(chunk), { signal, onProgress: (received) => onProgress(received) });
    await writer.close();
  } catch (error) {
    // The stream may be errored already (the browser cancelled): nothing more to tell it then.
    await writer.abort(error).catch(() => undefined);
    throw error;
  }
}

/** Saves one file version (the latest by default) under the file's name. */
export async function saveFileToDisk(
  vaultId: string,
  file: { id: string; name: string },
  versionId: string | undefined,
  signal: AbortSignal,
  report: ReportProgress,
): Promise<void> {
  // The key opens (or fails) before the browser is asked to save anything.
  const download = await openDownload(vaultId, file.id, versionId);
  const target = await openSaveStream({ fileName: file.name, size: download.size, mimeType: download.mimeType });
  await pumpInto(download, target.writable, signal, (received) => report(received, download.size));
}

/** One file of a zip as a stream client-zip pulls from; the pump waits while the zip does not read. */
function entryStream(download: FileVersionDownload, signal: AbortSignal, onProgress: (received: number) => void): ReadableStream<Uint8Array> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  // Failures reach the zip through the stream (it errors); the promise itself is not awaited.
  pumpInto(download, writable, signal, onProgress).catch(() => undefined);
  return readable;
}

/**
 * Saves `entries` as one zip named `fileName`. The archive's exact length is known in advance
 * (client-zip's predictLength over names and sizes), so the browser shows a real progress and the
 * stream refuses to end short or long.
 */
export async function saveZipToDisk(vaultId: string, fileName: string, entries: readonly ZipEntry[], signal: AbortSignal, report: ReportProgress): Promise<void> {
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  const size = Number(predictLength(entries.map((e) => ({ name: e.path, size: e.size }))));
  const target = await openSaveStream({ fileName, size, mimeType: 'application/zip' });
  let done = 0;
  async function* files() {
    for (const entry of entries) {
      const download = await openDownload(vaultId, entry.fileId);
      yield {
        name: entry.path,
        lastModified: new Date(entry.updatedAt),
        size: download.size,
        input: entryStream(download, signal, (received) => {
          report(done + received, total);
          if (received === download.size) done += download.size;
        }),
      };
    }
  }
  await downloadZip(files()).body!.pipeTo(target.writable, { signal });
}
