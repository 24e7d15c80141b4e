/**
 * Saves decrypted files to disk through src/platform/saveStream: one file as itself, or any
 * number as one zip (client-zip), streamed through the service worker when one controls the page
 * so memory stays flat whatever the size, else assembled as a Blob (the fallback).
 */
import { downloadZip, predictLength } from 'client-zip';
import type { ZipEntry } from '../../domain/zipEntries';
import { openSaveStream } from '../../platform/saveStream';
import { CHUNK_SIZE } from '../../protocol/vaults';
import { DOWNLOAD_WINDOW } from '../../sync/downloadFile';
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
function entryStream(download: FileVersionDownload, signal: AbortSignal, onProgress: (received: number) => void, onDone: () => void): ReadableStream<Uint8Array> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  // Failures reach the zip through the stream (it errors); the promise itself is not awaited.
  pumpInto(download, writable, signal, onProgress).then(onDone, () => undefined);
  return readable;
}

/**
 * Entries opened and fetched ahead of the one the zip is writing. client-zip asks for the next
 * entry only once the previous one is written, so without this every file cost its own key
 * opening and chunk round trip in turn (40 files of 4 KB: ~3 s, ~75 ms each, so a few hundred
 * small files take half a minute with the network idle most of the time). Bounded
 * by count and by the bytes the open entries may hold (each holds at most DOWNLOAD_WINDOW chunks,
 * so a large file counts as that much), so memory stays flat whatever the zip's size.
 */
const ZIP_LOOKAHEAD_ENTRIES = 8;
const ZIP_LOOKAHEAD_BYTES = 32 * 1024 * 1024;
const MAX_HELD_BYTES_PER_ENTRY = DOWNLOAD_WINDOW * CHUNK_SIZE;

/**
 * Saves `entries` as one zip named `fileName`. The archive's exact length is known in advance
 * (client-zip's predictLength over names and sizes), so the browser shows a real progress and the
 * stream refuses to end short or long. Progress counts the bytes fetched and the files written.
 */
export async function saveZipToDisk(vaultId: string, fileName: string, entries: readonly ZipEntry[], signal: AbortSignal, report: ReportProgress): Promise<void> {
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  const size = Number(predictLength(entries.map((e) => ({ name: e.path, size: e.size }))));
  const count = { done: 0, total: entries.length };
  report(0, total, count);
  const target = await openSaveStream({ fileName, size, mimeType: 'application/zip' });

  let received = 0;
  const receivedOf = new Array<number>(entries.length).fill(0);
  const open = (index: number) => {
    const entry = entries[index]!;
    const opening = openDownload(vaultId, entry.fileId).then((download) => ({
      download,
      input: entryStream(
        download,
        signal,
        (bytes) => {
          received += bytes - receivedOf[index]!;
          receivedOf[index] = bytes;
          report(received, total, count);
        },
        () => {
          count.done += 1;
          report(received, total, count);
        },
      ),
    }));
    // Awaited in order below; a failure ahead of the zip's reading must not go unhandled meanwhile.
    opening.catch(() => undefined);
    return opening;
  };
  const held = (index: number) => Math.min(entries[index]!.size, MAX_HELD_BYTES_PER_ENTRY);

  async function* files() {
    const ahead: Promise<{ download: FileVersionDownload; input: ReadableStream<Uint8Array> }>[] = [];
    let next = 0;
    let heldBytes = 0;
    for (let index = 0; index < entries.length; index++) {
      // Open the entries ahead (always the current one) while the bounds allow.
      while (next < entries.length && (next === index || (next - index < ZIP_LOOKAHEAD_ENTRIES && heldBytes + held(next) <= ZIP_LOOKAHEAD_BYTES))) {
        heldBytes += held(next);
        ahead.push(open(next++));
      }
      const { download, input } = await ahead.shift()!;
      heldBytes -= held(index);
      const entry = entries[index]!;
      yield { name: entry.path, lastModified: new Date(entry.updatedAt), size: download.size, input };
    }
  }
  await downloadZip(files()).body!.pipeTo(target.writable, { signal });
}
