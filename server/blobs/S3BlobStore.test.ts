/** What is S3's own (the port's contract runs in BlobStore.test.ts): prefixes, readiness, errors that are not absence. */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestS3Server } from '../testing/s3server';
import { TooManyBytesError } from './BlobStore';
import { BlobStoreUnavailableError, S3BlobStore, type S3Settings, s3ClientFor } from './S3BlobStore';

const BUCKET = 'cairn-s3-store';
let s3: TestS3Server;
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-s3-store-'));

beforeAll(async () => {
  s3 = await TestS3Server.start([BUCKET]);
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(tempRoot, { recursive: true, force: true });
});

function storeFor(settings: S3Settings, stagingDir = fs.mkdtempSync(path.join(tempRoot, 'staging-'))): S3BlobStore {
  return new S3BlobStore(s3ClientFor(settings), settings, stagingDir);
}

async function text(stream: Readable | null): Promise<string | null> {
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts).toString();
}

/** A local port nothing listens on: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('S3BlobStore', () => {
  it('keeps two stores with different prefixes in one bucket apart', async () => {
    const teamA = storeFor(s3.settings(BUCKET, { prefix: 'team-a' }));
    const teamB = storeFor(s3.settings(BUCKET, { prefix: 'team-b/blobs' }));
    const wholeBucket = storeFor(s3.settings(BUCKET));

    await teamA.put('blob1/0-abc', Buffer.from('from A'));
    expect(await teamB.has('blob1/0-abc')).toBe(false);
    expect(await teamB.get('blob1/0-abc')).toBeNull();
    await teamB.put('blob1/0-abc', Buffer.from('from B'));
    expect(await text(await teamA.get('blob1/0-abc'))).toBe('from A');
    expect(await text(await teamB.get('blob1/0-abc'))).toBe('from B');
    // The objects sit under each prefix in the bucket.
    expect(await text(await wholeBucket.get('team-a/blob1/0-abc'))).toBe('from A');
    expect(await text(await wholeBucket.get('team-b/blobs/blob1/0-abc'))).toBe('from B');
    expect(await wholeBucket.has('blob1/0-abc')).toBe(false);

    await teamA.delete('blob1/0-abc');
    expect([await teamA.has('blob1/0-abc'), await teamB.has('blob1/0-abc')]).toEqual([false, true]);
  });

  it('is ready when the bucket exists and the credentials are good', async () => {
    await expect(storeFor(s3.settings(BUCKET)).check()).resolves.toBeUndefined();
  });

  it('says at start that the bucket is missing, the credentials are refused, or the server is unreachable', async () => {
    const missing = storeFor(s3.settings('no-such-bucket'));
    await expect(missing.check()).rejects.toThrow(new BlobStoreUnavailableError('S3 bucket "no-such-bucket" does not exist (check S3_BUCKET and S3_ENDPOINT)'));

    const refused = 'S3 bucket "cairn-s3-store" refused the credentials (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)';
    // s3rver refuses an unknown access key (AWS S3 also a wrong secret; s3rver skips SigV4's check).
    const unknownKey = storeFor(s3.settings(BUCKET, { credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'S3RVER' } }));
    await expect(unknownKey.check()).rejects.toThrow(refused);

    const unreachable = storeFor(s3.settings(BUCKET, { endpoint: `http://127.0.0.1:${await closedPort()}` }));
    await expect(unreachable.check()).rejects.toThrow(/^S3 bucket "cairn-s3-store" cannot be reached: /);
  });

  it('surfaces a missing bucket, refused credentials and network errors as errors, never as an absent chunk', async () => {
    const missingBucket = storeFor(s3.settings('no-such-bucket'));
    await expect(missingBucket.get('blob1/0-abc')).rejects.toThrow();
    const unknownKey = storeFor(s3.settings(BUCKET, { credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'S3RVER' } }));
    await expect(unknownKey.get('blob1/0-abc')).rejects.toThrow();
    await expect(unknownKey.has('blob1/0-abc')).rejects.toThrow();

    const unreachable = storeFor(s3.settings(BUCKET, { endpoint: `http://127.0.0.1:${await closedPort()}` }));
    await expect(unreachable.get('blob1/0-abc')).rejects.toThrow();
    await expect(unreachable.has('blob1/0-abc')).rejects.toThrow();
    await expect(unreachable.put('blob1/0-abc', Buffer.from('x'))).rejects.toThrow();
    await expect(unreachable.delete('blob1/0-abc')).rejects.toThrow();
    const staged = await unreachable.stage('blob1/1-def', [Buffer.from('bytes')], 10);
    await expect(staged.commit()).rejects.toThrow();
  });

  it('stages in a private temporary file in its staging folder, removed once committed, discarded, too large or broken off', async () => {
    const stagingDir = path.join(tempRoot, 'private-staging');
    const store = storeFor(s3.settings(BUCKET, { prefix: 'staging-test' }), stagingDir);

    const staged = await store.stage('blob1/0-a', [Buffer.from('ab'), Buffer.from('cd')], 10);
    const [temp] = fs.readdirSync(stagingDir);
    expect(fs.statSync(path.join(stagingDir, temp ?? '')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(stagingDir).mode & 0o777).toBe(0o700);
    await staged.commit();
    expect(await text(await store.get('blob1/0-a'))).toBe('abcd');

    await (await store.stage('blob1/1-b', [Buffer.from('bytes')], 10)).discard();
    await expect(store.stage('blob1/2-c', [Buffer.from('too many bytes')], 10)).rejects.toBeInstanceOf(TooManyBytesError);
    const broken = (async function* () {
      yield Buffer.from('half');
      throw new Error('aborted');
    })();
    await expect(store.stage('blob1/3-d', broken, 10)).rejects.toThrow('aborted');
    expect(fs.readdirSync(stagingDir)).toEqual([]);
    expect([await store.has('blob1/1-b'), await store.has('blob1/2-c'), await store.has('blob1/3-d')]).toEqual([false, false, false]);
  });
});
