/**
 * The persistent upload queue (DESIGN.md section 4, spec 000 section 4 "Upload flow"). Each
 * UploadRecord keeps the File itself (IndexedDB stores Blobs), its ids and, once made, its file
 * key sealed under the vault key, so after a reload the upload reopens the key and sends only
 * the chunks the server lacks. One file at a time, up to UPLOAD_CONCURRENCY chunks in flight
 * through the transfer pool; memory stays at a few chunks whatever the file size.
 *
 * queued -> uploading -> finalising -> done, or failed / cancelled. `done` means the file
 * operation is in the outbox (it may still be pending there: the outbox shows that).
 */
import { ApiError } from '../protocol/errors';
import {
  BlobStatusResponse,
  CHUNK_SIZE,
  CHUNK_TAG_BYTES,
  type Field,
  type FileVersion,
} from '../protocol/vaults';
import type { UploadRecord, UploadState } from '../storage/vaultRecords';
import { enqueueOperation } from './outbox';
import { chunkPath, type SyncContext } from './SyncContext';
import { ensureVaultKeys } from './pull';

/** Chunks in flight per upload: enough to keep 2-4 transfer workers busy without hoarding memory. */
export const UPLOAD_CONCURRENCY = 4;

/** Spec 000 section 8, NOT_ENOUGH_STORAGE. */
export const NOT_ENOUGH_STORAGE_MESSAGE =
  'This file exceeds the storage limit on your account. You can top up or upgrade your subscription plan to add more storage.';
/** Spec 000 section 8: 'Failed uploading the file' is thrown on upload failure. */
export const UPLOAD_FAILED_MESSAGE = 'Failed uploading the file';

export const API_BASE = '/api';

/** A failure that will not go away by retrying (as opposed to being offline). */
class PermanentUploadError extends Error {}

export function chunkCountOf(size: number): number {
  return Math.max(1, Math.ceil(size / CHUNK_SIZE));
}

export function storedSizeOf(size: number, chunkCount: number, isPrivate: boolean): number {
  return isPrivate ? size + chunkCount * CHUNK_TAG_BYTES : size;
}

function statusOfTransferError(error: unknown): number | null {
  const match = error instanceof Error ? /^UPLOAD_FAILED: (\d{3})/.exec(error.message) : null;
  return match ? Number(match[1]) : null;
}

