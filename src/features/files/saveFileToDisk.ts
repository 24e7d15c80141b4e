/**
 * Saves decrypted files to disk through src/platform/saveStream: one file as itself, or any
 * number as one zip (client-zip), streamed through the service worker when one controls the page
 * so memory stays flat whatever the size, else assembled as a Blob (the fallback).
 */
import { downloadZip, predictLength } from 'client-zip';
import type { ZipEntry } from '../../domain/zipEntries';
import { openSaveStream, saveFromSource } from '../../platform/saveStream';
import { isStreamCancelled } from '../../../workers/serviceWorker/downloadStreamProtocol';
import { CHUNK_SIZE } from '../../protocol/vaults';
import { DOWNLOAD_WINDOW, toDownloadError } from '../../sync/downloadFile';
import { openDownload, type FileVersionDownload } from '../../sync/vaultActions';
import type { ReportProgress } from './runDownload';

/**
 * Writes the file's verified plaintext into `writable`, then closes it; aborts it on failure. A
 * stream that errors meanwhile (the browser's download was cancelled) stops the pump at once with
 * the stream's error, rather than when the next chunk, perhaps seconds away, is written.
 */
export async function pumpInto(download: FileVersionDownload, writable: WritableStream<Uint8Array>, signal: AbortSignal, onProgress: (received: number) => void) {
  const writer = writable.getWriter();
  const streamFailed = new AbortController();
  writer.closed.catch((reason: unknown) => streamFailed.abort(reason));
  try {
    await download.pump((chunk) => writer.write(chunk), { signal: AbortSignal.any([signal, streamFailed.signal]), onProgress: (received) => onProgress(received) });
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
  const meta = { fileName: file.name, size: download.size, mimeType: download.mimeType };
  const onProgress = (received: number) => report(received, download.size);
  // The service worker fetches and opens the chunks itself when it can (saveFromSource); else
  // the page does, into the service worker's stream or the Blob fallback.
  let isSaved: boolean;
  try {
    isSaved = await saveFromSource(meta, download.source, signal, onProgress);
  } catch (error) {
    throw isCancelledOrAborted(error, signal) ? error : toDownloadError(error);
  }
  if (isSaved) return;
  const target = await openSaveStream(meta);
  await pumpInto(download, target.writable, signal, onProgress);
}

/** The browser's cancel and the app's own stop are not failures of the file: passed on as they are. */
function isCancelledOrAborted(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || isStreamCancelled(error);
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

/** One entry of a zip as the writer opens it: its exact size and a stream of its bytes. */
export interface OpenedZipEntry {
  size: number;
  input: ReadableStream<Uint8Array>;
}

/**
 * One entry to write: `open` starts fetching it (the writer opens a few ahead of the one it
 * writes), reporting the bytes received so far and calling `onDone` once it is fully read.
 */
export interface ZipSource {
  path: string;
  size: number;
  updatedAt: number;
  /** Bytes this entry may hold in memory while opened ahead (the look-ahead's byte bound). */
  heldBytes: number;
  open(signal: AbortSignal, onProgress: (received: number) => void, onDone: () => void): Promise<OpenedZipEntry>;
}

/** A file of the vault as a zip source: its newest version, decrypted. */
export function fileZipSource(vaultId: string, entry: ZipEntry): ZipSource {
  return {
    path: entry.path,
    size: entry.size,
    updatedAt: entry.updatedAt,
    heldBytes: Math.min(entry.size, MAX_HELD_BYTES_PER_ENTRY),
    open: async (signal, onProgress, onDone) => {
      const download = await openDownload(vaultId, entry.fileId);
      return { size: download.size, input: entryStream(download, signal, onProgress, onDone) };
    },
  };
}

/** Bytes already in memory (a JSON file the app wrote) as a zip source. */
export function bytesZipSource(path: string, bytes: Uint8Array<ArrayBuffer>, updatedAt: number): ZipSource {
  return {
    path,
    size: bytes.byteLength,
    updatedAt,
    heldBytes: 0,
    open: async (_signal, onProgress, onDone) => {
      onProgress(bytes.byteLength);
      onDone();
      return { size: bytes.byteLength, input: new Blob([bytes]).stream() };
    },
  };
}

export interface WriteZipOptions {
  /** Where the archive goes (a file the user picked); else the browser's download (openSaveStream). */
  target?: WritableStream<Uint8Array>;
  /** Turns an entry's failure into the error the user reads (an export names the file). */
  describeError?: (source: ZipSource, error: unknown) => unknown;
}

/**
 * Saves `sources` as one zip named `fileName`. The archive's exact length is known in advance
 * (client-zip's predictLength over names and sizes), so the browser shows a real progress and the
 * stream refuses to end short or long. Progress counts the bytes fetched and the files written.
 */
export async function writeZipToDisk(fileName: string, sources: readonly ZipSource[], signal: AbortSignal, report: ReportProgress, options: WriteZipOptions = {}): Promise<void> {
  const total = sources.reduce((sum, e) => sum + e.size, 0);
  const count = { done: 0, total: sources.length };
  report(0, total, count);
  const target =
    options.target ?? (await openSaveStream({ fileName, size: Number(predictLength(sources.map((e) => ({ name: e.path, size: e.size })))), mimeType: 'application/zip' })).writable;

  let received = 0;
  const receivedOf = new Array<number>(sources.length).fill(0);
  const describe = (source: ZipSource, error: unknown) => (options.describeError && !signal.aborted ? options.describeError(source, error) : error);
  const open = (index: number) => {
    const source = sources[index]!;
    const opening = source
      .open(
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
      )
      .catch((error: unknown) => {
        throw describe(source, error);
      });
    // Awaited in order below; a failure ahead of the zip's reading must not go unhandled meanwhile.
    opening.catch(() => undefined);
    return opening;
  };

  let entryError: unknown = null;
  async function* files() {
    const ahead: Promise<OpenedZipEntry>[] = [];
    let next = 0;
    let heldBytes = 0;
    for (let index = 0; index < sources.length; index++) {
      // Open the entries ahead (always the current one) while the bounds allow.
      while (next < sources.length && (next === index || (next - index < ZIP_LOOKAHEAD_ENTRIES && heldBytes + sources[next]!.heldBytes <= ZIP_LOOKAHEAD_BYTES))) {
        heldBytes += sources[next]!.heldBytes;
        ahead.push(open(next++));
      }
      const { size, input } = await ahead.shift()!;
      heldBytes -= sources[index]!.heldBytes;
      const source = sources[index]!;
      const reader = input.getReader();
      // Read through, so a failing entry is named before client-zip sees (and rewraps) it.
      const named = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) controller.close();
            else controller.enqueue(value);
          } catch (error) {
            entryError ??= describe(source, error);
            controller.error(entryError);
          }
        },
        cancel: (reason) => reader.cancel(reason),
      });
      yield { name: source.path, lastModified: new Date(source.updatedAt), size, input: named };
    }
  }
  try {
    await downloadZip(files()).body!.pipeTo(target, { signal });
  } catch (error) {
    throw entryError ?? error;
  }
}

/** Saves the vault's files `entries` (decrypted) as one zip named `fileName`. */
export async function saveZipToDisk(vaultId: string, fileName: string, entries: readonly ZipEntry[], signal: AbortSignal, report: ReportProgress): Promise<void> {
  await writeZipToDisk(
    fileName,
    entries.map((entry) => fileZipSource(vaultId, entry)),
    signal,
    report,
  );
}
