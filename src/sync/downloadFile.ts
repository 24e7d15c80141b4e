/**
 * Downloads one file version through the transfer pool: every chunk is fetched, checked against
 * the chunk hash its uploader signed (the version came from a verified operation) and opened, in
 * the transfer workers and in parallel; the plaintext is handed on strictly in chunk order.
 *
 * `openFileVersionDownload` streams: at most DOWNLOAD_WINDOW chunks exist at once whatever the
 * file size, so a caller that writes to disk (the service worker's download stream) keeps memory
 * flat. `downloadFileVersion` collects the chunks into a Blob, for bounded previews and for the
 * download fallback when no service worker controls the page.
 */
import { chunkPath, type SyncContext } from './SyncContext';
import { API_BASE } from './uploadQueue';
import { chunkCacheName } from '../storage/chunkCache';
import type { VaultRecord, VersionRecord } from '../storage/vaultRecords';
import { ensureVaultKeys } from './pull';
import { pumpInOrder } from './pumpInOrder';
import type { ChunkSource } from '../../workers/serviceWorker/downloadStreamProtocol';

/** Files up to this size opened once stay available offline (SYNC_SPEC R15). */
export const OFFLINE_COPY_MAX_BYTES = 64 * 1024 * 1024;

/** Chunks in flight per download: enough to keep 2-4 transfer workers busy without hoarding memory. */
const DOWNLOAD_CONCURRENCY = 4;

/** What a screen shows when a chunk fails its signed hash or its authentication. */
export const CHUNK_TAMPERED_MESSAGE =
  "This file's content does not match what its uploader signed: it may have been tampered with, so it was not opened.";

/** Offline, and the file's chunks are not kept on this device (SYNC_SPEC R15). */
export const NOT_OFFLINE_MESSAGE =
  "You're offline, and this file is not kept on this device. Open it when you're back online, or turn on Available offline for its vault.";

/**
 * Chunks of one download that exist at once: the one being written and up to 2 fetched or
 * decrypted ahead of it (8 MiB each), so the transfer workers stay busy while a write waits. (With
 * 4 MiB chunks it was 5; at 8 MiB, 3 and 5 download at the same speed in the bench.)
 */
export const DOWNLOAD_WINDOW = 3;

export class DownloadError extends Error {
  constructor(
    readonly code: 'CHUNK_TAMPERED' | 'NOT_FOUND' | 'OFFLINE' | 'FAILED',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DownloadError';
  }
}

export type DownloadProgress = (receivedBytes: number, totalBytes: number) => void;

export interface PumpOptions {
  /** Aborting stops fetching; the pump rejects with the signal's reason. */
  signal?: AbortSignal;
  onProgress?: DownloadProgress;
}

/** A file version ready to download: its key is open and its chunk list known. */
export interface FileVersionDownload {
  /** Plaintext bytes. */
  readonly size: number;
  readonly mimeType: string;
  /**
   * Fetches, verifies and decrypts every chunk and awaits `write` for each, in order, one at a
   * time. Rejects with DownloadError ('CHUNK_TAMPERED' with CHUNK_TAMPERED_MESSAGE, or 'FAILED')
   * when a chunk cannot be had, and with `write`'s own error when a write fails; no chunk after a
   * bad one is ever written. The chunks' buffers are the caller's (a write may transfer them).
   */
  pump(write: (chunk: Uint8Array<ArrayBuffer>) => Promise<void>, options?: PumpOptions): Promise<void>;
  /**
   * The same chunks for the service worker to fetch, check and open itself when it saves the file
   * (src/platform/saveStream.ts `saveFromSource`): their paths, signed hashes, header and key.
   */
  readonly source: ChunkSource;
}

/** The DownloadError a failed chunk (a transfer worker's or the service worker's error) is told as. */
export function toDownloadError(error: unknown): DownloadError {
  if (error instanceof DownloadError) return error;
  if (error instanceof Error && error.message.startsWith('CHUNK_TAMPERED')) {
    return new DownloadError('CHUNK_TAMPERED', CHUNK_TAMPERED_MESSAGE, { cause: error });
  }
  // A chunk not kept here that no server answered for: the transfer worker says so itself, as the
  // page's navigator.onLine can still read true when the worker's fetch already fails offline.
  const isUnreachable = error instanceof Error && error.message.startsWith('UNREACHABLE');
  if (isUnreachable || (typeof navigator !== 'undefined' && navigator.onLine === false)) {
    return new DownloadError('OFFLINE', NOT_OFFLINE_MESSAGE, { cause: error });
  }
  return new DownloadError('FAILED', 'There was an error downloading the file.', { cause: error });
}

/**
 * Looks up the version (the latest by default) and opens its file key. Rejects with DownloadError
 * 'NOT_FOUND' or 'FAILED' before any chunk is fetched, so a caller can fail before it starts
 * saving anything.
 */
