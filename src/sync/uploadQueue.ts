/**
 * The persistent upload queue (DESIGN.md sections 3 and 4, spec 000 section 4 "Upload flow").
 * Each UploadRecord keeps its ids, its file key sealed under the vault key and the hashes of
 * every chunk it sealed; the picked file is kept beside it (uploadSource.ts). One file at a time.
 *
 * States (UploadState): queued -> uploading -> finalising -> done. An interruption (reload,
 * crash, lost network, server down) leaves the record as it was: the queue marks it paused and
 * tries again with backoff and jitter, at once when the browser is back online. Going on, it is
 * resuming while it checks the source is unchanged and asks the server which chunks it holds,
 * then uploading from the first chunk the server lacks. `done` means the file operation is in the
 * outbox (it may still be pending there: the outbox shows that). A cancelled upload's
 * reservation is released on the server as soon as it can be reached.
 *
 * At most one chunk per file is on the wire at a time, so an interruption costs at most one chunk
 * sent again; the transfer workers seal the next chunks meanwhile.
 */
import { ACTIVE_UPLOAD_STATES } from '../domain/uploadRules';
import { ApiError } from '../protocol/errors';
import { Ok } from '../protocol/primitives';
import { isBrowserOffline, onNetworkChange } from '../platform/networkStatus';
import { chunkCount, plainChunkSize, storedFileSize } from '../crypto/fileChunks';
import { BlobStatusResponse, CHUNK_SIZE } from '../protocol/vaults';
import type { UploadRecord, UploadState } from '../storage/vaultRecords';
import type { SealedChunk } from '../../workers/transfer/TransferApi';
import { enqueueUploadedFile, uploadedFileVersion } from './enqueueUploadedFile';
import { isRetryableStatus, statusOfTransferError } from './uploadErrors';
import { formGroups, GROUPS_AT_ONCE, isGroupable, sendGroup, SMALL_FILE_BYTES } from './uploadGroups';
import { uploadThumbnail } from './uploadThumbnail';
import type { Thumbnail } from '../protocol/thumbnails';
import { ensureVaultKeys } from './pull';
import { chunkPath, type SyncContext, type TransferPort } from './SyncContext';
import {
  checkSourceUnchanged,
  copiesWritten,
  forgetPickedFile,
  lastModifiedOf,
  openUploadSource,
  rememberPickedFile,
  SourceChangedError,
  sourceChangedMessage,
  sourceUnreadableMessage,
  trackCopies,
  uploadHeader,
  type UploadSource,
} from './uploadSource';

export { forgetPickedFiles, sourceChangedMessage, sourceUnreadableMessage } from './uploadSource';
export { SMALL_FILE_BYTES } from './uploadGroups';

/**
 * Chunks sealed ahead: the workers encrypt and hash while the single PUT travels, so sending never
 * waits for encryption. With the chunk on the wire and the next one (its hashes being recorded),
 * at most SEAL_AHEAD + 2 sealed chunks of a file wait at once, each in the spool (chunkSpool.ts).
 */
export const SEAL_AHEAD = 2;
/** Files sent at once, each one chunk at a time. */
export const FILES_AT_ONCE = 3;
/**
 * Small files sent at once besides them. A file of a few kilobytes costs round trips and record
 * writes, not bytes: three at a time sent a pick of 300 files of 10 kB in about 29 s here, twelve
 * in 20 to 25 s (with fewer reads and renders per file, as each read finds more of them done).
 */
export const SMALL_FILES_AT_ONCE = 12;
/** Longest wait between retries of an interrupted upload. */
export const MAX_RETRY_DELAY_MS = 30_000;

/** Spec 000 section 8, NOT_ENOUGH_STORAGE. */
export const NOT_ENOUGH_STORAGE_MESSAGE =
  'This file exceeds the storage limit on your account. You can top up or upgrade your subscription plan to add more storage.';
/** Spec 000 section 8: 'Failed uploading the file' is thrown on upload failure. */
export const UPLOAD_FAILED_MESSAGE = 'Failed uploading the file';