export class UploadQueue {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly ctx: SyncContext) {}

  /** Looks for queued or interrupted uploads and works through them. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
    });
  }

  get isBusy(): boolean {
    return this.running !== null;
  }

  /** Resolves when the queue has nothing left it can do now (tests, and stop()). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      const { db, accountId } = this.ctx;
      const records = await db.uploads.where('accountId').equals(accountId).sortBy('createdAt');
      for (const record of records) {
        if (this.stopped) return;
        if (!['queued', 'encrypting', 'uploading', 'finalising'].includes(record.state)) continue;
        try {
          await this.process(record.uploadId);
          this.failures = 0;
        } catch (error) {
          // Offline or a server hiccup: keep the record as it is and try again later.
          this.failures += 1;
          this.ctx.log(`Upload ${record.uploadId} interrupted; retrying`, error);
          const delay = Math.min(60_000, 1_000 * 2 ** Math.min(this.failures, 6)) * (0.5 + Math.random() / 2);
          if (this.retryTimer) clearTimeout(this.retryTimer);
          this.retryTimer = setTimeout(() => this.kick(), delay);
          return;
        }
      }
    } while (this.again && !this.stopped);
  }

  private async read(uploadId: string): Promise<UploadRecord | undefined> {
    return this.ctx.db.uploads.get([this.ctx.accountId, uploadId]);
  }

  /** Updates fields unless the user cancelled meanwhile (a cancel always wins). */
  private async update(uploadId: string, change: (record: UploadRecord) => void): Promise<UploadRecord | undefined> {
    const { db, accountId } = this.ctx;
    return db.transaction('rw', [db.uploads], async () => {
      const record = await db.uploads.get([accountId, uploadId]);
      if (!record || record.state === 'cancelled') return record;
      change(record);
      await db.uploads.put(record);
      return record;
    });
  }

  private async setState(uploadId: string, state: UploadState, error: string | null = null): Promise<void> {
    await this.update(uploadId, (r) => {
      r.state = state;
      r.error = error;
    });
    // A finished upload's copy of the file is no longer needed (failed and cancelled ones keep
    // theirs for Retry; log out wipes them all).
    if (state === 'done') {
      pickedFiles.delete(uploadId);
      await this.ctx.db.uploadFiles.delete([this.ctx.accountId, uploadId]);
    }
  }

  private async process(uploadId: string): Promise<void> {
    const ctx = this.ctx;
    let record = await this.read(uploadId);
    if (!record || record.state === 'cancelled') return;
    try {
      const vault = await ctx.db.vaults.get([ctx.accountId, record.vaultId]);
      if (!vault) throw new PermanentUploadError('Missing vault id.');
      const isPrivate = !vault.isPublic;
      if (!ctx.transfer) throw new Error('The transfer pool is not available yet');

      // A crash after the file operation was queued but before 'done' was written: just finish.
      const queuedOp = await ctx.db.outbox.where('[accountId+vaultId]').equals([ctx.accountId, record.vaultId]).filter((o) => o.waitsForUploadId === uploadId).first();
      if (queuedOp) {
        await this.setState(uploadId, 'done');
        ctx.requestPush();
        return;
      }

      await this.setState(uploadId, 'uploading');
      let rawKey: ArrayBuffer | null = null;
      if (isPrivate) {
        await ensureVaultKeys(ctx, record.vaultId);
        if (record.sealedFileKey) {
          rawKey = await ctx.crypto.openFileKey(record.vaultId, record.versionId, record.sealedFileKey);
        } else {
          const created = await ctx.crypto.createFileKey(record.vaultId, record.versionId);
          rawKey = created.rawKey;
          record = await this.update(uploadId, (r) => {
            r.sealedFileKey = created.sealed;
          });
          if (!record || record.state === 'cancelled') return;
        }
      }

      const storedSize = storedSizeOf(record.size, record.chunkCount, isPrivate);
      let status: { storedChunks: number[] };
      try {
        status = await ctx.api.post(
          `/vaults/${encodeURIComponent(record.vaultId)}/blobs`,
          { blobId: record.blobId, storedSize, chunkCount: record.chunkCount },
          BlobStatusResponse,
        );
      } catch (error) {
        if (error instanceof ApiError && error.code === 'NOT_ENOUGH_STORAGE') throw new PermanentUploadError(NOT_ENOUGH_STORAGE_MESSAGE);
        if (error instanceof ApiError && error.status < 500 && error.status !== 429 && error.status !== 401) {
          throw new PermanentUploadError(error.message || UPLOAD_FAILED_MESSAGE);
        }
        throw error;
      }

      const stored = new Set(status.storedChunks);
      const missing: number[] = [];
      for (let i = 0; i < record.chunkCount; i++) if (!(stored.has(i) && record.chunkHashes[i])) missing.push(i);
      // What the server holds counts as sent, so progress survives a reload.
      const plainSize = (i: number) => Math.min(CHUNK_SIZE, record!.size - i * CHUNK_SIZE);
      const alreadySent = [...Array(record.chunkCount).keys()].filter((i) => !missing.includes(i)).reduce((n, i) => n + Math.max(0, plainSize(i)), 0);
      await this.update(uploadId, (r) => {
        r.sentBytes = alreadySent;
      });

      const header = { size: record.size, chunkSize: CHUNK_SIZE, chunkCount: record.chunkCount };
      const file = pickedFiles.get(uploadId) ?? (await ctx.db.uploadFiles.get([ctx.accountId, uploadId]))?.file;
      if (!file) throw new PermanentUploadError(UPLOAD_FAILED_MESSAGE);
      let cancelled = false;
      let failed = false;
      const next = [...missing];
      const worker = async () => {
        for (let index = next.shift(); index !== undefined && !cancelled && !failed; index = next.shift()) {
          const result = await ctx.transfer!.uploadChunk({
            file,
            index,
            header,
            // A copy per call: the pool may transfer (detach) the buffer it is given.
            rawKey: rawKey ? rawKey.slice(0) : null,
            url: API_BASE + chunkPath(record!.vaultId, record!.blobId, index),
          });
          const after = await this.update(uploadId, (r) => {
            r.chunkHashes[index] = result.sha256;
            r.sentBytes += Math.max(0, plainSize(index));
          });
          if (!after || after.state === 'cancelled') cancelled = true;
        }
      };
      // Wait for every chunk in flight before deciding, so no late write races a retry.
      const settled = await Promise.allSettled(
        Array.from({ length: Math.min(UPLOAD_CONCURRENCY, missing.length) }, () =>
          worker().catch((error: unknown) => {
            failed = true;
            throw error;
          }),
        ),
      );
      const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failure) {
        const error: unknown = failure.reason;
        const code = statusOfTransferError(error);
        if (code !== null && code < 500 && code !== 429 && code !== 401) throw new PermanentUploadError(UPLOAD_FAILED_MESSAGE);
        throw error;
      }
      record = await this.read(uploadId);
      if (!record || record.state === 'cancelled') return;

      await this.setState(uploadId, 'finalising');
      const hashes = record.chunkHashes;
      if (hashes.length !== record.chunkCount || hashes.some((h) => !h)) throw new Error('Chunk receipts are missing');
      const mimeText = record.fileType || 'application/octet-stream';
      let mimeType: Field = { clear: mimeText };
      let name: Field = { clear: record.name };
      if (isPrivate) {
        mimeType = (await ctx.crypto.sealFields(record.vaultId, record.versionId, { mimeType: mimeText })).mimeType!;
        name = (await ctx.crypto.sealFields(record.vaultId, record.fileId, { name: record.name })).name!;
      }
      const version: FileVersion = {
        versionId: record.versionId,
        blobId: record.blobId,
        size: record.size,
        storedSize,
        chunkSize: CHUNK_SIZE,
        chunkCount: record.chunkCount,
        chunkHashes: hashes as string[],
        ...(isPrivate && record.sealedFileKey ? { fileKey: record.sealedFileKey } : {}),
        mimeType,
        lastModified: record.lastModified,
      };
      await enqueueOperation(ctx, {
        vaultId: record.vaultId,
        objectId: record.fileId,
        body: record.isNewFile
          ? { type: 'file.create', parentId: record.parentId, name, version }
          : { type: 'file.addVersion', version },
        fields: record.isNewFile ? { name: record.name, mimeType: mimeText } : { mimeType: mimeText },
        waitsForUploadId: uploadId,
      });
      await this.setState(uploadId, 'done');
      ctx.requestPush();
    } catch (error) {
      if (error instanceof PermanentUploadError) {
        await this.setState(uploadId, 'failed', error.message);
        return;
      }
      throw error;
    }
  }
}

