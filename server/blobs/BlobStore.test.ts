/** One contract suite run against every implementation of the port: memory, disk and S3 (a real s3rver). */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlobStore, TooManyBytesError } from './BlobStore';
import { DiskBlobStore } from './DiskBlobStore';
import { MemoryBlobStore } from './MemoryBlobStore';
import { S3BlobStore, s3ClientFor } from './S3BlobStore';
import { TestS3Server } from '../testing/s3server';

async function readAll(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

const diskRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-blobs-'));
afterAll(() => fs.rmSync(diskRoot, { recursive: true, force: true }));

const BUCKET = 'cairn-contract';
let s3: TestS3Server | null = null;
beforeAll(async () => {
  s3 = await TestS3Server.start([BUCKET]);
});
afterAll(() => s3?.close());

let s3Stores = 0;
/** Each S3 store under its own prefix of one bucket, as each disk store has its own folder. */
function makeS3Store(): BlobStore {
  if (!s3) throw new Error('The S3 server did not start');
  s3Stores += 1;
  const settings = s3.settings(BUCKET, { prefix: `store-${s3Stores}` });
  return new S3BlobStore(s3ClientFor(settings), settings, fs.mkdtempSync(path.join(diskRoot, 'staging-')));
}

const stores: [string, () => BlobStore][] = [
  ['memory', () => new MemoryBlobStore()],
  ['disk', () => new DiskBlobStore(fs.mkdtempSync(path.join(diskRoot, 's-')))],
  ['s3', makeS3Store],
];

for (const [name, make] of stores) {
  describe(`BlobStore contract [${name}]`, () => {
    it('puts, gets, replaces and deletes', async () => {
      const store = make();
      await store.check();
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

    it('stages bytes as they arrive: readable only once committed, gone when discarded or too many', async () => {
      const store = make();
      async function* parts(...texts: string[]) {
        for (const text of texts) yield Buffer.from(text);
      }
      const staged = await store.stage('s/0', parts('ab', 'cd'), 4);
      expect({ size: staged.size, sha256: staged.sha256 }).toEqual({ size: 4, sha256: createHash('sha256').update('abcd').digest('hex') });
      expect(await store.has('s/0')).toBe(false);
      await staged.commit();
      expect((await readAll(await store.get('s/0')))?.toString()).toBe('abcd');

      const dropped = await store.stage('s/1', parts('x'), 4);
      await dropped.discard();
      expect(await store.has('s/1')).toBe(false);

      await expect(store.stage('s/2', parts('abc', 'de'), 4)).rejects.toBeInstanceOf(TooManyBytesError);
      async function* broken() {
        yield Buffer.from('a');
        throw new Error('connection reset');
      }
      await expect(store.stage('s/3', broken(), 4)).rejects.toThrow('connection reset');
      expect([await store.has('s/2'), await store.has('s/3')]).toEqual([false, false]);
    });

    it('refuses keys that could leave the store', async () => {
      const store = make();
      for (const key of ['../x', 'a/../../x', '/abs', 'a//b', '', 'a/.', 'a\\b']) {
        await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/Invalid blob key/);
        await expect(store.stage(key, [Buffer.from('x')], 4)).rejects.toThrow(/Invalid blob key/);
        await expect(store.get(key)).rejects.toThrow(/Invalid blob key/);
      }
    });
  });
}

describe('DiskBlobStore', () => {
  it('leaves no temporary file behind a stage discarded, too large or broken off', async () => {
    const root = fs.mkdtempSync(path.join(diskRoot, 'd-'));
    const store = new DiskBlobStore(root);
    await (await store.stage('blob1/0-a', [Buffer.from('bytes')], 10)).discard();
    await expect(store.stage('blob1/1-b', [Buffer.from('too many bytes')], 10)).rejects.toBeInstanceOf(TooManyBytesError);
    const fail = (async function* () {
      yield Buffer.from('half');
      throw new Error('aborted');
    })();
    await expect(store.stage('blob1/2-c', fail, 10)).rejects.toThrow('aborted');
    expect(fs.readdirSync(path.join(root, 'blob1'))).toEqual([]);
  });

  it('leaves no temporary file behind and removes empty blob directories', async () => {
    const root = fs.mkdtempSync(path.join(diskRoot, 'd-'));
    const store = new DiskBlobStore(root);
    await store.put('blob1/0-abc', Buffer.from('bytes'));
    expect(fs.readdirSync(path.join(root, 'blob1'))).toEqual(['0-abc']);
    await store.delete('blob1/0-abc');
    expect(fs.existsSync(path.join(root, 'blob1'))).toBe(false);
  });
});
