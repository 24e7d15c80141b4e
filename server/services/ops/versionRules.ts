/**
 * A file version may be added only when its bytes are fully on the server and match what the
 * author signed: the blob was announced in this vault by the same user, every chunk is stored,
 * and the stored chunks' SHA-256s equal `version.chunkHashes` in order.
 */
import { ApiError } from '../../../src/protocol/errors';
import type { Insertable } from 'kysely';
import { CHUNK_TAG_BYTES, type FileVersion } from '../../../src/protocol/vaults';
import type { StorageTransactionsTable } from '../../db/Database';
import { type Blob, findBlob, listChunks } from '../vaultRows';
import type { VaultOpContext } from './OpContext';
import { scheduleStorage } from './storageSchedule';

export async function checkVersionBlob(ctx: VaultOpContext, version: FileVersion): Promise<Blob> {
  const { trx, vault } = ctx;
  if (ctx.importing) return importedVersionBlob(ctx, version);
  const blob = await findBlob(trx, version.blobId);
  if (!blob || blob.vaultId !== vault.id || blob.uploaderUserId !== ctx.userId) {
    throw new ApiError('INVALID_OPERATION', 'The upload of this version was not found');
  }
  if (blob.status !== 'reserved') throw new ApiError('INVALID_OPERATION', 'This upload already belongs to a file version');
  const expectedChunks = Math.max(1, Math.ceil(version.size / version.chunkSize));
  const expectedStored = version.size + (vault.isPublic ? 0 : CHUNK_TAG_BYTES * expectedChunks);
  if (
    version.chunkCount !== expectedChunks ||
    version.chunkHashes.length !== version.chunkCount ||
    version.storedSize !== expectedStored ||
    blob.chunkCount !== version.chunkCount ||
    blob.storedSize !== version.storedSize
  ) {
    throw new ApiError('INVALID_OPERATION', 'The version does not match its upload (sizes or chunk count)');
  }
  const chunks = await listChunks(trx, blob.id);
  const complete =
    chunks.length === version.chunkCount &&
    chunks.every((chunk, i) => chunk.index === i && chunk.sha256 === version.chunkHashes[i]) &&
    chunks.reduce((sum, chunk) => sum + chunk.size, 0) === version.storedSize;
  if (!complete) throw new ApiError('INVALID_OPERATION', 'The upload is incomplete or does not match the signed chunk hashes');
  const reused = await trx.selectFrom('blobs').select('id').where('version_id', '=', version.versionId).executeTakeFirst();
  if (reused) throw new ApiError('INVALID_OPERATION', 'The version id is already used');
  return blob;
}

/**
 * An imported version (SYNC_SPEC R93): its bytes are uploaded after its operation, so the blob is
 * made here from what the author signed, its chunk hashes kept for the uploads to match. The same
 * shape checks as a live upload's apply; the blob and version ids must be new on this server.
 */
async function importedVersionBlob(ctx: VaultOpContext, version: FileVersion): Promise<Blob> {
  const { trx, vault, now } = ctx;
  const expectedChunks = Math.max(1, Math.ceil(version.size / version.chunkSize));
  const expectedStored = version.size + (vault.isPublic ? 0 : CHUNK_TAG_BYTES * expectedChunks);
  if (version.chunkCount !== expectedChunks || version.chunkHashes.length !== version.chunkCount || version.storedSize !== expectedStored) {
    throw new ApiError('INVALID_OPERATION', 'The version does not match its upload (sizes or chunk count)');
  }
  if (await findBlob(trx, version.blobId)) throw new ApiError('INVALID_OPERATION', 'This upload already belongs to a file version');
  const reused = await trx.selectFrom('blobs').select('id').where('version_id', '=', version.versionId).executeTakeFirst();
  if (reused) throw new ApiError('INVALID_OPERATION', 'The version id is already used');
  await trx
    .insertInto('blobs')
    .values({
      id: version.blobId,
      vault_id: vault.id,
      uploader_user_id: ctx.userId,
      charged_user_id: vault.ownerUserId,
      is_cloud: vault.isCloud ? 1 : 0,
      stored_size: version.storedSize,
      chunk_count: version.chunkCount,
      status: 'reserved',
      node_id: null,
      version_id: null,
      created_at: now,
      expires_at: now,
      import_hashes: JSON.stringify(version.chunkHashes),
    })
    .execute();
  const blob = await findBlob(trx, version.blobId);
  if (!blob) throw new Error('Imported blob vanished after insert');
  return blob;
}

/**
 * Marks the blob as the node's version and counts its bytes in the vault and the file; in a
 * permanent vault, also schedules the version for Arweave (SYNC_SPEC R34). An NFT's or a
 * collection's version (R137) has no node: `nodeId` is the NFT or collection id, which no node
 * has, and `row` the storage row's own columns (scheduleStorage). Answers the row's id, if any.
 */
export async function commitVersion(
  ctx: VaultOpContext,
  blob: Blob,
  nodeId: string,
  version: FileVersion,
  row?: Partial<Insertable<StorageTransactionsTable>>,
): Promise<string | null> {
  const { trx, now } = ctx;
  const versionId = version.versionId;
  await trx.updateTable('blobs').set({ status: 'committed', node_id: nodeId, version_id: versionId }).where('id', '=', blob.id).execute();
  await trx
    .updateTable('nodes')
    .set((eb) => ({
      size: eb('size', '+', blob.storedSize),
      version_count: eb('version_count', '+', 1),
      latest_version_id: versionId,
      updated_at: now,
    }))
    .where('id', '=', nodeId)
    .execute();
  await trx
    .updateTable('vaults')
    .set((eb) => ({ size: eb('size', '+', blob.storedSize) }))
    .where('id', '=', ctx.vault.id)
    .execute();
  // An imported version is on the network already (its file-version item, R85): never posted again.
  return ctx.importing ? null : scheduleStorage(ctx, blob, nodeId, version, row);
}
