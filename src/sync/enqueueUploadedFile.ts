/**
 * The last step of an upload: every chunk is stored, so the signed file operation that commits
 * them (file.create, or file.addVersion for a replaced file) goes to the outbox, waiting for the
 * upload id. The server checks the chunk hashes against what it holds before accepting it.
 */
import type { Thumbnail } from '../protocol/thumbnails';
import type { Field, FileVersion } from '../protocol/vaults';
import type { UploadRecord } from '../storage/vaultRecords';
import { type EnqueueInput, enqueueOperations } from './outbox';
import { uploadChunkSize } from './uploadSource';
import type { SyncContext } from './SyncContext';

/** The MIME type a version of `record` declares. */
export function uploadMimeType(record: Pick<UploadRecord, 'fileType'>): string {
  return record.fileType || 'application/octet-stream';
}

/** The version a fully sent upload commits; its type sealed in a private vault. */
export async function uploadedFileVersion(
  ctx: SyncContext,
  record: UploadRecord,
  isPrivate: boolean,
  storedSize: number,
  thumbnail: Thumbnail | null = null,
): Promise<FileVersion> {
  const hashes = record.chunkHashes;
  if (hashes.length !== record.chunkCount || hashes.some((h) => !h)) throw new Error('Chunk receipts are missing');
  const mimeText = uploadMimeType(record);
  let mimeType: Field = { clear: mimeText };
  if (isPrivate) mimeType = (await ctx.crypto.sealFields(record.vaultId, record.versionId, { mimeType: mimeText })).mimeType!;
  return {
    versionId: record.versionId,
    blobId: record.blobId,
    size: record.size,
    storedSize,
    chunkSize: uploadChunkSize(record),
    chunkCount: record.chunkCount,
    chunkHashes: hashes as string[],
    ...(isPrivate && record.sealedFileKey ? { fileKey: record.sealedFileKey } : {}),
    mimeType,
    lastModified: record.lastModified,
    ...(thumbnail ? { thumbnail } : {}),
  };
}

/** A fully sent upload, with what its file operation needs. */
export interface SentUpload {
  record: UploadRecord;
  storedSize: number;
  thumbnail: Thumbnail | null;
}

/** Queues the file operation of a fully sent upload; its names and type sealed in a private vault. */
export async function enqueueUploadedFile(
  ctx: SyncContext,
  record: UploadRecord,
  isPrivate: boolean,
  storedSize: number,
  thumbnail: Thumbnail | null = null,
): Promise<void> {
  await enqueueUploadedFiles(ctx, [{ record, storedSize, thumbnail }], isPrivate);
}

/**
 * Queues the file operations of several fully sent uploads of one vault in one outbox write (a
 * group of small files: one transaction and one re-read of the views for all of them).
 */
export async function enqueueUploadedFiles(ctx: SyncContext, uploads: readonly SentUpload[], isPrivate: boolean): Promise<void> {
  if (!uploads.length) return;
  const inputs = await Promise.all(
    uploads.map(async ({ record, storedSize, thumbnail }): Promise<EnqueueInput> => {
      const version = await uploadedFileVersion(ctx, record, isPrivate, storedSize, thumbnail);
      const mimeText = uploadMimeType(record);
      let name: Field = { clear: record.name };
      if (isPrivate) name = (await ctx.crypto.sealFields(record.vaultId, record.fileId, { name: record.name })).name!;
      return {
        vaultId: record.vaultId,
        objectId: record.fileId,
        body: record.isNewFile ? { type: 'file.create', parentId: record.parentId, name, version } : { type: 'file.addVersion', version },
        fields: record.isNewFile ? { name: record.name, mimeType: mimeText } : { mimeType: mimeText },
        waitsForUploadId: record.uploadId,
        // The files of one pick share its batch id: the timeline shows 'uploaded 12 files' (SYNC_SPEC R28).
        groupRef: record.batchId,
      };
    }),
  );
  await enqueueOperations(ctx, inputs);
}
