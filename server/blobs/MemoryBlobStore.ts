import { Readable } from 'node:stream';
import { assertBlobKey, type BlobStore } from './BlobStore';

/** For unit tests of code written against the port; the app uses DiskBlobStore. */
export class MemoryBlobStore implements BlobStore {
  private readonly items = new Map<string, Buffer>();

  async put(key: string, bytes: Buffer): Promise<void> {
    assertBlobKey(key);
    this.items.set(key, Buffer.from(bytes));
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
