import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { makePrivateDir } from '../privateFiles';
import { assertBlobKey, type BlobStore, type ByteSource, type StagedBytes, writeStagedFile } from './BlobStore';

/** Where and how to reach the bucket (the S3_* settings). */
export interface S3Settings {
  /** An S3-compatible server's URL (MinIO, R2...); null: AWS S3 for `region`. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** Both or neither; neither: the SDK's default credential chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
  /** Prepended to every key with a '/', so several stores (or deployments) share one bucket; '' for none. */
  prefix: string;
}

/** The bucket cannot be used: missing, refused credentials, unreachable. One line for the operator. */
export class BlobStoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BlobStoreUnavailableError';
  }
}

export function s3ClientFor(settings: S3Settings): S3Client {
  const config: S3ClientConfig = {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 requires them: the SDK's default (a CRC32 trailer in aws-chunked
    // encoding) is not understood by every S3-compatible server, and `stage` already hashes.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  };
  return new S3Client(config);
}

/**
 * Objects in one bucket, under `prefix`. A PutObject is atomic (a reader sees the old object or
 * the new one), so `put` is one request. `stage` streams the request body to a private temporary
 * file under `stagingDir` (in DATA_DIR) while StageTally counts and hashes it; `commit` sends that
 * file in one PutObject and removes it, `discard` only removes it: a refused chunk never reaches
 * the bucket (docs/decisions.md, "S3 blob store").
 */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly settings: Pick<S3Settings, 'bucket' | 'prefix'>,
    private readonly stagingDir: string,
  ) {}

  async check(): Promise<void> {
    const where = `S3 bucket "${this.settings.bucket}"`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }));
    } catch (error) {
      const status = statusOf(error);
      // HEAD answers carry no body, so the status is all S3 says.
      if (status === 404) throw new BlobStoreUnavailableError(`${where} does not exist (check S3_BUCKET and S3_ENDPOINT)`, { cause: error });
      if (status === 403 || status === 401) {
        throw new BlobStoreUnavailableError(`${where} refused the credentials (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)`, { cause: error });
      }
      throw new BlobStoreUnavailableError(`${where} cannot be reached: ${messageOf(error)}`, { cause: error });
    }
    await makePrivateDir(this.stagingDir);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), Body: bytes, ContentLength: bytes.length }));
  }

  async stage(key: string, source: ByteSource, maxBytes: number): Promise<StagedBytes> {
    const objectKey = this.objectKey(key);
    await makePrivateDir(this.stagingDir);
    const temp = path.join(this.stagingDir, `${crypto.randomBytes(12).toString('hex')}.tmp`);
    const discard = () => fs.promises.rm(temp, { force: true });
    const tally = await writeStagedFile(temp, source, maxBytes);
    const size = tally.size;
    return {
      size,
      sha256: tally.sha256(),
      commit: async () => {
        try {
          // A file stream with its length: the SDK sends it as it reads, not buffered whole.
          await this.client.send(
            new PutObjectCommand({ Bucket: this.settings.bucket, Key: objectKey, Body: fs.createReadStream(temp), ContentLength: size }),
          );
        } finally {
          await discard();
        }
      },
      discard,
    };
  }

  async get(key: string): Promise<Readable | null> {
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      const body = response.Body;
      if (body instanceof Readable) return body;
      // Not Node's own stream (another runtime's SDK build): read it through the SDK's helper.
      if (!body) return Readable.from([]);
      return Readable.from([Buffer.from(await body.transformToByteArray())]);
    } catch (error) {
      // Only "no such key" is absence; a missing bucket, refused credentials or a network error
      // must surface, or a caller would take an outage for lost chunks.
      if (nameOf(error) === 'NoSuchKey') return null;
      throw error;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (error) {
      // A HEAD has no error body: 404 is the object's absence (check() vouched for the bucket).
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // S3's DeleteObject answers 204 for an absent key too: idempotent as the port asks.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  /** Every key in the store (the port's keys, without the prefix), page by page: what a backup records. */
  async *listKeys(): AsyncIterable<string> {
    const prefix = this.settings.prefix ? `${this.settings.prefix}/` : '';
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: prefix || undefined, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key.slice(prefix.length);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private objectKey(key: string): string {
    assertBlobKey(key);
    return this.settings.prefix ? `${this.settings.prefix}/${key}` : key;
  }
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('$metadata' in error)) return undefined;
  const metadata = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
  return metadata?.httpStatusCode;
}

function nameOf(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}
