/** One contract suite run against both implementations of the port. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { BlobStore } from './BlobStore';
import { DiskBlobStore } from './DiskBlobStore';
import { MemoryBlobStore } from './MemoryBlobStore';

async function readAll(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

const diskRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-blobs-'));
afterAll(() => fs.rmSync(diskRoot, { recursive: true, force: true }));

const stores: [string, () => BlobStore][] = [
  ['memory', () => new MemoryBlobStore()],
  ['disk', () => new DiskBlobStore(fs.mkdtempSync(path.join(diskRoot, 's-')))],
];

for (const [name, make] of stores) {
  describe(`BlobStore contract [${name}]`, () => {
    it('puts, gets, replaces and deletes', async () => {
      const store = make();
      expect(await store.has('a/0')).toBe(false);
      expect(await store.get('a/0')).toBeNull();
      await store.put('a/0', Buffer.from('first'));
      expect(await store.has('a/0')).toBe(true);
      expect((await readAll(await store.get('a/0')))?.toString()).toBe('first');
      await store.put('a/0', Buffer.from('second'));
      expect((await readAll(await store.get('a/0')))?.toString()).toBe('second');
      await store.put('a/1', Buffer.alloc(0));
      expect((await readAll(await store.get('a/1')))?.length).toBe(0);
      await store.delete('a/0');
      await store.delete('a/0');
      expect(await store.has('a/0')).toBe(false);
      expect(await store.has('a/1')).toBe(true);
    });

    it('refuses keys that could leave the store', async () => {
      const store = make();
      for (const key of ['../x', 'a/../../x', '/abs', 'a//b', '', 'a/.', 'a\\b']) {
        await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/Invalid blob key/);
      }
    });
  });
}

describe('DiskBlobStore', () => {
  it('leaves no temporary file behind and removes empty blob directories', async () => {
    const root = fs.mkdtempSync(path.join(diskRoot, 'd-'));
    const store = new DiskBlobStore(root);
    await store.put('blob1/0-abc', Buffer.from('bytes'));
    expect(fs.readdirSync(path.join(root, 'blob1'))).toEqual(['0-abc']);
    await store.delete('blob1/0-abc');
    expect(fs.existsSync(path.join(root, 'blob1'))).toBe(false);
  });
});
