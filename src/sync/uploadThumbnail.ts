/**
 * The upload pipeline's thumbnail step (docs/SYNC_SPEC.md R79): after the content's chunks are
 * stored and before the file operation is queued, an image gets a thumbnail made in a worker,
 * sealed under a key derived from the version's file key in a private vault (clear in a public
 * one), and sent as a blob of one chunk. Any failure answers null and the file goes up without
 * one: a thumbnail never holds an upload up. A PDF's is its first page (R79a), drawn in the same
 * worker; a PDF it cannot draw shows its icon.
 */
import { bytesToHex } from '../crypto/encoding';
import { sealThumbnail } from '../crypto/thumbnailSeal';
import { makeThumbnailInWorker } from '../platform/thumbnailClient';
import type { Thumbnail } from '../protocol/thumbnails';
import { hasThumbnailSource } from '../protocol/thumbnails';
import { BlobStatusResponse } from '../protocol/vaults';
import type { UploadRecord } from '../storage/vaultRecords';
import type { ThumbnailImage } from '../../workers/thumbnail/ThumbnailApi';
import { chunkPath, type SyncContext } from './SyncContext';

const API_BASE = '/api';

export type MakeThumbnail = (file: Blob, mimeType: string) => Promise<ThumbnailImage | null>;

export async function uploadThumbnail(
  ctx: SyncContext,
  record: Pick<UploadRecord, 'vaultId' | 'versionId' | 'fileType' | 'name'>,
  file: Blob,
  rawKey: ArrayBuffer | null,
  isPrivate: boolean,
  make: MakeThumbnail = makeThumbnailInWorker,
): Promise<Thumbnail | null> {
  const type = record.fileType.toLowerCase();
  if (!hasThumbnailSource(type) || !ctx.transfer) return null;
  if (isPrivate && !rawKey) return null;
  try {
    const image = await make(file, type);
    if (!image) return null;
    const plain = new Uint8Array(image.bytes);
    const stored = isPrivate && rawKey ? await sealThumbnail(new Uint8Array(rawKey.slice(0)), record.versionId, plain) : plain;
    const sha256 = bytesToHex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', stored)));
    const blobId = ctx.newId();
    await ctx.api.post(`/vaults/${encodeURIComponent(record.vaultId)}/blobs`, { blobId, storedSize: stored.length, chunkCount: 1 }, BlobStatusResponse);
    await ctx.transfer.putChunk({ body: new Blob([stored]), sha256, url: API_BASE + chunkPath(record.vaultId, blobId, 0) });
    return { blobId, storedSize: stored.length, sha256, width: image.width, height: image.height };
  } catch (error) {
    ctx.log(`No thumbnail for ${record.name}`, error);
    return null;
  }
}
