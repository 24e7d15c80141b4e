/**
 * Where an upload's bytes come from, and the check that they are still the bytes it started
 * with (DESIGN.md section 3). While the page lives, chunks are read from the picked File itself
 * (on disk, fast); after a reload or a crash, from the copy kept in IndexedDB (`uploadFiles`),
 * which is written while the upload already goes on (uploadQueue.ts queueUploads).
 *
 * A resumed upload re-seals chunks under the key and nonces it already used, so it may go on
 * only from the same source: same size, same last-modified time, and the same plaintext in the
 * last chunk the server holds (checked against the hash recorded when that chunk was sealed).
 * Otherwise the upload fails naming the file; it is never finished from a mix of two versions.
 */
import type { ChunkHeader } from '../crypto/fileChunks';
import { CHUNK_SIZES, type ChunkSize } from '../protocol/vaults';
import type { UploadRecord } from '../storage/vaultRecords';
import type { SyncContext } from './SyncContext';

/** An upload's chunk size: the one it was queued with (4 MiB for records older than the field). */
export function uploadChunkSize(record: Pick<UploadRecord, 'chunkSize'>): ChunkSize {
  return record.chunkSize ?? CHUNK_SIZES[0];
}

/** The chunk header an upload's chunks are sealed under. */
export function uploadHeader(record: Pick<UploadRecord, 'size' | 'chunkSize' | 'chunkCount'>): ChunkHeader {
  return { size: record.size, chunkSize: uploadChunkSize(record), chunkCount: record.chunkCount };
}

/** The upload's file differs from the one whose chunks were sent. */
export class SourceChangedError extends Error {}

/** The text shown when the file changed since it was picked (it names the file). */
export function sourceChangedMessage(name: string): string {
  return `"${name}" changed after it was picked, so it was not uploaded. Pick the file again to upload it.`;
}

/** The text shown when the file can no longer be read on this device (it names the file). */
export function sourceUnreadableMessage(name: string): string {
  return `"${name}" can no longer be read on this device, so it was not uploaded. Pick the file again to upload it.`;
}

/**
 * The files picked in this page session, by upload id. Slices of an IndexedDB-backed Blob read
 * far slower in Chromium than the picked File, so the copy is only read to resume after a reload.
 */
const pickedFiles = new Map<string, Blob>();

export function rememberPickedFile(uploadId: string, file: Blob): void {
  pickedFiles.set(uploadId, file);
}

/** Stops reading the picked file (done, or unreadable: the IndexedDB copy takes over). */
export function forgetPickedFile(uploadId: string): void {
  pickedFiles.delete(uploadId);
}

/** Forgets every picked file, as a page reload does (tests of resumption use it). */
export function forgetPickedFiles(): void {
  pickedFiles.clear();
}

/** Copies of picked files being written (uploadQueue.ts queueUploads). */
const pendingCopies = new Set<Promise<unknown>>();

/** Tracks a copy being written until it settles; answers `copying` itself. */
export function trackCopies<T>(copying: Promise<T>): Promise<T> {
  pendingCopies.add(copying);
  void copying.finally(() => pendingCopies.delete(copying)).catch(() => undefined);
  return copying;
}

/** Resolves once every copy of a picked file started so far is written (or refused). */
export async function copiesWritten(): Promise<void> {
  await Promise.allSettled([...pendingCopies]);
}

export interface UploadSource {
  file: Blob & { lastModified?: number };
  /** The picked File of this page session (true) or the copy kept in IndexedDB (false). */
  isPicked: boolean;
}

/** The picked file if this page session has it, else the kept copy; null when neither exists. */
export async function openUploadSource(ctx: SyncContext, uploadId: string): Promise<UploadSource | null> {
  const picked = pickedFiles.get(uploadId);
  if (picked) return { file: picked, isPicked: true };
  const kept = await ctx.db.uploadFiles.get([ctx.accountId, uploadId]);
  return kept ? { file: kept.file, isPicked: false } : null;
}

/** The last-modified time as UploadRecord keeps it (whole milliseconds, never negative). */
export function lastModifiedOf(file: { lastModified?: number }, fallback: number): number {
  return Math.max(0, Math.floor(file.lastModified ?? fallback));
}

/**
 * Throws SourceChangedError unless `file` is the source `record` was sealed from: size,
 * last-modified time (when the source has one) and, sealed again under the upload's key
 * (`rawKey`, null for a public vault) and nonces, the highest-numbered chunk in `storedChunks`
 * whose hash was recorded: sealing is deterministic, so only the same plaintext gives the same
 * hash. Reads and seals at most one chunk, and keeps nothing of it.
 */
export async function checkSourceUnchanged(
  ctx: SyncContext,
  record: UploadRecord,
  file: UploadSource['file'],
  storedChunks: readonly number[],
  rawKey: ArrayBuffer | null,
): Promise<void> {
  if (file.size !== record.size) throw new SourceChangedError('size');
  if (file.lastModified !== undefined && lastModifiedOf(file, 0) !== record.lastModified) throw new SourceChangedError('lastModified');
  const checked = storedChunks.filter((index) => record.chunkHashes[index]).reduce((last, index) => Math.max(last, index), -1);
  if (checked < 0) return;
  if (!ctx.transfer) throw new Error('The transfer pool is not available yet');
  const hash = await ctx.transfer.hashChunk({ file, index: checked, header: uploadHeader(record), rawKey: rawKey ? rawKey.slice(0) : null });
  if (hash !== record.chunkHashes[checked]) throw new SourceChangedError(`chunk ${checked}`);
}
