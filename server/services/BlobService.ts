/**
 * Uploads of file content: announce (reserve storage), PUT chunks idempotently, read them back.
 * A blob is committed by a file operation (ops/versionRules.ts), never here. The bytes go to the
 * BlobStore under a key naming the chunk's hash, so a stored key never changes content.
 */
import type { Readable } from 'node:stream';
import { ApiError } from '../../src/protocol/errors';
import { CHUNK_MAX_BYTES, CHUNK_SIZES, type ChunkBatchManifest } from '../../src/protocol/vaults';
import { type BlobStore, type ByteSource, chunkKey, type StagedBytes, TooManyBytesError } from '../blobs/BlobStore';
import { toDbBool } from '../db/dbBool';
import { isUniqueViolation } from '../db/isUniqueViolation';
import type { Clock } from './Clock';
import type { StorageService } from './StorageService';
import { assertVaultOpen, requireAccess } from './vaultAccess';
import { type Blob, type Db, findBlob, listChunks, toBlob } from './vaultRows';

/** One upload's announcement: its id, the bytes it will store and in how many chunks. */
export interface BlobAnnouncement {
  blobId: string;
  storedSize: number;
  chunkCount: number;
}

/** A reservation never committed by a file operation stops counting after this. */
export const RESERVATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const NOT_ENOUGH_STORAGE_MESSAGE =
  'This file exceeds the storage limit on your account. You can top up or upgrade your subscription plan to add more storage.';

/** An airdrop member's upload allowance (memberships.storage_allowance) is spent, or was 0. */
export const ALLOWANCE_EXCEEDED_MESSAGE = 'This file exceeds the storage this link allows.';
export const NO_UPLOADS_MESSAGE = 'This link does not allow uploads.';

export interface BlobStatus {
  blobId: string;
  storedChunks: number[];
  committed: boolean;
}

