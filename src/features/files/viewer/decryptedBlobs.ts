/**
 * Decrypted file versions held in memory for the viewer and the gallery, so going back to a
 * version or a photo is instant. Keyed by (fileId, versionId); versions are immutable, so an
 * entry never goes stale. Downloads of the same version share one promise, and at most
 * DECRYPT_CONCURRENCY run at once so a gallery strip cannot starve the large image.
 */
import { onVaultDataDropped } from '../../../sync/dropEndedVaults';
import { DownloadError, downloadFile } from '../../../sync/vaultActions';
import { ByteLru } from './ByteLru';

/** About 100 MB of plaintext; the browser may page Blob data to disk, but keep it modest. */
export const DECRYPTED_CACHE_BYTES = 100_000_000;
const DECRYPT_CONCURRENCY = 3;
/**
 * Right after a reload the vault keys may still be opening, and the file key then fails to open;
 * a failure other than a tampered chunk is retried after these delays (milliseconds).
 */
const RETRY_DELAYS = [700, 2000];

type Progress = (received: number, total: number) => void;

const cache = new ByteLru<string, Blob>(DECRYPTED_CACHE_BYTES);
// Entries are keyed by file and version, not vault: a vault whose membership ended empties the
// whole cache (rare, and the cache refills from what the device may still open).
onVaultDataDropped(() => cache.clear());
const inFlight = new Map<string, { promise: Promise<Blob>; listeners: Set<Progress> }>();
const waiting: { run: () => void; isUrgent: boolean }[] = [];
let running = 0;

function keyOf(fileId: string, versionId: string): string {
  return `${fileId}/${versionId}`;
}

function acquire(isUrgent: boolean): Promise<void> {
  if (running < DECRYPT_CONCURRENCY) {
    running += 1;
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const entry = { run: () => resolve(), isUrgent };
    // The viewer's own file goes ahead of queued thumbnails.
    if (isUrgent) waiting.unshift(entry);
    else waiting.push(entry);
  });
}

function release(): void {
  const next = waiting.shift();
  if (next) next.run();
  else running -= 1;
}

/** The cached Blob of a version, or undefined. */
export function peekDecryptedBlob(fileId: string, versionId: string): Blob | undefined {
  return cache.get(keyOf(fileId, versionId));
}

/**
 * Decrypts a version (or answers it from memory). Rejections are DownloadError from
 * src/sync/downloadFile (code 'CHUNK_TAMPERED' for a failed integrity check); they are not cached.
 */
export function getDecryptedBlob(
  vaultId: string,
  fileId: string,
  versionId: string,
  options: { onProgress?: Progress; isUrgent?: boolean } = {},
): Promise<Blob> {
  const key = keyOf(fileId, versionId);
  const cached = cache.get(key);
  if (cached) return Promise.resolve(cached);
  const pending = inFlight.get(key);
  if (pending) {
    if (options.onProgress) pending.listeners.add(options.onProgress);
    return pending.promise;
  }
  const listeners = new Set<Progress>(options.onProgress ? [options.onProgress] : []);
  const promise = (async () => {
    await acquire(options.isUrgent ?? false);
    try {
      const report = (received: number, total: number) => listeners.forEach((listener) => listener(received, total));
      let blob: Blob | undefined;
      for (let attempt = 0; !blob; attempt += 1) {
        try {
          blob = await downloadFile(vaultId, fileId, versionId, report);
        } catch (error) {
          const delay = RETRY_DELAYS[attempt];
          if (delay === undefined || (error instanceof DownloadError && error.code !== 'FAILED')) throw error;
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
      cache.set(key, blob, blob.size);
      return blob;
    } finally {
      release();
      inFlight.delete(key);
    }
  })();
  inFlight.set(key, { promise, listeners });
  return promise;
}

/** Stops reporting progress to a listener that unmounted (the download itself continues). */
export function stopProgress(fileId: string, versionId: string, listener: Progress): void {
  inFlight.get(keyOf(fileId, versionId))?.listeners.delete(listener);
}

/** Forgets every decrypted file (on logout). */
export function clearDecryptedBlobs(): void {
  cache.clear();
}