/**
 * The files picked in this page session, by upload id. Chunks are read from the picked File
 * itself (on disk, fast); the copy in IndexedDB is only read to resume after a reload or a crash,
 * because slices of an IndexedDB-backed Blob read far slower in Chromium.
 */
const pickedFiles = new Map<string, Blob>();

/** Forgets the picked files, as a page reload does (tests of resumption use it). */
export function forgetPickedFiles(): void {
  pickedFiles.clear();
}

/** What uploadFiles needs to queue one file. */
export interface NewUpload {
  vaultId: string;
  parentId: string | null;
  file: Blob & { lastModified?: number };
  name: string;
  /** Set to add a version to this existing file. */
  replaceFileId?: string;
  batchId: string;
}

/** Stores a queued UploadRecord (ids made once, here) and answers it. */
export async function queueUpload(ctx: SyncContext, input: NewUpload): Promise<UploadRecord> {
  const size = input.file.size;
  const record: UploadRecord = {
    accountId: ctx.accountId,
    uploadId: ctx.newId(),
    vaultId: input.vaultId,
    fileId: input.replaceFileId ?? ctx.newId(),
    isNewFile: !input.replaceFileId,
    parentId: input.parentId,
    name: input.name,
    versionId: ctx.newId(),
    blobId: ctx.newId(),
    sealedFileKey: null,
    fileType: input.file.type,
    size,
    lastModified: Math.max(0, Math.floor(input.file.lastModified ?? ctx.now())),
    chunkCount: chunkCountOf(size),
    chunkHashes: Array.from({ length: chunkCountOf(size) }, () => null),
    sentBytes: 0,
    state: 'queued',
    error: null,
    createdAt: ctx.now(),
    batchId: input.batchId,
  };
  await ctx.db.transaction('rw', [ctx.db.uploads, ctx.db.uploadFiles], async () => {
    await ctx.db.uploads.add(record);
    await ctx.db.uploadFiles.add({ accountId: ctx.accountId, uploadId: record.uploadId, file: input.file });
  });
  pickedFiles.set(record.uploadId, input.file);
  return record;
}