export const API_BASE = '/api';

/** States with a request possibly in flight: the ones an 'offline' event pauses at once. */
const SENDING_STATES: ReadonlySet<UploadState> = new Set(['encrypting', 'uploading', 'resuming']);

/** A failure that will not go away by retrying (as opposed to being offline). */
class PermanentUploadError extends Error {}
/** The user cancelled, or another run finished the upload: stop quietly. */
class UploadCancelled extends Error {}
/** The upload was paused under us (the browser went offline): stop, and retry when online. */
class UploadPaused extends Error {}
/** The picked file of this page session cannot be read any more: go on from the kept copy. */
class PickedFileUnreadable extends Error {}

/**
 * Wait before retry number `failures` (1, 2, ...): doubling from about a second up to
 * MAX_RETRY_DELAY_MS, with jitter so many tabs do not come back at the same instant.
 */
export function retryDelayMs(failures: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_DELAY_MS, 1_000 * 2 ** Math.max(0, Math.min(failures - 1, 10)));
  return base * (0.5 + random() / 2);
}

function isSourceFailure(error: unknown): boolean {
  return error instanceof Error && (error.message === 'FILE_UNREADABLE' || error.message === 'FILE_CHANGED');
}

/**
 * Runs `work` holding the account's upload lock (Web Locks), so two open tabs never send the same
 * upload at once; the other tab's queue waits its turn, then finds the work done. Where the API
 * is missing (Node), `update` still keeps a finished upload finished.
 */
function withUploadLock(accountId: string, work: () => Promise<void>): Promise<void> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? locks.request(`cairn-uploads:${accountId}`, work) : work();
}

export class UploadQueue {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly unlisten: () => void;

  constructor(private readonly ctx: SyncContext) {
    this.unlisten = onNetworkChange(
      () => {
        this.failures = 0;
        this.kick();
      },
      () => void this.pauseSending().catch((error: unknown) => this.ctx.log('Could not mark uploads paused', error)),
    );
  }

  /** Looks for queued, interrupted and cancelled uploads and works through them now. */
  kick(): void {
    if (this.stopped) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = withUploadLock(this.ctx.accountId, () => this.drain())
      .catch((error: unknown) => this.ctx.log('The upload queue stopped', error))
      .finally(() => {
        this.running = null;
      });
  }

  get isBusy(): boolean {
    return this.running !== null;
  }

