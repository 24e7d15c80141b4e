/**
 * Small files a group at a time (issue 25). A pick of hundreds of small files cost, per file, its
 * own announcement, chunk PUT, half a dozen record writes and an outbox write, each waking every
 * view of the uploads and the folder: the per-file cost, not the bytes, was the time. A group (up
 * to GROUP_FILES_MAX fresh single-chunk uploads of one vault, GROUP_BYTES_MAX stored bytes
 * together) is sealed at once, recorded in one write, announced in one request, sent in one
 * request, and its file operations are queued in one outbox write.
 *
 * The rules of one upload hold for each file of a group: a file key and its chunk's hashes are
 * recorded before a byte leaves (DESIGN.md section 3), so an interrupted group resumes file by
 * file from what the server holds, sending at most its one chunk again. Anything a group cannot
 * settle for every file at once (a source that cannot be read, a refusal such as not enough
 * storage for all of them together) is left to the one-file path, which gives each file its own
 * answer; a failure a retry can fix throws, and the queue pauses the group and tries again.
 */
import { CHUNK_TAG_BYTES, BLOB_BATCH_LIMITS, BlobBatchStatusResponse } from '../protocol/vaults';
import { ApiError } from '../protocol/errors';
import { storedFileSize } from '../crypto/fileChunks';
import type { UploadRecord } from '../storage/vaultRecords';
import type { SealedChunk } from '../../workers/transfer/TransferApi';
import { enqueueUploadedFiles } from './enqueueUploadedFile';
import { ensureVaultKeys } from './pull';
import type { SyncContext } from './SyncContext';
import { isRetryableStatus, statusOfTransferError } from './uploadErrors';
import { forgetPickedFile, openUploadSource, uploadHeader, type UploadSource } from './uploadSource';
import { uploadThumbnail } from './uploadThumbnail';

/** Files of one group: one batch announcement and one batch PUT carry them all. */
export const GROUP_FILES_MAX = BLOB_BATCH_LIMITS.ITEMS_MAX;
/** Stored bytes of one group's chunks together (one batch PUT). */
export const GROUP_BYTES_MAX = BLOB_BATCH_LIMITS.BYTES_MAX;
/** Groups sent at once: while one group's request travels, the next is being sealed and recorded. */
export const GROUPS_AT_ONCE = 3;
/**
 * A file this size or smaller is small: one chunk, sent in one short request, and in a group when
 * fresh (its sealed copy held in memory).
 */
export const SMALL_FILE_BYTES = 1024 * 1024;

/**
 * Whether nothing of `record` was sealed yet: queued, or paused before its turn came (offline),
 * with no file key and no chunk hash recorded. Such an upload has nothing to check on resuming.
 */
function isFresh(record: UploadRecord): boolean {
  return (record.state === 'queued' || record.state === 'paused') && record.sealedFileKey === null && !record.chunkHashes.some(Boolean);
}

/**
 * Whether `record` may be sent in a group: a fresh upload of a small file. An upload started
 * before (its key or a hash recorded) goes on alone, with the checks of a resume.
 */
export function isGroupable(record: UploadRecord): boolean {
  return isFresh(record) && record.chunkCount === 1 && record.size <= SMALL_FILE_BYTES && record.purpose !== 'nft';
}

/** Splits groupable uploads (in queue order) into groups of one vault each, within the group limits. */
export function formGroups(records: readonly UploadRecord[]): UploadRecord[][] {
  const groups: UploadRecord[][] = [];
  const filling = new Map<string, { records: UploadRecord[]; bytes: number }>();
  for (const record of records) {
    const bytes = record.size + CHUNK_TAG_BYTES;
    let group = filling.get(record.vaultId);
    if (!group || group.records.length >= GROUP_FILES_MAX || group.bytes + bytes > GROUP_BYTES_MAX) {
      group = { records: [], bytes: 0 };
      filling.set(record.vaultId, group);
      groups.push(group.records);
    }
    group.records.push(record);
    group.bytes += bytes;
  }
  return groups;
}

interface Sealed {
  record: UploadRecord;
  source: UploadSource;
  key: { rawKey: ArrayBuffer; sealed: NonNullable<UploadRecord['sealedFileKey']> } | null;
  chunk: SealedChunk;
  storedSize: number;
}

/**
 * Sends one group (uploads of one vault, all groupable when formed). Answers the upload ids to
 * go on one at a time; throws when a retry may get through (offline, the server down or busy).
 */
