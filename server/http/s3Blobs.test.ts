/** The server with S3 settings (issue 20): chunks go to the bucket and come back byte-identical. */
import fs from 'node:fs';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHUNK_SIZE } from '../../src/protocol/vaults';
import { s3ClientFor } from '../blobs/S3BlobStore';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { TestS3Server } from '../testing/s3server';
import { expectAccepted, makeFile, newId, sealed, VaultActor } from '../testing/vaults';

const BUCKET = 'cairn-app-blobs';
let s3: TestS3Server;
beforeAll(async () => {
  s3 = await TestS3Server.start([BUCKET]);
});
afterAll(() => s3.close());

describeEachDatabase('chunks in S3', (env) => {
  it('stores an uploaded file in the bucket under S3_PREFIX and serves its chunks back byte-identical', async () => {
    const settings = s3.settings(BUCKET, { prefix: `deployment-${env.kind}` });
    const api = new ApiClient(await env.buildApp({ config: { s3: settings } }));
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault();
    const file = makeFile(CHUNK_SIZE + 1000);
    const version = await owner.upload(vaultId, file);
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version }));

    for (const [index, chunk] of file.chunks.entries()) {
      const served = await owner.getChunk(vaultId, version.blobId, index);
      expect(served.statusCode).toBe(200);
      expect(Buffer.compare(served.rawPayload, chunk)).toBe(0);
    }
    // The bytes are in the bucket, under the prefix, and not on the server's disk.
    const listed = await s3ClientFor(settings).send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${settings.prefix}/` }));
    expect((listed.Contents ?? []).map((object) => object.Key).sort()).toEqual(
      file.chunks.map((_, index) => expect.stringMatching(new RegExp(`^${settings.prefix}/${version.blobId}/${index}-[0-9a-f]{64}$`))),
    );
    expect(fs.existsSync(path.join(env.dataDir, 'blobs'))).toBe(false);
  });

  it('refuses to start on a bucket that does not exist', async () => {
    await expect(env.buildApp({ config: { s3: s3.settings('missing-bucket') } })).rejects.toThrow(
      'S3 bucket "missing-bucket" does not exist (check S3_BUCKET and S3_ENDPOINT)',
    );
  });
});
