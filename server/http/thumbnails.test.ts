/**
 * Issue 26, SYNC_SPEC R79: a file version may name a thumbnail, a blob of one chunk the uploader
 * sent beside the content. The server cannot see a private vault's image, so it checks the
 * structure: same vault and uploader, one chunk, the signed size (at most 64 KiB plus nonce and
 * tag) and hash; a bad one rejects the whole operation and changes nothing.
 */
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { THUMBNAIL_LIMITS, type Thumbnail } from '../../src/protocol/thumbnails';
import type { FileVersion } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { countVaultRows, expectAccepted, expectRejected, makeFile, newId, sealed, sha256Hex, VaultActor, vaultState } from '../testing/vaults';

describeEachDatabase('thumbnails', (env) => {
  let api: ApiClient;
  let owner: VaultActor;
  let other: VaultActor;
  let vaultId: string;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp({ config: { authRateLimit: 1_000_000 } }));
    owner = await VaultActor.create(env, api);
    other = await VaultActor.create(env, api);
    vaultId = await owner.createVault();
  });

  /** Announces and stores `bytes` as a one-chunk blob by `actor`; answers the thumbnail naming it. */
  async function sendThumbnail(actor: VaultActor, bytes: Buffer, options: { inVault?: string; announced?: number } = {}): Promise<Thumbnail> {
    const blobId = newId();
    const target = options.inVault ?? vaultId;
    expectStatus(await actor.announce(target, blobId, options.announced ?? bytes.length, 1), 200);
    expectStatus(await actor.putChunk(target, blobId, 0, bytes), 200);
    return { blobId, storedSize: bytes.length, sha256: sha256Hex(bytes), width: 256, height: 171 };
  }

  async function newFile(version: FileVersion) {
    return owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version });
  }

  it('[R79] accepts a version with its sealed thumbnail; members read it back as stored, and the file keeps it', async () => {
    const image = crypto.randomBytes(20_000 + THUMBNAIL_LIMITS.SEAL_OVERHEAD);
    const thumbnail = await sendThumbnail(owner, image);
    const version = { ...(await owner.upload(vaultId, makeFile(50_000))), thumbnail };
    const fileId = newId();
    expectAccepted(await owner.apply(vaultId, fileId, { type: 'file.create', parentId: null, name: sealed(), version }));

    const read = await owner.getChunk(vaultId, thumbnail.blobId, 0);
    expect(read.statusCode).toBe(200);
    expect(Buffer.from(read.rawPayload).equals(image)).toBe(true);
    // The pulled operation carries it, so every member's device finds it.
    const pulled = await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: owner.token });
    expect(JSON.stringify(pulled.body)).toContain(thumbnail.blobId);

    // A new version with a thumbnail of its own.
    const next = await sendThumbnail(owner, crypto.randomBytes(900));
    const second = { ...(await owner.upload(vaultId, makeFile(10))), thumbnail: next };
    expectAccepted(await owner.apply(vaultId, fileId, { type: 'file.addVersion', version: second }));
  });

  it('[R79] versions without a thumbnail are accepted as before', async () => {
    expectAccepted(await newFile(await owner.upload(vaultId, makeFile(100))));
  });

  it('[R79] refuses a thumbnail over 64 KiB, of another uploader or vault, or not as signed, and changes nothing', async () => {
    const otherVault = await other.createVault();
    const cases: [string, () => Promise<FileVersion>][] = [
      [
        'too large',
        async () => {
          const big = crypto.randomBytes(THUMBNAIL_LIMITS.BYTES + THUMBNAIL_LIMITS.SEAL_OVERHEAD + 1);
          const blobId = newId();
          expectStatus(await owner.announce(vaultId, blobId, big.length, 1), 200);
          expectStatus(await owner.putChunk(vaultId, blobId, 0, big), 200);
          // The schema refuses the size itself; past it, the rule refuses too.
          return { ...(await owner.upload(vaultId, makeFile(10))), thumbnail: { blobId, storedSize: THUMBNAIL_LIMITS.BYTES + THUMBNAIL_LIMITS.SEAL_OVERHEAD, sha256: sha256Hex(big), width: 1, height: 1 } };
        },
      ],
      ['another uploader', async () => ({ ...(await owner.upload(vaultId, makeFile(10))), thumbnail: await sendThumbnail(other, crypto.randomBytes(500), { inVault: otherVault }) })],
      [
        'another hash',
        async () => {
          const thumbnail = await sendThumbnail(owner, crypto.randomBytes(500));
          return { ...(await owner.upload(vaultId, makeFile(10))), thumbnail: { ...thumbnail, sha256: sha256Hex(crypto.randomBytes(8)) } };
        },
      ],
      [
        'another size',
        async () => {
          const thumbnail = await sendThumbnail(owner, crypto.randomBytes(500));
          return { ...(await owner.upload(vaultId, makeFile(10))), thumbnail: { ...thumbnail, storedSize: 499 } };
        },
      ],
      [
        'its own content',
        async () => {
          const version = await owner.upload(vaultId, makeFile(10));
          return { ...version, thumbnail: { blobId: version.blobId, storedSize: version.storedSize, sha256: version.chunkHashes[0]!, width: 10, height: 10 } };
        },
      ],
      [
        'missing',
        async () => ({ ...(await owner.upload(vaultId, makeFile(10))), thumbnail: { blobId: newId(), storedSize: 100, sha256: sha256Hex(Buffer.from('x')), width: 10, height: 10 } }),
      ],
    ];
    for (const [label, make] of cases) {
      const version = await make();
      const before = { rows: await countVaultRows(env.db), vault: await vaultState(env.db, vaultId) };
      const result = await newFile(version);
      expect(result.status, label).toBe('rejected');
      expectRejected(result, 'INVALID_OPERATION');
      expect({ rows: await countVaultRows(env.db), vault: await vaultState(env.db, vaultId) }, label).toEqual(before);
    }
  });

  it('[R79] a thumbnail cannot serve two files', async () => {
    const thumbnail = await sendThumbnail(owner, crypto.randomBytes(700));
    expectAccepted(await newFile({ ...(await owner.upload(vaultId, makeFile(10))), thumbnail }));
    expectRejected(await newFile({ ...(await owner.upload(vaultId, makeFile(10))), thumbnail }), 'INVALID_OPERATION');
  });

  it('[R79] an oversized or malformed thumbnail is refused by the schema', async () => {
    const version = await owner.upload(vaultId, makeFile(10));
    const op = await owner.sign(vaultId, newId(), {
      type: 'file.create',
      parentId: null,
      name: sealed(),
      version: { ...version, thumbnail: { blobId: newId(), storedSize: 70_000, sha256: 'ab', width: 300, height: 0 } },
    } as never);
    const response = await owner.pushRaw([op]);
    expect(response.status).toBe(400);
  });
});
