/**
 * The signed-out projection of a public vault (SYNC_SPEC R41) against the real server: built from
 * /api/public only (no session), signatures checked, clear names, folders before files, the
 * breadcrumb, byte-exact download with chunk hashes checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ApiClient } from '../../server/testing/ApiClient';
import { TestEnv } from '../../server/testing/databases';
import { expectStatus } from '../../server/testing/flows';
import { clear, expectAccepted, makeFile, newId, sha256Hex, VaultActor } from '../../server/testing/vaults';
import { downloadPublicFile, folderPath, listChildren, loadPublicThumbnail, loadPublicVault, PUBLIC_ACCOUNT_ID, type PublicFetch, PublicVaultError } from './publicProjection';

const env = new TestEnv('sqlite');
let app: FastifyInstance;
let owner: VaultActor;
let vaultId: string;
let privateId: string;
const folderId = newId();
const nestedId = newId();
const fileId = newId();
let fileBytes: Buffer;

/** Signed out: no token, no cookie, straight to the app. */
const publicFetch: PublicFetch = async (path) => {
  const response = await app.inject({ method: 'GET', url: `/api/public${path}` });
  return new Response(new Uint8Array(response.rawPayload), { status: response.statusCode });
};

beforeAll(async () => {
  await env.setUp();
  app = await env.buildApp();
  owner = await VaultActor.create(env, new ApiClient(app));
  vaultId = await owner.createVault({ isPublic: true });
  privateId = await owner.createVault();
  expectAccepted(await owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: clear('Photos') }));
  expectAccepted(await owner.apply(vaultId, nestedId, { type: 'folder.create', parentId: folderId, name: clear('2024') }));
  const file = makeFile(3000, { isPublic: true });
  fileBytes = file.chunks[0]!;
  const version = await owner.upload(vaultId, file, { isPublic: true });
  expectAccepted(await owner.apply(vaultId, fileId, { type: 'file.create', parentId: null, name: clear('readme.txt'), version }));
  const gone = await owner.upload(vaultId, makeFile(10, { isPublic: true }), { isPublic: true });
  const goneId = newId();
  expectAccepted(await owner.apply(vaultId, goneId, { type: 'file.create', parentId: null, name: clear('hidden.txt'), version: gone }));
  expectAccepted(await owner.apply(vaultId, goneId, { type: 'node.hide' }));
}, 60_000);

afterAll(() => env.tearDown());

describe('the public projection', () => {
  it('projects a public vault signed out: vault name, folders then files, hidden files left out', async () => {
    const { state, summary, unverified } = await loadPublicVault(vaultId, publicFetch);
    expect(unverified).toBe(0);
    expect(summary.vaultId).toBe(vaultId);
    expect(state.vault).toMatchObject({ name: 'Public vault', isPublic: true, role: 'VIEWER', accountId: PUBLIC_ACCOUNT_ID, cursor: summary.headSeq });
    expect(listChildren(state, null).map((n) => [n.kind, n.name])).toEqual([
      ['folder', 'Photos'],
      ['file', 'readme.txt'],
    ]);
    expect(listChildren(state, folderId).map((n) => n.name)).toEqual(['2024']);
    expect(folderPath(state, nestedId).map((n) => n.name)).toEqual(['Photos', '2024']);
    expect(folderPath(state, 'nope')).toEqual([]);
    expect(state.nodes.get(fileId)).toMatchObject({ size: 3000, mimeType: 'text/plain' });
  });

  it('downloads a file byte for byte, and refuses a chunk that is not what the uploader signed', async () => {
    const { state } = await loadPublicVault(vaultId, publicFetch);
    const blob = await downloadPublicFile(state, fileId, publicFetch);
    expect(Buffer.from(await blob.arrayBuffer()).equals(fileBytes)).toBe(true);
    const tampering: PublicFetch = async (path) => {
      const response = await publicFetch(path);
      if (!path.includes('/chunks/')) return response;
      const bytes = new Uint8Array(await response.arrayBuffer());
      bytes[0] = bytes[0]! ^ 1;
      return new Response(bytes, { status: 200 });
    };
    await expect(downloadPublicFile(state, fileId, tampering)).rejects.toMatchObject({ code: 'CHUNK_TAMPERED' });
  });

  it('skips an operation whose signature does not verify', async () => {
    const forging: PublicFetch = async (path) => {
      const response = await publicFetch(path);
      if (!path.includes('/ops')) return response;
      return new Response((await response.text()).replace('"readme.txt"', '"evil.txt"'), { status: 200 });
    };
    const { state, unverified } = await loadPublicVault(vaultId, forging);
    expect(unverified).toBe(1);
    expect(listChildren(state, null).map((n) => n.name)).toEqual(['Photos']);
  });

  it('answers NOT_FOUND for a private vault and an unknown id alike', async () => {
    for (const id of [privateId, newId()]) {
      const error = await loadPublicVault(id, publicFetch).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PublicVaultError);
      expect(error).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('[R53] pulls to the head through pages the server emptied of what the public may not see', async () => {
    // After the hidden file (two operations the public area leaves out), one more shown file.
    const laterId = newId();
    const later = await owner.upload(vaultId, makeFile(20, { isPublic: true }), { isPublic: true });
    expectAccepted(await owner.apply(vaultId, laterId, { type: 'file.create', parentId: null, name: clear('later.txt'), version: later }));
    // One operation a page, so the hidden file's operations make pages with nothing in them.
    const onePerPage: PublicFetch = (path) => publicFetch(path.replace(/limit=\d+/, 'limit=1'));
    const { state, summary } = await loadPublicVault(vaultId, onePerPage);
    expect(listChildren(state, null).map((n) => n.name)).toEqual(['Photos', 'later.txt', 'readme.txt']);
    expect(state.vault.cursor).toBe(summary.headSeq);
  });
  it('[R79b] loads the clear thumbnail of a public file signed out, checked against its signed hash; a file without one has none', async () => {
    const image = Buffer.from('RIFF....WEBPVP8 a small clear thumbnail');
    const thumbBlobId = newId();
    expectStatus(await owner.announce(vaultId, thumbBlobId, image.length, 1), 200);
    expectStatus(await owner.putChunk(vaultId, thumbBlobId, 0, image), 200);
    const version = await owner.upload(vaultId, makeFile(800, { isPublic: true }), { isPublic: true });
    const photoId = newId();
    const thumbnail = { blobId: thumbBlobId, storedSize: image.length, sha256: sha256Hex(image), width: 256, height: 160 };
    expectAccepted(await owner.apply(vaultId, photoId, { type: 'file.create', parentId: null, name: clear('peak.png'), version: { ...version, thumbnail } }));

    const { state } = await loadPublicVault(vaultId, publicFetch);
    const loaded = await loadPublicThumbnail(state, photoId, publicFetch);
    expect(Buffer.from(await loaded!.arrayBuffer()).equals(image)).toBe(true);
    expect(await loadPublicThumbnail(state, fileId, publicFetch)).toBeNull();
    const tampering: PublicFetch = async (path) => {
      if (!path.includes(thumbBlobId)) return publicFetch(path);
      return new Response(new Uint8Array(Buffer.from('RIFF....WEBPVP8 another picture')), { status: 200 });
    };
    await expect(loadPublicThumbnail(state, photoId, tampering)).rejects.toMatchObject({ code: 'CHUNK_TAMPERED' });
  });
});
