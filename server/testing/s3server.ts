/**
 * A real S3-compatible server (s3rver) for a test, in this process on a free port with its data in
 * a temporary directory, so the S3 blob store is tested against S3's wire protocol rather than a
 * fake. s3rver knows one access key, S3RVER (secret S3RVER), and refuses others; unlike AWS S3 it
 * does not check a SigV4 signature, so a wrong secret with that key passes.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { S3Settings } from '../blobs/S3BlobStore';

/** The part of s3rver's API used here (the package ships no types). */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

export const TEST_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export class TestS3Server {
  private constructor(
    private readonly server: S3rverInstance,
    private readonly dir: string,
    readonly endpoint: string,
  ) {}

  /** Starts a server holding the (empty) buckets `buckets`. */
  static async start(buckets: string[]): Promise<TestS3Server> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-s3-'));
    const server = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true, configureBuckets: buckets.map((name) => ({ name })) });
    const address = await server.run();
    return new TestS3Server(server, dir, `http://127.0.0.1:${address.port}`);
  }

  /** Settings reaching `bucket` on this server with its valid credentials. */
  settings(bucket: string, overrides: Partial<S3Settings> = {}): S3Settings {
    return { endpoint: this.endpoint, bucket, region: 'us-east-1', credentials: TEST_S3_CREDENTIALS, forcePathStyle: true, prefix: '', ...overrides };
  }

  async close(): Promise<void> {
    await this.server.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