export async function sendGroup(ctx: SyncContext, group: readonly UploadRecord[]): Promise<string[]> {
  const { db, accountId, transfer } = ctx;
  const vaultId = group[0]!.vaultId;
  const vault = await db.vaults.get([accountId, vaultId]);
  if (!vault || !transfer?.putChunks) return group.map((r) => r.uploadId);
  const isPrivate = !vault.isPublic;
  if (isPrivate) await ensureVaultKeys(ctx, vaultId);
  const alone: string[] = [];

  // 1. Keys and sealed chunks: nothing has left the device yet.
  const sealing = await Promise.all(
    group.map(async (record): Promise<Sealed | null> => {
      try {
        const source = await openUploadSource(ctx, record.uploadId);
        if (!source) return null;
        const key = isPrivate ? await ctx.crypto.createFileKey(vaultId, record.versionId) : null;
        const chunk = await transfer.sealChunk({
          file: source.file,
          index: 0,
          header: uploadHeader(record),
          // A copy: the pool may transfer (detach) what it is given, and the thumbnail needs the key.
          rawKey: key ? key.rawKey.slice(0) : null,
          spoolScope: accountId,
          keepInMemory: true,
        });
        return { record, source, key, chunk, storedSize: storedFileSize(uploadHeader(record), isPrivate) };
      } catch (error) {
        // The one-file path knows each failure's answer (a kept copy, a message naming the file).
        ctx.log(`Upload ${record.uploadId} goes on alone`, error);
        return null;
      }
    }),
  );
  sealing.forEach((item, i) => {
    if (!item) alone.push(group[i]!.uploadId);
  });

  // 2. Each file's key and chunk hashes recorded, in one write, before anything is sent. An
  // upload no longer fresh (cancelled meanwhile, or another tab's) is left as it is.
  const recorded = await db.transaction('rw', [db.uploads], async () => {
    const items = sealing.filter((item): item is Sealed => item !== null);
    const current = await db.uploads.bulkGet(items.map(({ record }) => [accountId, record.uploadId] as [string, string]));
    const kept: Sealed[] = [];
    items.forEach((item, i) => {
      const record = current[i];
      if (!record || !isFresh(record)) return;
      record.state = 'uploading';
      record.error = null;
      record.sealedFileKey = item.key?.sealed ?? null;
      record.chunkHashes = [item.chunk.sha256];
      kept.push({ ...item, record });
    });
    await db.uploads.bulkPut(kept.map(({ record }) => record));
    return kept;
  });
  if (!recorded.length) return alone;
  const leaveAlone = () => [...alone, ...recorded.map(({ record }) => record.uploadId)];

  // 3. One announcement (reserving their storage together) and 4. one PUT of every chunk the
  // server lacks. A refusal of the whole group leaves each file to ask for itself.
  const path = `/vaults/${encodeURIComponent(vaultId)}/blobs`;
  let statuses: { storedChunks: number[] }[];
  try {
    statuses = (await ctx.api.post(`${path}/batch`, { blobs: recorded.map(({ record, storedSize }) => ({ blobId: record.blobId, storedSize, chunkCount: 1 })) }, BlobBatchStatusResponse)).blobs;
  } catch (error) {
    if (error instanceof ApiError && !isRetryableStatus(error.status)) return leaveAlone();
    throw error;
  }
  const missing = recorded.filter((_, i) => !statuses[i]?.storedChunks.includes(0));
  if (missing.length) {
    try {
      await transfer.putChunks({
        url: `/api${path}/chunks`,
        chunks: missing.map(({ record, chunk }) => ({ blobId: record.blobId, index: 0, sha256: chunk.sha256, body: chunk.body, spooled: chunk.spooled })),
      });
    } catch (error) {
      const status = statusOfTransferError(error);
      if (status !== null && !isRetryableStatus(status)) return leaveAlone();
      throw error;
    }
  }

  // 5. Thumbnails (R79: never fail; an image without one goes up all the same), one image at a
  // time: a group of 128 photos decoded at once would hold gigabytes of pixels.
  const thumbnails: Awaited<ReturnType<typeof uploadThumbnail>>[] = [];
  for (const { record, source, key } of recorded) thumbnails.push(await uploadThumbnail(ctx, record, source.file, key?.rawKey ?? null, isPrivate));

  // 6. The file operations, queued in one outbox write; then the uploads are done. An upload
  // paused or cancelled meanwhile is left to its state (a paused one finds its chunk stored).
  const finishing = await db.transaction('rw', [db.uploads], async () => {
    const current = await db.uploads.bulkGet(recorded.map(({ record }) => [accountId, record.uploadId] as [string, string]));
    const going: { record: UploadRecord; storedSize: number; thumbnail: (typeof thumbnails)[number] }[] = [];
    recorded.forEach((item, i) => {
      const record = current[i];
      if (record?.state !== 'uploading') return;
      record.state = 'finalising';
      record.sentBytes = record.size;
      going.push({ record, storedSize: item.storedSize, thumbnail: thumbnails[i] ?? null });
    });
    await db.uploads.bulkPut(going.map(({ record }) => record));
    return going;
  });
  if (!finishing.length) return alone;
  await enqueueUploadedFiles(ctx, finishing, isPrivate);
  const finishedAt = Date.now();
  const ids = finishing.map(({ record }) => [accountId, record.uploadId] as [string, string]);
  await db.transaction('rw', [db.uploads, db.uploadFiles], async () => {
    const current = await db.uploads.bulkGet(ids);
    const done = current.filter((record): record is UploadRecord => record !== undefined && record.state !== 'cancelled' && record.state !== 'done');
    for (const record of done) {
      record.state = 'done';
      record.error = null;
      record.finishedAt = finishedAt;
    }
    await db.uploads.bulkPut(done);
    // A finished upload's copy of the file is no longer needed.
    await db.uploadFiles.bulkDelete(ids);
  });
  for (const { record } of finishing) forgetPickedFile(record.uploadId);
  ctx.requestPush();
  return alone;
}
