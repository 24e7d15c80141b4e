import path from 'node:path';
import type { Config } from '../config';
import type { BlobStore } from './BlobStore';
import { DiskBlobStore } from './DiskBlobStore';
import { S3BlobStore, s3ClientFor } from './S3BlobStore';

/** The store the settings choose: the S3 bucket when S3_BUCKET is set, else files under DATA_DIR/blobs. */
export function createBlobStore(config: Pick<Config, 'dataDir' | 's3'>): BlobStore {
  if (config.s3) {
    // Staged chunks wait in DATA_DIR (private, 0700), not in the OS temp folder other users share.
    return new S3BlobStore(s3ClientFor(config.s3), config.s3, path.join(config.dataDir, 's3-staging'));
  }
  return new DiskBlobStore(path.join(config.dataDir, 'blobs'));
}
