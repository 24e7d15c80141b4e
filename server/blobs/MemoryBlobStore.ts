import { Readable } from 'node:stream';
import { assertBlobKey, type BlobStore, type ByteSource, StageTally, type StagedBytes } from './BlobStore';

/** For unit tests of code written against the port; the app uses DiskBlobStore. */
export class MemoryBlobStore implements BlobStore {
  private readonly items = new Map<string, Buffer>();

  async check(): Promise<void> {}

  async put(key: string, bytes: Buffer): Promise<void> {
    assertBlobKey(key);
    this.items.set(key, Buffer.from(bytes));
  }

  async stage(key: string, source: ByteSource, maxBytes: number): Promise<StagedBytes> {
    assertBlobKey(key);
    const tally = new StageTally(maxBytes);
    const parts: Buffer[] = [];
    for await (const part of source) {
      tally.add(part);
      parts.push(Buffer.from(part));
    }
    return {
      size: tally.size,
      sha256: tally.sha256(),
      commit: async () => void this.items.set(key, Buffer.concat(parts)),
      discard: async () => undefined,
    };
  }

  async get(key: string): Promise<Readable | null> {
    assertBlobKey(key);
    const bytes = this.items.get(key);
    return bytes ? Readable.from([bytes]) : null;
  }

  async has(key: string): Promise<boolean> {
    assertBlobKey(key);
    return this.items.has(key);
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    this.items.delete(key);
  }

  /** Keys held, for tests. */
  keys(): string[] {
    return [...this.items.keys()].sort();
  }
}