export async function openFileVersionDownload(ctx: SyncContext, vaultId: string, fileId: string, versionId?: string): Promise<FileVersionDownload> {
  const { db, accountId } = ctx;
  const [vault, node] = await Promise.all([db.vaults.get([accountId, vaultId]), db.nodes.get([accountId, fileId])]);
  const id = versionId ?? node?.latestVersionId ?? undefined;
  const version = id ? await db.versions.get([accountId, id]) : undefined;
  if (!vault || !node || !version || version.fileId !== fileId) throw new DownloadError('NOT_FOUND', 'This file version is not available.');
  return openVersionDownload(ctx, vault, version);
}

/** A version's bytes as they were signed: its size and chunk list, and its MIME type in clear. */
export type DownloadableVersion = Pick<VersionRecord, 'versionId' | 'blobId' | 'size' | 'chunkSize' | 'chunkCount' | 'chunkHashes' | 'fileKey' | 'mimeTypeText'>;

/**
 * Opens a version the caller already holds from a verified operation (a file's, or an NFT's
 * asset, which has no node of its own): the same checked, in-order download as a file's.
 */
export async function openVersionDownload(ctx: SyncContext, vault: VaultRecord, version: DownloadableVersion): Promise<FileVersionDownload> {
  const { accountId } = ctx;
  const vaultId = vault.vaultId;
  if (!ctx.transfer) throw new DownloadError('FAILED', 'Downloads are not available yet.');
  const transfer = ctx.transfer;

  let rawKey: ArrayBuffer | null = null;
  if (version.fileKey) {
    try {
      await ensureVaultKeys(ctx, vaultId);
      rawKey = await ctx.crypto.openFileKey(vaultId, version.versionId, version.fileKey);
    } catch (error) {
      throw new DownloadError('FAILED', 'The key of this file could not be opened.', { cause: error });
    }
  }
  const header = { size: version.size, chunkSize: version.chunkSize, chunkCount: version.chunkCount };
  // Large files are kept only for vaults marked 'Available offline': a one-off download of a
  // huge file should not fill the disk with a second copy.
  const keepsCopy = version.size <= OFFLINE_COPY_MAX_BYTES || vault.keepOffline === true;

  const cacheName = keepsCopy ? chunkCacheName(accountId) : undefined;
  const urlOf = (index: number) => API_BASE + chunkPath(vaultId, version.blobId, index);
  return {
    size: version.size,
    mimeType: version.mimeTypeText,
    source: {
      header,
      rawKey: rawKey ? rawKey.slice(0) : null,
      chunks: version.chunkHashes.map((sha256, index) => ({ url: urlOf(index), sha256: sha256.toLowerCase() })),
      ...(cacheName ? { cacheName } : {}),
    },
    async pump(write, options = {}) {
      let received = 0;
      await pumpInOrder({
        count: version.chunkCount,
        concurrency: DOWNLOAD_CONCURRENCY,
        window: DOWNLOAD_WINDOW,
        ...(options.signal ? { signal: options.signal } : {}),
        produce: (index) =>
          transfer
            .downloadChunk({
              index,
              header,
              // Copied per call: the key travels to a worker by structured clone.
              rawKey: rawKey ? rawKey.slice(0) : null,
              url: urlOf(index),
              expectedSha256: version.chunkHashes[index]!,
              // Kept encrypted on the device, so a file opened once opens offline (SYNC_SPEC R15).
              ...(cacheName ? { cacheName } : {}),
            })
            .then(
              (plain) => new Uint8Array(plain),
              (error: unknown) => {
                throw toDownloadError(error);
              },
            ),
        consume: async (chunk) => {
          const length = chunk.byteLength;
          await write(chunk);
          received += length;
          options.onProgress?.(received, version.size);
        },
      });
    },
  };
}

/** The whole version as one Blob (previews, and the download fallback). */
export async function downloadFileVersion(
  ctx: SyncContext,
  vaultId: string,
  fileId: string,
  versionId?: string,
  onProgress?: DownloadProgress,
): Promise<Blob> {
  const download = await openFileVersionDownload(ctx, vaultId, fileId, versionId);
  const parts: Uint8Array<ArrayBuffer>[] = [];
  await download.pump(async (chunk) => void parts.push(chunk), onProgress ? { onProgress } : {});
  return new Blob(parts, { type: download.mimeType });
}

/** A version the caller holds (an NFT's asset) as one Blob, every chunk checked; see openVersionDownload. */
export async function downloadVersion(ctx: SyncContext, vaultId: string, version: DownloadableVersion): Promise<Blob> {
  const vault = await ctx.db.vaults.get([ctx.accountId, vaultId]);
  if (!vault) throw new DownloadError('NOT_FOUND', 'This file version is not available.');
  const download = await openVersionDownload(ctx, vault, version);
  const parts: Uint8Array<ArrayBuffer>[] = [];
  await download.pump(async (chunk) => void parts.push(chunk));
  return new Blob(parts, { type: download.mimeType });
}