  /** Resolves when the queue has nothing left it can do now, copies of picked files included (tests, and stop()). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
    await copiesWritten();
  }

  stop(): void {
    this.stopped = true;
    this.unlisten();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private retryLater(): void {
    if (this.stopped) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    // Kicked while this run was failing (back online after a blip, a new upload): try once more now.
    const delay = this.again && !isBrowserOffline() ? 0 : retryDelayMs(this.failures);
    this.again = false;
    this.retryTimer = setTimeout(() => this.kick(), delay);
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      // Under the upload lock, with nothing sending: sealed chunks still spooled are leftovers.
      await this.ctx.transfer?.clearSpool?.(this.ctx.accountId).catch((error: unknown) => this.ctx.log('Could not clear the chunk spool', error));
      await this.releaseCancelled();
      const { db, accountId } = this.ctx;
      const records = await db.uploads.where('accountId').equals(accountId).sortBy('createdAt');
      const active = records.filter((record) => ACTIVE_UPLOAD_STATES.has(record.state));
      // A few files at once, each with one chunk in flight (so an interruption still costs at
      // most one chunk per file), and more small ones beside them: a batch of small files is not
      // sent one round trip at a time.
      let interrupted = false;
      /** `count` senders working through `queue` in order, each item with `send`; an item that fails pauses its uploads. */
      const senders = <T>(queue: readonly T[], count: number, uploadsOf: (item: T) => readonly UploadRecord[], send: (item: T) => Promise<void>) => {
        let next = 0;
        const sender = async () => {
          while (!interrupted && !this.stopped && next < queue.length) {
            const item = queue[next++]!;
            if (isBrowserOffline()) {
              // Nothing can get through: wait for the 'online' event (the timer is a fallback).
              interrupted = true;
              for (const record of uploadsOf(item)) await this.markPaused(record.uploadId);
              return;
            }
            try {
              await send(item);
            } catch (error) {
              // Offline, the server down or a hiccup: keep the records as they are and try again later.
              interrupted = true;
              this.ctx.log(`Upload ${uploadsOf(item)[0]?.uploadId} interrupted; retrying`, error);
              for (const record of uploadsOf(item)) await this.markPaused(record.uploadId);
            }
          }
        };
        return Array.from({ length: Math.min(count, queue.length) }, sender);
      };
      const one = (record: UploadRecord) => [record];
      const sendOne = (record: UploadRecord) => this.process(record.uploadId);
      const isSmall = (record: UploadRecord) => record.size <= SMALL_FILE_BYTES;
      // Fresh small files go a group at a time (uploadGroups.ts); what a group leaves goes on alone.
      const grouped = this.ctx.transfer?.putChunks ? active.filter(isGroupable) : [];
      const inGroup = new Set(grouped);
      const sendInGroup = async (group: UploadRecord[]) => {
        for (const uploadId of await sendGroup(this.ctx, group)) await this.process(uploadId);
      };
      await Promise.all([
        ...senders(active.filter((record) => !isSmall(record)), FILES_AT_ONCE, one, sendOne),
        ...senders(active.filter((record) => isSmall(record) && !inGroup.has(record)), SMALL_FILES_AT_ONCE, one, sendOne),
        ...senders(formGroups(grouped), GROUPS_AT_ONCE, (group) => group, sendInGroup),
      ]);
      if (this.stopped) return;
      if (interrupted) {
        this.failures += 1;
        this.retryLater();
        return;
      }
      if (active.length) this.failures = 0;
    } while (this.again && !this.stopped);
  }

  private async read(uploadId: string): Promise<UploadRecord | undefined> {
    return this.ctx.db.uploads.get([this.ctx.accountId, uploadId]);
  }

  /**
   * Updates fields unless the upload is over: a cancel always wins, and a finished upload (its
   * file operation queued) stays finished, whatever a slower run over the same record (another
   * tab, a page going away) concludes after it.
   */
  private async update(uploadId: string, change: (record: UploadRecord) => void): Promise<UploadRecord | undefined> {
    const { db, accountId } = this.ctx;
    return db.transaction('rw', [db.uploads], async () => {
      const record = await db.uploads.get([accountId, uploadId]);
      if (!record || record.state === 'cancelled' || record.state === 'done') return record;
      change(record);
      await db.uploads.put(record);
      return record;
    });
  }

  /** The record after an update, if the upload is to go on; throws when cancelled or paused. */
  private static goingOn(record: UploadRecord | undefined): UploadRecord {
    if (!record || record.state === 'cancelled' || record.state === 'done') throw new UploadCancelled();
    if (record.state === 'paused') throw new UploadPaused('The browser went offline');
    return record;
  }

  private async setState(uploadId: string, state: UploadState, error: string | null = null): Promise<void> {
    await this.update(uploadId, (r) => {
      r.state = state;
      r.error = error;
      if (state === 'done') r.finishedAt = Date.now();
    });
    // A finished upload's copy of the file is no longer needed (failed and cancelled ones keep
    // theirs for Retry; log out wipes them all).
    if (state === 'done') {
      forgetPickedFile(uploadId);
      await this.ctx.db.uploadFiles.delete([this.ctx.accountId, uploadId]);
    }
  }

  private async markPaused(uploadId: string): Promise<void> {
    await this.update(uploadId, (r) => {
      if (ACTIVE_UPLOAD_STATES.has(r.state)) r.state = 'paused';
    });
  }

  /** The browser went offline: the upload being sent shows paused at once. */
  private async pauseSending(): Promise<void> {
    const { db, accountId } = this.ctx;
    await db.uploads.where('accountId').equals(accountId).modify((r) => {
      if (SENDING_STATES.has(r.state)) r.state = 'paused';
    });
  }

  /** Releases the server reservations of cancelled uploads (best effort: they expire anyway). */
  private async releaseCancelled(): Promise<void> {
    const { db, accountId, api } = this.ctx;
    const pending = (await db.uploads.where('accountId').equals(accountId).toArray()).filter((r) => r.state === 'cancelled' && r.isReleased === false);
    for (const record of pending) {
      if (this.stopped || isBrowserOffline()) return;
      try {
        await api.delete(`/vaults/${encodeURIComponent(record.vaultId)}/blobs/${encodeURIComponent(record.blobId)}`, undefined, Ok);
      } catch (error) {
        // Unreachable: try again on the next run. Refused (access removed, already committed):
        // there is nothing this device can release.
        if (!(error instanceof ApiError) || isRetryableStatus(error.status)) return;
      }
      await db.uploads.where('[accountId+uploadId]').equals([accountId, record.uploadId]).modify((r) => {
        if (r.state === 'cancelled') r.isReleased = true;
      });
    }
  }

  private async process(uploadId: string): Promise<void> {
    try {
      try {
        await this.send(uploadId);
      } catch (error) {
        if (!(error instanceof PickedFileUnreadable)) throw error;
        // The picked file changed or went away on disk since it was picked. The copy kept at
        // pick time has the bytes the upload started with: go on from it, checked as on resume.
        forgetPickedFile(uploadId);
        await this.send(uploadId);
      }
    } catch (error) {
      if (error instanceof UploadCancelled) return;
      if (error instanceof PermanentUploadError) {
        await this.setState(uploadId, 'failed', error.message);
        return;
      }
      throw error;
    }
  }

  /** A failed read or check of the source: the kept copy next, or a failure naming the file. */
  private static sourceError(error: unknown, source: UploadSource, name: string): unknown {
    if (!(error instanceof SourceChangedError) && !isSourceFailure(error)) return error;
    if (source.isPicked) return new PickedFileUnreadable();
    const isUnreadable = error instanceof Error && error.message === 'FILE_UNREADABLE';
    return new PermanentUploadError(isUnreadable ? sourceUnreadableMessage(name) : sourceChangedMessage(name));
  }

  private async send(uploadId: string): Promise<void> {
    const ctx = this.ctx;
    let record = await this.read(uploadId);
    if (!record || !ACTIVE_UPLOAD_STATES.has(record.state)) return;
    const vault = await ctx.db.vaults.get([ctx.accountId, record.vaultId]);
    if (!vault) throw new PermanentUploadError('Missing vault id.');
    const isPrivate = !vault.isPublic;
    const transfer = ctx.transfer;
    if (!transfer) throw new Error('The transfer pool is not available yet');

    // A crash after the file operation was queued but before 'done' was written: just finish.
    const queuedOp = await ctx.db.outbox
      .where('[accountId+vaultId]')
      .equals([ctx.accountId, record.vaultId])
      .filter((o) => o.waitsForUploadId === uploadId)
      .first();
    if (queuedOp) {
      await this.setState(uploadId, 'done');
      ctx.requestPush();
      return;
    }

    // Anything but a fresh upload was interrupted before: check before sealing anything again.
    const isResume = record.state !== 'queued' || record.chunkHashes.some(Boolean);
    record = UploadQueue.goingOn(
      await this.update(uploadId, (r) => {
        r.state = isResume ? 'resuming' : 'uploading';
        r.error = null;
      }),
    );

    let rawKey: ArrayBuffer | null = null;
    if (isPrivate) {
      await ensureVaultKeys(ctx, record.vaultId);
      if (record.sealedFileKey) {
        rawKey = await ctx.crypto.openFileKey(record.vaultId, record.versionId, record.sealedFileKey);
      } else {
        const created = await ctx.crypto.createFileKey(record.vaultId, record.versionId);
        rawKey = created.rawKey;
        record = UploadQueue.goingOn(
          await this.update(uploadId, (r) => {
            r.sealedFileKey = created.sealed;
          }),
        );
      }
    }

    const storedSize = storedFileSize(uploadHeader(record), isPrivate);
    const status = await this.announce(record, storedSize);
    const source = await openUploadSource(ctx, uploadId);
    if (!source) throw new PermanentUploadError(sourceUnreadableMessage(record.name));
    if (isResume) {
      try {
        await checkSourceUnchanged(ctx, record, source.file, status.storedChunks, rawKey);
      } catch (error) {
        throw UploadQueue.sourceError(error, source, record.name);
      }
    }

    const stored = new Set(status.storedChunks);
    const missing: number[] = [];
    for (let i = 0; i < record.chunkCount; i++) if (!(stored.has(i) && record.chunkHashes[i])) missing.push(i);
    // What the server holds counts as sent, so progress survives a reload.
    let alreadySent = 0;
    const header = uploadHeader(record);
    for (let i = 0; i < record.chunkCount; i++) if (!missing.includes(i)) alreadySent += plainChunkSize(i, header);
    record = UploadQueue.goingOn(
      await this.update(uploadId, (r) => {
        r.sentBytes = alreadySent;
        if (r.state !== 'paused') r.state = 'uploading';
      }),
    );

    record = await this.sendChunks(record, transfer, source, missing, rawKey);
    // R79: never fails; an image without one goes up all the same.
    const thumbnail = await uploadThumbnail(ctx, record, source.file, rawKey, isPrivate);
    await this.finalise(record, isPrivate, storedSize, thumbnail);
  }

  /** Announces the upload (reserving its storage) and answers which chunks the server holds. */
  private async announce(record: UploadRecord, storedSize: number): Promise<{ storedChunks: number[] }> {
    try {
      return await this.ctx.api.post(
        `/vaults/${encodeURIComponent(record.vaultId)}/blobs`,
        { blobId: record.blobId, storedSize, chunkCount: record.chunkCount },
        BlobStatusResponse,
      );
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NOT_ENOUGH_STORAGE') throw new PermanentUploadError(NOT_ENOUGH_STORAGE_MESSAGE);
      if (error instanceof ApiError && !isRetryableStatus(error.status)) throw new PermanentUploadError(error.message || UPLOAD_FAILED_MESSAGE);
      throw error;
    }
  }

  /**
   * Seals the missing chunks in order, up to SEAL_AHEAD ahead, and sends them one at a time.
   * Each chunk's hashes are recorded before its bytes leave: a resume then knows what this key
   * and nonce sent, and refuses to send anything else under them (DESIGN.md section 3). One
   * record write per chunk, made while the PUT before it is on the wire (the wire waits for no
   * IndexedDB write): its hashes with the progress of the PUTs finished by then. The write also
   * tells whether the upload was cancelled or paused meanwhile. (Each write wakes every live view
   * of the uploads, so there is no second one per chunk.)
   */
  private async sendChunks(initial: UploadRecord, transfer: TransferPort, source: UploadSource, missing: readonly number[], rawKey: ArrayBuffer | null): Promise<UploadRecord> {
    const { uploadId, vaultId, blobId, name } = initial;
    const header = uploadHeader(initial);
    const ahead: { index: number; sealing: Promise<SealedChunk> }[] = [];
    let next = 0;
    const seal = async (index: number): Promise<SealedChunk> => {
      // A copy per call: the pool may transfer (detach) the buffer it is given. Sealing is
      // deterministic under this key and these nonces: a chunk sealed before must seal to the
      // hash recorded then, or it is other plaintext and the worker drops it (FILE_CHANGED).
      return transfer.sealChunk({
        file: source.file,
        index,
        header,
        rawKey: rawKey ? rawKey.slice(0) : null,
        spoolScope: this.ctx.accountId,
        expectedSha256: initial.chunkHashes[index] ?? null,
      });
    };
    const sealAhead = () => {
      while (ahead.length <= SEAL_AHEAD && next < missing.length) {
        const index = missing[next++]!;
        const sealing = seal(index);
        // Chunks sealed ahead of a failure are dropped unsent: never an unhandled rejection.
        sealing.catch(() => undefined);
        ahead.push({ index, sealing });
      }
    };

    /** A sealed chunk that will not be sent: its spool file goes now, not at the next run's clear. */
    const drop = (sealed: SealedChunk) => {
      if (sealed.spooled) void transfer.dropSpooled?.(sealed.spooled).catch(() => undefined);
    };

    let record = initial;
    /** Plaintext bytes of finished PUTs, not yet in the record. */
    let unrecordedSent = 0;
    /** The one PUT on the wire: the next chunk's record write overlaps it, its PUT waits for it. */
    let putting: Promise<void> | null = null;
    const put = async (index: number, sealed: SealedChunk) => {
      try {
        await transfer.putChunk({ body: sealed.body, spooled: sealed.spooled, sha256: sealed.sha256, url: API_BASE + chunkPath(vaultId, blobId, index) });
      } catch (error) {
        const status = statusOfTransferError(error);
        if (status !== null && !isRetryableStatus(status)) throw new PermanentUploadError(UPLOAD_FAILED_MESSAGE);
        throw error;
      }
      unrecordedSent += plainChunkSize(index, header);
    };
    try {
      for (sealAhead(); ahead.length > 0; sealAhead()) {
        const { index, sealing } = ahead.shift()!;
        let sealed: SealedChunk;
        try {
          sealed = await sealing;
        } catch (error) {
          throw UploadQueue.sourceError(error, source, name);
        }
        const sent = unrecordedSent;
        unrecordedSent = 0;
        let handedOver = false;
        try {
          record = UploadQueue.goingOn(
            await this.update(uploadId, (r) => {
              r.chunkHashes[index] = sealed.sha256;
              r.sentBytes += sent;
            }),
          );
          if (putting) await putting;
          // The PUT removes the sealed copy once it ends, sent or not.
          putting = put(index, sealed);
          handedOver = true;
        } finally {
          if (!handedOver) drop(sealed);
        }
        // Awaited before the next PUT or on the way out: never an unhandled rejection meanwhile.
        putting.catch(() => undefined);
      }
      if (putting) await putting;
    } finally {
      // Leaving early (cancelled, paused, a failure): the chunks sealed ahead are dropped as their
      // sealing ends (not awaited: leaving need not wait for them), and the PUT on the wire ends
      // before this run does, so a run after it never has two chunks of the file on the wire.
      for (const { sealing } of ahead.splice(0)) void sealing.then(drop, () => undefined);
      await putting?.catch(() => undefined);
    }
    if (unrecordedSent === 0) return record;
    const sent = unrecordedSent;
    return UploadQueue.goingOn(
      await this.update(uploadId, (r) => {
        r.sentBytes += sent;
      }),
    );
  }

  /** Every chunk is stored: queues the signed file operation that commits them. */
  private async finalise(sent: UploadRecord, isPrivate: boolean, storedSize: number, thumbnail: Thumbnail | null): Promise<void> {
    const ctx = this.ctx;
    const record = UploadQueue.goingOn(
      await this.update(sent.uploadId, (r) => {
        if (r.state === 'uploading') r.state = 'finalising';
      }),
    );
    if (record.purpose === 'nft') {
      // A mint's blob: its operation is the mint's own (src/sync/nftMint.ts), queued once every blob is stored.
      const version = await uploadedFileVersion(ctx, record, isPrivate, storedSize, thumbnail);
      await this.update(record.uploadId, (r) => {
        r.version = version;
      });
      await this.setState(record.uploadId, 'done');
      return;
    }
    await enqueueUploadedFile(ctx, record, isPrivate, storedSize, thumbnail);
    await this.setState(record.uploadId, 'done');
    ctx.requestPush();
  }
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
  /** 'nft': a mint's blob (UploadRecord.purpose). */
  purpose?: 'nft';
}

