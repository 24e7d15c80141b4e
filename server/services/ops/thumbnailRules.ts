/**
 * A version's thumbnail (SYNC_SPEC R79): the server cannot look at a private vault's image, so it
 * checks its structure. The blob was announced in this vault by the operation's author, is still
 * reserved, is one chunk of exactly `storedSize` bytes (at most the limit: 64 KiB, plus the nonce
 * and tag in a private vault) whose stored SHA-256 is the signed one, and is not the version's
 * own content blob. Committing ties it to the file (node id) so deleting the file frees it and a
 * public vault serves it only while the file is shown (R40, R53); it is not a version of its own.
 */
import { ApiError } from '../../../src/protocol/errors';
import { THUMBNAIL_LIMITS, type Thumbnail } from '../../../src/protocol/thumbnails';
import type { FileVersion } from '../../../src/protocol/vaults';
import { type Blob, findBlob, listChunks } from '../vaultRows';
import type { VaultOpContext } from './OpContext';

const invalid = (message: string) => new ApiError('INVALID_OPERATION', message);

export async function checkThumbnailBlob(ctx: VaultOpContext, version: FileVersion): Promise<Blob | null> {
  const thumbnail: Thumbnail | undefined = version.thumbnail;
  if (!thumbnail) return null;
  const { trx, vault } = ctx;
  const max = THUMBNAIL_LIMITS.BYTES + (vault.isPublic ? 0 : THUMBNAIL_LIMITS.SEAL_OVERHEAD);
  if (thumbnail.storedSize > max) throw invalid('The thumbnail is larger than 64 KiB');
  if (thumbnail.blobId === version.blobId) throw invalid('The thumbnail must be an upload of its own');
  const blob = await findBlob(trx, thumbnail.blobId);
  if (!blob || blob.vaultId !== vault.id || blob.uploaderUserId !== ctx.userId) throw invalid('The upload of this thumbnail was not found');
  if (blob.status !== 'reserved') throw invalid('This thumbnail upload already belongs to a file');
  if (blob.chunkCount !== 1 || blob.storedSize !== thumbnail.storedSize) throw invalid('The thumbnail does not match its upload (size or chunk count)');
  const chunks = await listChunks(trx, blob.id);
  const [chunk] = chunks;
  if (chunks.length !== 1 || !chunk || chunk.index !== 0 || chunk.size !== thumbnail.storedSize || chunk.sha256 !== thumbnail.sha256) {
    throw invalid('The thumbnail upload is incomplete or does not match its signed hash');
  }
  return blob;
}

/** Ties the thumbnail's blob to the file and counts its bytes in the vault (freeBlobs takes them back). */
export async function commitThumbnail(ctx: VaultOpContext, blob: Blob | null, nodeId: string): Promise<void> {
  if (!blob) return;
  await ctx.trx.updateTable('blobs').set({ status: 'committed', node_id: nodeId }).where('id', '=', blob.id).execute();
  await ctx.trx
    .updateTable('vaults')
    .set((eb) => ({ size: eb('size', '+', blob.storedSize) }))
    .where('id', '=', ctx.vault.id)
    .execute();
}
