/**
 * Downloads one file version through the transfer pool: every chunk is fetched, checked against
 * the chunk hash its uploader signed (the version came from a verified operation) and opened.
 *
 * This slice assembles a Blob from the decrypted chunk parts, so the browser holds the whole file
 * once (as Blob parts, which it may page to disk). Streaming to disk (a service-worker stream or
 * the File System Access API) is the follow-up for very large files.
 */
import { CHUNK_SIZE } from '../protocol/vaults';
import { chunkPath, type SyncContext } from './SyncContext';
import { ensureVaultKeys } from './pull';
import { API_BASE } from './uploadQueue';

/** Chunks in flight per download: enough to keep 2-4 transfer workers busy without hoarding memory. */
const DOWNLOAD_CONCURRENCY = 4;

/** What a screen shows when a chunk fails its signed hash or its authentication. */
export const CHUNK_TAMPERED_MESSAGE =
  "This file's content does not match what its uploader signed: it may have been tampered with, so it was not opened.";

export class DownloadError extends Error {
  constructor(
    readonly code: 'CHUNK_TAMPERED' | 'NOT_FOUND' | 'FAILED',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DownloadError';
  }
}

export type DownloadProgress = (receivedBytes: number, totalBytes: number) => void;

export async function downloadFileVersion(
  ctx: SyncContext,
  vaultId: string,
  fileId: string,
  versionId?: string,
  onProgress?: DownloadProgress,
): Promise<Blob> {
  const { db, accountId } = ctx;
  const [vault, node] = await Promise.all([db.vaults.get([accountId, vaultId]), db.nodes.get([accountId, fileId])]);
  const id = versionId ?? node?.latestVersionId ?? undefined;
  const version = id ? await db.versions.get([accountId, id]) : undefined;
  if (!vault || !node || !version || version.fileId !== fileId) throw new DownloadError('NOT_FOUND', 'This file version is not available.');
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
  const header = { size: version.size, chunkSize: CHUNK_SIZE, chunkCount: version.chunkCount };
  const parts: ArrayBuffer[] = new Array(version.chunkCount);
  let received = 0;
  const next = [...Array(version.chunkCount).keys()];
  const worker = async () => {
    for (let index = next.shift(); index !== undefined; index = next.shift()) {
      const plain = await transfer.downloadChunk({
        index,
        header,
        rawKey: rawKey ? rawKey.slice(0) : null,
        url: API_BASE + chunkPath(vaultId, version.blobId, index),
        expectedSha256: version.chunkHashes[index]!,
      });
      parts[index] = plain;
      received += plain.byteLength;
      onProgress?.(received, version.size);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(DOWNLOAD_CONCURRENCY, version.chunkCount) }, worker));
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('CHUNK_TAMPERED')) {
      throw new DownloadError('CHUNK_TAMPERED', CHUNK_TAMPERED_MESSAGE, { cause: error });
    }
    throw new DownloadError('FAILED', 'There was an error downloading the file.', { cause: error });
  }
  return new Blob(parts, { type: version.mimeTypeText });
}
