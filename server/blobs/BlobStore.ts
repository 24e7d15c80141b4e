/**
 * Where chunk bytes live. A port so the disk store can later sit beside an object store; the
 * database holds only sizes and hashes, never the bytes.
 *
 * Keys are relative paths of `[A-Za-z0-9_-]` segments joined by '/', so no key can leave the
 * store's root.
 */
import type { Readable } from 'node:stream';

export interface BlobStore {
  /** Stores `bytes` under `key`, replacing what was there. Atomic: a reader sees old or new, never half. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes as a stream, or null when absent. */
  get(key: string): Promise<Readable | null>;
  has(key: string): Promise<boolean>;
  /** Removes `key`; absent keys are fine. */
  delete(key: string): Promise<void>;
}

const KEY_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

export function assertBlobKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.length > 512) throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
}

/** The key of chunk `index` of `blobId` with content hash `sha256`: a key never changes content. */
export function chunkKey(blobId: string, index: number, sha256: string): string {
  return `${blobId}/${index}-${sha256}`;
}