/** Stores a queued UploadRecord (ids made once, here) and answers it. */
export async function queueUpload(ctx: SyncContext, input: NewUpload): Promise<UploadRecord> {
  const { records } = await queueUploads(ctx, [input]);
  return records[0]!;
}

export interface QueuedUploads {
  /** In the order given. */
  records: UploadRecord[];
  /**
   * Settles once the copies kept for resuming after a reload are written: the uploads whose file
   * could not be kept (no room), which are sent only while this page lives. Never rejects.
   */
  notKept: Promise<UploadRecord[]>;
}

/**
 * Queues several files in one IndexedDB transaction (a picked folder of hundreds of files is
 * queued at once, not one transaction per file), then keeps a copy of each file for resuming
 * after a reload. The copies are written while the uploads already go on from the picked files: a
 * browser with a profile on disk copies the bytes (seconds for a file of gigabytes), and nothing
 * needs the copy before a reload. A page closed before a copy is written leaves an upload that
 * fails naming its file, as when there is no room. Files keep the order given.
 */
export async function queueUploads(ctx: SyncContext, inputs: NewUpload[]): Promise<QueuedUploads> {
  const now = ctx.now();
  const records = inputs.map((input, index): UploadRecord => {
    const size = input.file.size;
    const count = chunkCount(size);
    return {
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
      lastModified: lastModifiedOf(input.file, now),
      chunkSize: CHUNK_SIZE,
      chunkCount: count,
      chunkHashes: Array.from({ length: count }, () => null),
      sentBytes: 0,
      state: 'queued',
      error: null,
      // Distinct and increasing, so the queue sends them in the order picked.
      createdAt: now + index / 1000,
      batchId: input.batchId,
      ...(input.purpose ? { purpose: input.purpose } : {}),
    };
  });
  if (!records.length) return { records, notKept: Promise.resolve([]) };
  await ctx.db.uploads.bulkAdd(records);
  records.forEach((record, i) => rememberPickedFile(record.uploadId, inputs[i]!.file));
  const notKept = trackCopies(
    keepCopies(ctx, records, inputs.map((input) => input.file)).catch((error: unknown) => {
      ctx.log('Could not check the kept copies', error);
      return [];
    }),
  );
  return { records, notKept };
}