export class BlobService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly store: BlobStore,
    private readonly storage: StorageService,
  ) {}

  /**
   * Reserves `storedSize` against the vault owner's allowance (and, for an airdrop member, their
   * membership's upload allowance in this vault), or answers the existing upload.
   */
  async announce(userId: string, vaultId: string, request: BlobAnnouncement): Promise<BlobStatus> {
    const [status] = await this.announceMany(userId, vaultId, [request]);
    return status!;
  }

  /**
   * Announces several uploads of one vault in one transaction, each as `announce` would; they
   * must fit together, or none is reserved. Answers their statuses in the order asked.
   */
  async announceMany(userId: string, vaultId: string, requests: readonly BlobAnnouncement[]): Promise<BlobStatus[]> {
    const committed = await this.reserve(userId, vaultId, requests);
    const stored = await this.db
      .selectFrom('blob_chunks')
      .select(['blob_id', 'idx'])
      .where('blob_id', 'in', requests.map((r) => r.blobId))
      .orderBy('idx')
      .execute();
    const chunksOf = new Map<string, number[]>();
    for (const row of stored) chunksOf.set(row.blob_id, [...(chunksOf.get(row.blob_id) ?? []), Number(row.idx)]);
    return requests.map(({ blobId }) => ({ blobId, storedChunks: chunksOf.get(blobId) ?? [], committed: committed.has(blobId) }));
  }

  /** Reserves the uploads not reserved yet (each announced before must be the same, by this caller); answers those committed already. */
  private async reserve(userId: string, vaultId: string, requests: readonly BlobAnnouncement[]): Promise<Set<string>> {
    const { vault, membership } = await requireAccess(this.db, vaultId, userId, 'write', this.clock.now());
    assertVaultOpen(vault);
    // An airdrop member may upload nothing at all with an allowance of 0 (spec 001 section 5).
    if (membership.storageAllowance === 0) throw new ApiError('NOT_ENOUGH_STORAGE', NO_UPLOADS_MESSAGE);
    for (const { storedSize, chunkCount } of requests) {
      // Bounds for any chunk size a version may have (the smallest gives the most chunks).
      if (storedSize > chunkCount * CHUNK_MAX_BYTES || chunkCount > Math.max(1, Math.ceil(storedSize / Math.min(...CHUNK_SIZES)))) {
        throw new ApiError('VALIDATION_FAILED', 'The chunk count does not fit the stored size');
      }
    }
    await this.purgeExpired();
    const now = this.clock.now();
    // An airdrop member's reservation ends with their link at the latest (R68): after that no
    // file operation of theirs can commit it, so it must not hold the owner's storage for days.
    const expiresAt = Math.min(now + RESERVATION_TTL_MS, membership.expiresAt ?? Number.POSITIVE_INFINITY);
    try {
      return await this.db.transaction().execute(async (trx) => {
        // Serialises reservations charged to one account (PostgreSQL), so two cannot both fit.
        await trx.updateTable('users').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', vault.ownerUserId).execute();
        const existing = new Map(
          (await trx.selectFrom('blobs').selectAll().where('id', 'in', requests.map((r) => r.blobId)).execute()).map((row) => [row.id, toBlob(row)]),
        );
        const fresh = requests.filter(({ blobId }) => !existing.has(blobId));
        for (const { blobId, storedSize, chunkCount } of requests) {
          const blob = existing.get(blobId);
          if (blob) assertSameUpload(blob, vaultId, userId, storedSize, chunkCount);
        }
        const renewed = requests.filter(({ blobId }) => existing.get(blobId)?.status === 'reserved').map((r) => r.blobId);
        if (renewed.length) await trx.updateTable('blobs').set({ expires_at: expiresAt }).where('id', 'in', renewed).execute();
        const committed = new Set(requests.filter(({ blobId }) => existing.get(blobId)?.status === 'committed').map((r) => r.blobId));
        if (!fresh.length) return committed;
        const room = await this.storage.roomFor(vault, membership, trx);
        const wanted = fresh.reduce((sum, r) => sum + r.storedSize, 0);
        if (room.member !== null && wanted > room.member) throw new ApiError('NOT_ENOUGH_STORAGE', ALLOWANCE_EXCEEDED_MESSAGE);
        if (wanted > room.owner) throw new ApiError('NOT_ENOUGH_STORAGE', NOT_ENOUGH_STORAGE_MESSAGE);
        await trx
          .insertInto('blobs')
          .values(
            fresh.map(({ blobId, storedSize, chunkCount }) => ({
              id: blobId,
              vault_id: vaultId,
              uploader_user_id: userId,
              charged_user_id: vault.ownerUserId,
              is_cloud: toDbBool(vault.isCloud),
              stored_size: storedSize,
              chunk_count: chunkCount,
              status: 'reserved' as const,
              node_id: null,
              version_id: null,
              created_at: now,
              expires_at: expiresAt,
            })),
          )
          .execute();
        return committed;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('CONFLICT', 'This upload id is already used');
      throw error;
    }
  }

  /** Which chunks are stored, for resuming. Readers see committed blobs; a reservation only its uploader. */
  async status(userId: string, vaultId: string, blobId: string): Promise<BlobStatus> {
    const blob = await this.readableBlob(userId, vaultId, blobId);
    const chunks = await listChunks(this.db, blob.id);
    return { blobId: blob.id, storedChunks: chunks.map((c) => c.index), committed: blob.status === 'committed' };
  }

  /**
   * Stores chunk `index` of an upload from `body` as it arrives (never whole in memory), once the
   * caller may write it: its hash must be `sha256Header`. Idempotent for the same bytes.
   */
  async putChunk(userId: string, vaultId: string, blobId: string, index: number, body: ByteSource, sha256Header: string): Promise<void> {
    const imported = await findBlob(this.db, blobId);
    if (imported?.vaultId === vaultId && imported.status === 'committed' && imported.importHashes) {
      return this.putImportedChunk(userId, imported, imported.importHashes, index, body, sha256Header);
    }
    const { vault } = await requireAccess(this.db, vaultId, userId, 'write', this.clock.now());
    assertVaultOpen(vault);
    const blob = await findBlob(this.db, blobId);
    if (!blob || blob.vaultId !== vaultId || blob.uploaderUserId !== userId) throw new ApiError('NOT_FOUND', 'Upload not found');
    if (index >= blob.chunkCount) throw new ApiError('UNPROCESSABLE', 'The chunk index is beyond the announced chunk count');

    // Bytes first, row second: a crash between leaves an orphan file, never a row without bytes.
    // The key names the hash the uploader claims; bytes with another hash are never kept under it.
    const key = chunkKey(blobId, index, sha256Header);
    const staged = await this.stage(key, body);
    let keep = false;
    try {
      if (staged.sha256 !== sha256Header) throw new ApiError('UNPROCESSABLE', 'The chunk does not match its x-chunk-sha256');
      const chunks = await listChunks(this.db, blobId);
      const stored = chunks.find((c) => c.index === index);
      if (stored) return assertSameChunk(stored.sha256, staged.sha256);
      if (blob.status === 'committed') throw new ApiError('CONFLICT', 'The upload is already complete');
      // The announced size is what was reserved: chunks never add up to more.
      if (chunks.reduce((sum, c) => sum + c.size, 0) + staged.size > blob.storedSize) {
        throw new ApiError('UNPROCESSABLE', 'The chunks exceed the announced stored size');
      }
      keep = true;
    } finally {
      // A refused chunk, or one stored already, leaves nothing behind.
      if (!keep) await staged.discard();
    }
    await staged.commit();
    try {
      await this.db.insertInto('blob_chunks').values({ blob_id: blobId, idx: index, size: staged.size, sha256: staged.sha256 }).execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // A concurrent PUT of the same index won. Same bytes: fine. Other bytes: drop ours, 409.
      const winner = (await listChunks(this.db, blobId)).find((c) => c.index === index);
      if (winner?.sha256 !== staged.sha256) await this.store.delete(key);
      if (winner) return assertSameChunk(winner.sha256, staged.sha256);
      throw error;
    }
  }

  /**
   * Several small chunks of the vault's uploads from one body (POST /vaults/{id}/blobs/chunks):
   * each is checked and kept as its own PUT would be, in order; the first refused refuses the
   * request, and those kept before it stay (the same bytes again are accepted).
   */
  async putChunks(userId: string, vaultId: string, manifest: ChunkBatchManifest, bytes: Uint8Array): Promise<void> {
    let offset = 0;
    for (const { blobId, index, size, sha256 } of manifest.chunks) {
      await this.putChunk(userId, vaultId, blobId, index, [bytes.subarray(offset, offset + size)], sha256);
      offset += size;
    }
  }

  /**
   * A chunk of an imported version (SYNC_SPEC R93): its operation is applied already and signed
   * the chunk's SHA-256, so any member who may read the vault may upload exactly those bytes
   * (the restoring device does), whatever the vault's state; other bytes are never kept.
   */
  private async putImportedChunk(userId: string, blob: Blob, hashes: string[], index: number, body: ByteSource, sha256Header: string): Promise<void> {
    await requireAccess(this.db, blob.vaultId, userId, 'content', this.clock.now());
    if (index >= blob.chunkCount) throw new ApiError('UNPROCESSABLE', 'The chunk index is beyond the version\'s chunk count');
    if (hashes[index] !== sha256Header) throw new ApiError('UNPROCESSABLE', 'The chunk is not the one its version signed');
    const key = chunkKey(blob.id, index, sha256Header);
    const staged = await this.stage(key, body);
    let keep = false;
    try {
      if (staged.sha256 !== sha256Header) throw new ApiError('UNPROCESSABLE', 'The chunk does not match its x-chunk-sha256');
      if ((await listChunks(this.db, blob.id)).some((c) => c.index === index)) return;
      keep = true;
    } finally {
      if (!keep) await staged.discard();
    }
    await staged.commit();
    try {
      await this.db.insertInto('blob_chunks').values({ blob_id: blob.id, idx: index, size: staged.size, sha256: staged.sha256 }).execute();
    } catch (error) {
      // A concurrent PUT of the same chunk won: the same signed bytes, so ours are the same file.
      if (!isUniqueViolation(error)) throw error;
    }
  }

  private async stage(key: string, body: ByteSource): Promise<StagedBytes> {
    try {
      return await this.store.stage(key, body, CHUNK_MAX_BYTES);
    } catch (error) {
      if (error instanceof TooManyBytesError) throw new ApiError('PAYLOAD_TOO_LARGE', 'The chunk is too large');
      throw error;
    }
  }

  /**
   * Cancels an upload: deletes its reservation and its chunk files, so the space counts no more.
   * Idempotent (an upload already released or expired answers the same); only its uploader may,
   * and a committed upload is a file version now (CONFLICT: delete the file instead).
   */
  async release(userId: string, vaultId: string, blobId: string): Promise<void> {
    await requireAccess(this.db, vaultId, userId, 'read', this.clock.now());
    const blob = await findBlob(this.db, blobId);
    if (!blob) return;
    if (blob.vaultId !== vaultId || blob.uploaderUserId !== userId) throw new ApiError('NOT_FOUND', 'Upload not found');
    if (blob.status === 'committed') throw new ApiError('CONFLICT', 'The upload is already complete');
    const chunks = await listChunks(this.db, blobId);
    // The status condition keeps a blob committed meanwhile; its chunk rows go by cascade.
    const deleted = await this.db.deleteFrom('blobs').where('id', '=', blobId).where('status', '=', 'reserved').executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) {
      if ((await findBlob(this.db, blobId))?.status === 'committed') throw new ApiError('CONFLICT', 'The upload is already complete');
      return;
    }
    for (const chunk of chunks) await this.store.delete(chunkKey(blobId, chunk.index, chunk.sha256));
  }

  /** The stored bytes of one chunk. */
  async readChunk(userId: string, vaultId: string, blobId: string, index: number): Promise<{ stream: Readable; size: number }> {
    const blob = await this.readableBlob(userId, vaultId, blobId);
    const chunk = (await listChunks(this.db, blob.id)).find((c) => c.index === index);
    const stream = chunk ? await this.store.get(chunkKey(blob.id, index, chunk.sha256)) : null;
    if (!chunk || !stream) throw new ApiError('NOT_FOUND', 'Chunk not found');
    return { stream, size: chunk.size };
  }

  /** Deletes reservations past their expiry with their chunk files. */
  async purgeExpired(): Promise<void> {
    const now = this.clock.now();
    const expired = await this.db.selectFrom('blobs').select('id').where('status', '=', 'reserved').where('expires_at', '<=', now).limit(100).execute();
    for (const { id } of expired) {
      const chunks = await listChunks(this.db, id);
      // The status condition keeps a blob committed meanwhile; its chunk rows go by cascade.
      const deleted = await this.db
        .deleteFrom('blobs')
        .where('id', '=', id)
        .where('status', '=', 'reserved')
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) continue;
      for (const chunk of chunks) await this.store.delete(chunkKey(id, chunk.index, chunk.sha256));
    }
  }

  private async readableBlob(userId: string, vaultId: string, blobId: string): Promise<Blob> {
    await requireAccess(this.db, vaultId, userId, 'content', this.clock.now());
    const blob = await findBlob(this.db, blobId);
    if (!blob || blob.vaultId !== vaultId || (blob.status !== 'committed' && blob.uploaderUserId !== userId)) {
      throw new ApiError('NOT_FOUND', 'Upload not found');
    }
    return blob;
  }
}

function assertSameUpload(blob: Blob, vaultId: string, userId: string, storedSize: number, chunkCount: number): void {
  if (blob.vaultId !== vaultId || blob.uploaderUserId !== userId || blob.storedSize !== storedSize || blob.chunkCount !== chunkCount) {
    throw new ApiError('CONFLICT', 'This upload id is already used');
  }
}

function assertSameChunk(storedSha256: string, sha256: string): void {
  if (storedSha256 !== sha256) throw new ApiError('CONFLICT', 'Different bytes are already stored for this chunk');
}
