/**
 * Where chunk bytes live. A port so the disk store can later sit beside an object store; the
 * database holds only sizes and hashes, never the bytes.
 *
 * Keys are relative paths of `[A-Za-z0-9_-]` segments joined by '/', so no key can leave the
 * store's root.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { PRIVATE_FILE_MODE } from '../privateFiles';

/**
 * Bytes written aside by `BlobStore.stage`, not yet readable under their key: `commit` makes them
 * so (atomic, as `put`), `discard` removes them. One of the two must follow, once.
 */
export interface StagedBytes {
  size: number;
  /** SHA-256 of the bytes, lower-case hex. */
  sha256: string;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** What `stage` reads: a request body (a stream of Buffers), or parts at hand. */
export type ByteSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** `stage` was given more than its `maxBytes`; nothing of it is kept. */
export class TooManyBytesError extends Error {
  constructor(readonly maxBytes: number) {
    super(`More than ${maxBytes} bytes`);
  }
}

export interface BlobStore {
  /**
   * Readiness, called once at start: throws a one-line error for the operator when the store
   * cannot be used (an S3 bucket missing, refused credentials, unreachable), so a misconfigured
   * server stops at start instead of failing every upload.
   */
  check(): Promise<void>;
  /** Stores `bytes` under `key`, replacing what was there. Atomic: a reader sees old or new, never half. */
  put(key: string, bytes: Buffer): Promise<void>;
  /**
   * Writes `source` aside for `key` as it arrives, hashing it on the way, so a request body is
   * never held whole in memory; the caller checks size and hash, then commits or discards. Throws
   * TooManyBytesError past `maxBytes`, and whatever `source` throws; either way nothing is kept.
   */
  stage(key: string, source: ByteSource, maxBytes: number): Promise<StagedBytes>;
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

/** Counts and hashes `part` for `stage`; throws TooManyBytesError once `size` would pass `maxBytes`. */
export class StageTally {
  size = 0;
  private readonly hash = crypto.createHash('sha256');

  constructor(private readonly maxBytes: number) {}

  add(part: Uint8Array): void {
    this.size += part.length;
    if (this.size > this.maxBytes) throw new TooManyBytesError(this.maxBytes);
    this.hash.update(part);
  }

  sha256(): string {
    return this.hash.digest('hex');
  }
}

/** The key of chunk `index` of `blobId` with content hash `sha256`: a key never changes content. */
export function chunkKey(blobId: string, index: number, sha256: string): string {
  return `${blobId}/${index}-${sha256}`;
}

/**
 * Writes `source` to the private file `temp` as it arrives (each part as read from the socket, 64
 * KiB or so: no whole body in memory), counting and hashing it on the way; flushed to disk first
 * when `sync`. Anything thrown (too many bytes, a broken body, a full disk) removes the file.
 * The disk store stages beside the final name, the S3 store in its staging folder.
 */
export async function writeStagedFile(temp: string, source: ByteSource, maxBytes: number, { sync = false } = {}): Promise<StageTally> {
  const tally = new StageTally(maxBytes);
  try {
    const handle = await fs.promises.open(temp, 'w', PRIVATE_FILE_MODE);
    try {
      for await (const part of source) {
        tally.add(part);
        for (let at = 0; at < part.length; ) at += (await handle.write(part, at)).bytesWritten;
      }
      if (sync) await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  return tally;
}