/**
 * Writes the copies of the picked files; answers the records whose copy could not be written.
 * All at once first; if that is refused (no room: a private window keeps copies in memory and
 * refuses a file of a couple of GB), one by one, so each copy that fits is still kept.
 */
async function keepCopies(ctx: SyncContext, records: UploadRecord[], files: Blob[]): Promise<UploadRecord[]> {
  const { db, accountId } = ctx;
  const copies = records.map((record, i) => ({ accountId, uploadId: record.uploadId, file: files[i]! }));
  const kept: string[] = [];
  const notKept: UploadRecord[] = [];
  try {
    await db.uploadFiles.bulkAdd(copies);
    kept.push(...records.map((r) => r.uploadId));
  } catch (error) {
    ctx.log('Could not keep the picked files all at once', error);
    for (const [i, copy] of copies.entries()) {
      try {
        await db.uploadFiles.add(copy);
        kept.push(copy.uploadId);
      } catch (copyError) {
        // A refused batch may have written some copies after all (a bulk write keeps those that succeed).
        if (await db.uploadFiles.get([accountId, copy.uploadId]).catch(() => undefined)) {
          kept.push(copy.uploadId);
          continue;
        }
        ctx.log(`Could not keep a copy of upload ${copy.uploadId}`, copyError);
        notKept.push(records[i]!);
      }
    }
  }
  // A copy written after its upload finished (or after log out wiped the queue) is not needed.
  const stale = (await db.uploads.bulkGet(kept.map((uploadId) => [accountId, uploadId] as [string, string])))
    .map((record, i) => (!record || record.state === 'done' ? kept[i]! : null))
    .filter((uploadId): uploadId is string => uploadId !== null);
  if (stale.length) await db.uploadFiles.bulkDelete(stale.map((uploadId) => [accountId, uploadId] as [string, string]));
  return notKept;
}
