/**
 * What a signed-out visitor of a public vault is served (SYNC_SPEC R53): the vault's own
 * operations and those of files and folders shown now, nothing of its members (e-mail addresses,
 * airdrop names and expiries), nothing of hidden or deleted files and folders or of what lies
 * under them, not even their bytes. Pages keep seq order with gaps; `nextAfter` leads to the head.
 */
import { beforeAll, expect, it } from 'vitest';
import { PublicPullResponse, PublicVaultSummary } from '../../src/protocol/publicVaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { invite } from '../testing/members';
import { TestUser } from '../testing/TestUser';
import { clear, expectAccepted, makeFile, newId, VaultActor } from '../testing/vaults';

describeEachDatabase('public vaults serve only what a viewer needs', (env) => {
  let api: ApiClient;
  let owner: VaultActor;
  let invitee: VaultActor;
  let vaultId: string;
  const hiddenFolderId = newId();
  const secretFileId = newId();
  const movedOutId = newId();
  const shownFileId = newId();
  let secretBlobId: string;
  let shownBlobId: string;

  /** Every page from `after=0` with `limit`, following `nextAfter` as the viewer does. */
  async function pullAll(limit: number): Promise<{ pages: PublicPullResponse[]; raw: string }> {
    const pages: PublicPullResponse[] = [];
    let raw = '';
    let after = 0;
    for (let guard = 0; guard < 100; guard++) {
      const response = await api.get(`/api/public/vaults/${vaultId}/ops?after=${after}&limit=${limit}`);
      expect(response.status).toBe(200);
      raw += response.raw;
      const page = PublicPullResponse.parse(response.body);
      pages.push(page);
      after = page.nextAfter;
      if (!page.hasMore) break;
    }
    return { pages, raw };
  }

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
    invitee = await VaultActor.create(env, api);
    vaultId = await owner.createVault({ isPublic: true });
    expectAccepted(await invite(owner, vaultId, invitee, 'VIEWER', null));
    const guest = await TestUser.create();
    expectAccepted(
      await owner.apply(vaultId, newId(), {
        type: 'member.airdrop',
        name: clear('Link for Quentin Marsh'),
        role: 'VIEWER',
        memberKey: guest.publicSigningKey,
        memberEncryptionKey: guest.publicEncryptionKey,
        expiresAt: Date.now() + 86_400_000,
        storageAllowance: 0,
      }),
    );
    expectAccepted(await owner.apply(vaultId, hiddenFolderId, { type: 'folder.create', parentId: null, name: clear('Confidential drafts') }));
    const secret = makeFile(400, { isPublic: true });
    const secretVersion = await owner.upload(vaultId, secret, { isPublic: true });
    secretBlobId = secretVersion.blobId;
    expectAccepted(await owner.apply(vaultId, secretFileId, { type: 'file.create', parentId: hiddenFolderId, name: clear('layoffs-list.txt'), version: secretVersion }));
    const outVersion = await owner.upload(vaultId, makeFile(300, { isPublic: true }), { isPublic: true });
    expectAccepted(await owner.apply(vaultId, movedOutId, { type: 'file.create', parentId: hiddenFolderId, name: clear('press-release.txt'), version: outVersion }));
    expectAccepted(await owner.apply(vaultId, movedOutId, { type: 'node.move', parentId: null }));
    const deletedId = newId();
    const deletedVersion = await owner.upload(vaultId, makeFile(200, { isPublic: true }), { isPublic: true });
    expectAccepted(await owner.apply(vaultId, deletedId, { type: 'file.create', parentId: null, name: clear('salaries.csv'), version: deletedVersion }));
    expectAccepted(await owner.apply(vaultId, deletedId, { type: 'node.hide' }));
    expectAccepted(await owner.apply(vaultId, deletedId, { type: 'node.delete' }));
    expectAccepted(await owner.apply(vaultId, hiddenFolderId, { type: 'node.hide' }));
    const shown = makeFile(500, { isPublic: true });
    const shownVersion = await owner.upload(vaultId, shown, { isPublic: true });
    shownBlobId = shownVersion.blobId;
    expectAccepted(await owner.apply(vaultId, shownFileId, { type: 'file.create', parentId: null, name: clear('welcome.txt'), version: shownVersion }));
  });

  it('[R53] serves no member operation: no invitee e-mail, no airdrop name, no key or expiry', async () => {
    const { pages, raw } = await pullAll(1000);
    const types = pages.flatMap((p) => p.ops.map((o) => o.op.body.type));
    expect(types.filter((t) => t.startsWith('member.') || t === 'vault.rotateKeys')).toEqual([]);
    expect(raw).not.toContain(invitee.user.email);
    expect(raw).not.toContain('Quentin Marsh');
    expect(raw).not.toContain('expiresAt');
  });

  it('[R53] serves no operation of a hidden or deleted node, nor of a file under a hidden folder', async () => {
    const { pages, raw } = await pullAll(1000);
    for (const name of ['Confidential drafts', 'layoffs-list.txt', 'salaries.csv']) expect(raw).not.toContain(name);
    const objects = new Set(pages.flatMap((p) => p.ops.map((o) => o.op.objectId)));
    expect(objects.has(hiddenFolderId)).toBe(false);
    expect(objects.has(secretFileId)).toBe(false);
    // Shown now: the vault, a file moved out of the hidden folder (its whole history), a root file.
    expect(objects).toEqual(new Set([vaultId, movedOutId, shownFileId]));
    expect(raw).toContain('press-release.txt');
    expect(raw).toContain('welcome.txt');
  });

  it('[R53] pages keep seq order with gaps, and nextAfter reaches the head through empty pages', async () => {
    const { pages } = await pullAll(2);
    const seqs = pages.flatMap((p) => p.ops.map((o) => o.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // The filtered operations left pages with nothing to serve, yet the pull went on past them.
    expect(pages.some((p) => p.ops.length === 0 && p.hasMore)).toBe(true);
    const last = pages.at(-1)!;
    expect(last.hasMore).toBe(false);
    expect(last.nextAfter).toBe(last.headSeq);
    expect(seqs.at(-1)).toBe(last.headSeq);
    // Same operations whatever the page size.
    expect(seqs).toEqual((await pullAll(1000)).pages.flatMap((p) => p.ops.map((o) => o.seq)));
  });

  it('[R40] the summary size counts only the files a signed-out visitor sees, following hidden folders', async () => {
    const sizeNow = async () => PublicVaultSummary.parse((await api.get(`/api/public/vaults/${vaultId}`)).body).size;
    // Shown: press-release.txt (300, moved out of the hidden folder) and welcome.txt (500). Not:
    // layoffs-list.txt (400, in the hidden folder) and salaries.csv (200, hidden then deleted).
    expect(await sizeNow()).toBe(800);
    expectAccepted(await owner.apply(vaultId, hiddenFolderId, { type: 'node.restore' }));
    expect(await sizeNow()).toBe(1200);
    expectAccepted(await owner.apply(vaultId, shownFileId, { type: 'node.hide' }));
    expect(await sizeNow()).toBe(700);
    expectAccepted(await owner.apply(vaultId, shownFileId, { type: 'node.restore' }));
    expectAccepted(await owner.apply(vaultId, hiddenFolderId, { type: 'node.hide' }));
    expect(await sizeNow()).toBe(800);
  });

  it('[R40] serves no chunk of a file inside a hidden folder, and serves it again once the folder is restored', async () => {
    const url = `/api/public/vaults/${vaultId}/blobs/${secretBlobId}/chunks/0`;
    expect((await api.get(url)).status).toBe(404);
    expect((await api.get(`/api/public/vaults/${vaultId}/blobs/${shownBlobId}/chunks/0`)).status).toBe(200);
    expectAccepted(await owner.apply(vaultId, hiddenFolderId, { type: 'node.restore' }));
    expect((await api.get(url)).status).toBe(200);
    const { raw } = await pullAll(1000);
    expect(raw).toContain('layoffs-list.txt');
    expectAccepted(await owner.apply(vaultId, hiddenFolderId, { type: 'node.hide' }));
    expect((await api.get(url)).status).toBe(404);
  });
});
