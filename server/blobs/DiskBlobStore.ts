import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { makePrivateDir } from '../privateFiles';
import { assertBlobKey, type BlobStore, type ByteSource, type StagedBytes, writeStagedFile } from './BlobStore';

/**
 * Files under `root` (DATA_DIR/blobs). A put or a stage writes a temporary file in the same
 * directory and flushes it; its commit renames it over the final name, so a crash never leaves a
 * half chunk under a real key (only a temporary file). Folders are 0700 and files 0600.
 */
const READ_BUFFER_BYTES = 1024 * 1024;

export class DiskBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  /** The root exists (0700) and is a folder: folders are also made on demand, so nothing more. */
  async check(): Promise<void> {
    await makePrivateDir(this.root);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await (await this.stage(key, [bytes], Infinity)).commit();
  }

  async stage(key: string, source: ByteSource, maxBytes: number): Promise<StagedBytes> {
    const file = this.pathOf(key);
    await makePrivateDir(path.dirname(file));
    const temp = `${file}.tmp-${crypto.randomBytes(6).toString('hex')}`;
    const discard = () => fs.promises.rm(temp, { force: true });
    const tally = await writeStagedFile(temp, source, maxBytes, { sync: true });
    return {
      size: tally.size,
      sha256: tally.sha256(),
      commit: async () => {
        try {
          await fs.promises.rename(temp, file);
        } catch (error) {
          await discard();
          throw error;
        }
      },
      discard,
    };
  }

  async get(key: string): Promise<Readable | null> {
    const file = this.pathOf(key);
    try {
      // Open first so an absent file is null here rather than a stream error after headers.
      const handle = await fs.promises.open(file, 'r');
      // 1 MiB reads: an 8 MiB chunk in 8 reads rather than 128 (fewer callbacks per MiB served).
      return handle.createReadStream({ highWaterMark: READ_BUFFER_BYTES });
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      return (await fs.promises.stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await fs.promises.rm(file, { force: true });
    // Drop the blob's directory once its last chunk is gone; another chunk may still be there.
    await fs.promises.rmdir(path.dirname(file)).catch(() => undefined);
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.root, ...key.split('/'));
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}
