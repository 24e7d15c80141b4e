/** Signed-out reads of public vaults (SYNC_SPEC R40): public ones only, read-only, gone once deleted. */
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { PublicVaultSummary } from '../../src/protocol/publicVaults';
import type { Thumbnail } from '../../src/protocol/thumbnails';
import { PullResponse } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { expectError, expectStatus } from '../testing/flows';
import { PUBLIC_RATE_FACTOR } from './publicRoutes';
import { describeEachDatabase } from '../testing/databases';
import { clear, expectAccepted, makeFile, newId, sealed, sha256Hex, VaultActor } from '../testing/vaults';

describeEachDatabase('public vaults, signed out', (env) => {
  let api: ApiClient;
  let owner: VaultActor;
  let publicId: string;
  let privateId: string;
  let publicFile: { blobId: string; chunk: Buffer };
  let privateBlobId: string;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
    publicId = await owner.createVault({ isPublic: true });
    privateId = await owner.createVault();
    const file = makeFile(1000, { isPublic: true });
    const version = await owner.upload(publicId, file, { isPublic: true });
    expectAccepted(await owner.apply(publicId, newId(), { type: 'file.create', parentId: null, name: clear('hello.txt'), version }));
    publicFile = { blobId: version.blobId, chunk: file.chunks[0]! };
    const secret = await owner.upload(privateId, makeFile(1000));
    expectAccepted(await owner.apply(privateId, newId(), { type: 'file.create', parentId: null, name: sealed(), version: { ...secret } }));
    privateBlobId = secret.blobId;
  });

  it('serves a public vault summary, its operations and its chunks without a session', async () => {
    const summary = PublicVaultSummary.parse((await api.get(`/api/public/vaults/${publicId}`)).body);
    expect(summary).toMatchObject({ vaultId: publicId, status: 'ACTIVE', headSeq: 2, ownerAddress: owner.user.address });
    const page = PullResponse.parse((await api.get(`/api/public/vaults/${publicId}/ops?after=0`)).body);
    expect(page.ops.map((o) => o.op.body.type)).toEqual(['vault.create', 'file.create']);
    expect(page).toMatchObject({ headSeq: 2, hasMore: false });
    const after1 = PullResponse.parse((await api.get(`/api/public/vaults/${publicId}/ops?after=1&limit=1`)).body);
    expect(after1.ops.map((o) => o.seq)).toEqual([2]);
    const chunk = await api.app.inject({ method: 'GET', url: `/api/public/vaults/${publicId}/blobs/${publicFile.blobId}/chunks/0` });
    expect(chunk.statusCode).toBe(200);
    expect(chunk.rawPayload.equals(publicFile.chunk)).toBe(true);
  });

  it('answers a private vault exactly like an unknown id, for every read', async () => {
    const unknown = newId();
    for (const suffix of ['', '/ops?after=0', `/blobs/${privateBlobId}/chunks/0`]) {
      const forPrivate = await api.get(`/api/public/vaults/${privateId}${suffix}`);
      const forUnknown = await api.get(`/api/public/vaults/${unknown}${suffix}`);
      expect(forPrivate.status).toBe(404);
      expect(forPrivate.raw).toBe(forUnknown.raw);
    }
    // Even its owner, signed in, gets nothing through the public area.
    expect((await api.get(`/api/public/vaults/${privateId}/ops?after=0`, { token: owner.token })).status).toBe(404);
  });

  it('serves no chunk of another vault through a public vault id', async () => {
    const res = await api.get(`/api/public/vaults/${publicId}/blobs/${privateBlobId}/chunks/0`);
    expect(res.status).toBe(404);
  });

  it('serves no chunk of a hidden file', async () => {
    const file = makeFile(500, { isPublic: true });
    const version = await owner.upload(publicId, file, { isPublic: true });
    const fileId = newId();
    expectAccepted(await owner.apply(publicId, fileId, { type: 'file.create', parentId: null, name: clear('later-hidden.txt'), version }));
    const url = `/api/public/vaults/${publicId}/blobs/${version.blobId}/chunks/0`;
    expect((await api.get(url)).status).toBe(200);
    expectAccepted(await owner.apply(publicId, fileId, { type: 'node.hide' }));
    expect((await api.get(url)).status).toBe(404);
    expectAccepted(await owner.apply(publicId, fileId, { type: 'node.restore' }));
    expect((await api.get(url)).status).toBe(200);
  });

  /** Stores `bytes` as a one-chunk blob in `inVault`; answers the thumbnail naming it (R79). */
  async function sendThumbnail(inVault: string, bytes: Buffer): Promise<Thumbnail> {
    const blobId = newId();
    expectStatus(await owner.announce(inVault, blobId, bytes.length, 1), 200);
    expectStatus(await owner.putChunk(inVault, blobId, 0, bytes), 200);
    return { blobId, storedSize: bytes.length, sha256: sha256Hex(bytes), width: 200, height: 100 };
  }

  it('[R53][R79b] serves the thumbnail of a shown file signed out; refuses that of a private vault, of a hidden file, under a hidden folder or not committed', async () => {
    const thumbUrl = (vault: string, thumbnail: Thumbnail) => `/api/public/vaults/${vault}/blobs/${thumbnail.blobId}/chunks/0`;
    // A public image with its clear thumbnail: a signed-out viewer gets the stored bytes.
    const image = crypto.randomBytes(2000);
    const shown = await sendThumbnail(publicId, image);
    const shownId = newId();
    const version = { ...(await owner.upload(publicId, makeFile(5000, { isPublic: true }), { isPublic: true })), thumbnail: shown };
    expectAccepted(await owner.apply(publicId, shownId, { type: 'file.create', parentId: null, name: clear('peak.png'), version }));
    const served = await api.app.inject({ method: 'GET', url: thumbUrl(publicId, shown) });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(image)).toBe(true);

    // A private vault's (sealed) thumbnail: answered like an unknown vault, through its own id or a public one.
    const sealedThumb = await sendThumbnail(privateId, crypto.randomBytes(900));
    const secret = { ...(await owner.upload(privateId, makeFile(100))), thumbnail: sealedThumb };
    expectAccepted(await owner.apply(privateId, newId(), { type: 'file.create', parentId: null, name: sealed(), version: secret }));
    const forPrivate = await api.get(thumbUrl(privateId, sealedThumb));
    expect(forPrivate.status).toBe(404);
    expect(forPrivate.raw).toBe((await api.get(thumbUrl(newId(), sealedThumb))).raw);
    expect((await api.get(thumbUrl(publicId, sealedThumb))).status).toBe(404);

    // A hidden file's thumbnail goes with it, and comes back when it is restored.
    expectAccepted(await owner.apply(publicId, shownId, { type: 'node.hide' }));
    expect((await api.get(thumbUrl(publicId, shown))).status).toBe(404);
    expectAccepted(await owner.apply(publicId, shownId, { type: 'node.restore' }));
    expect((await api.get(thumbUrl(publicId, shown))).status).toBe(200);

    // A file under a hidden folder: its thumbnail is not served either.
    const folderId = newId();
    expectAccepted(await owner.apply(publicId, folderId, { type: 'folder.create', parentId: null, name: clear('Drafts') }));
    const inFolder = await sendThumbnail(publicId, crypto.randomBytes(700));
    const nested = { ...(await owner.upload(publicId, makeFile(300, { isPublic: true }), { isPublic: true })), thumbnail: inFolder };
    expectAccepted(await owner.apply(publicId, newId(), { type: 'file.create', parentId: folderId, name: clear('draft.png'), version: nested }));
    expect((await api.get(thumbUrl(publicId, inFolder))).status).toBe(200);
    expectAccepted(await owner.apply(publicId, folderId, { type: 'node.hide' }));
    expect((await api.get(thumbUrl(publicId, inFolder))).status).toBe(404);

    // Uploaded but named by no operation yet: nobody's thumbnail, not served.
    const loose = await sendThumbnail(publicId, crypto.randomBytes(300));
    expect((await api.get(thumbUrl(publicId, loose))).status).toBe(404);
  });

  it('validates parameters at the edge', async () => {
    expect((await api.get(`/api/public/vaults/${publicId}/ops`)).status).toBe(400);
    expect((await api.get(`/api/public/vaults/${publicId}/ops?after=-1`)).status).toBe(400);
    expect((await api.get(`/api/public/vaults/bad%20id`)).status).toBe(400);
  });

  it('accepts no write of any kind', async () => {
    const before = PublicVaultSummary.parse((await api.get(`/api/public/vaults/${publicId}`)).body).headSeq;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of [`/api/public/vaults/${publicId}`, `/api/public/vaults/${publicId}/ops`, `/api/public/vaults/${publicId}/blobs/${publicFile.blobId}/chunks/0`]) {
        const res = await api.request(method, url, {});
        expect(res.status, `${method} ${url}`).toBe(404);
      }
    }
    // The vault is unchanged.
    expect(PublicVaultSummary.parse((await api.get(`/api/public/vaults/${publicId}`)).body).headSeq).toBe(before);
  });

  it('rate-limits the public reads per IP and route at PUBLIC_RATE_FACTOR times the sign-in limit', async () => {
    const limited = new ApiClient(await env.buildApp({ config: { authRateLimit: 1 } }));
    const url = `/api/public/vaults/${publicId}`;
    for (let i = 0; i < PUBLIC_RATE_FACTOR; i++) expect((await limited.get(url)).status).toBe(200);
    expectError(await limited.get(url), 429, 'RATE_LIMITED');
    // Another route keeps its own count.
    expect((await limited.get(`${url}/ops?after=0`)).status).toBe(200);
  });

  it('forgets a public vault once deleted', async () => {
    const doomed = await owner.createVault({ isPublic: true });
    expect((await api.get(`/api/public/vaults/${doomed}`)).status).toBe(200);
    expectAccepted(await owner.apply(doomed, doomed, { type: 'vault.archive' }));
    expect(PublicVaultSummary.parse((await api.get(`/api/public/vaults/${doomed}`)).body).status).toBe('ARCHIVED');
    expectAccepted(await owner.apply(doomed, doomed, { type: 'vault.delete' }));
    const gone = await api.get(`/api/public/vaults/${doomed}`);
    expect(gone.status).toBe(404);
    expect(gone.raw).toBe((await api.get(`/api/public/vaults/${newId()}`)).raw);
    expect((await api.get(`/api/public/vaults/${doomed}/ops?after=0`)).status).toBe(404);
  });
});
