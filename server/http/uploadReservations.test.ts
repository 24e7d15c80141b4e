/**
 * Upload reservations that can never be committed stop holding the vault owner's storage
 * (SYNC_SPEC R68): a member revoked or leaving loses the uploads they started (rows and chunk
 * files), an airdrop member's reservation ends with their link, and any abandoned reservation
 * expires after RESERVATION_TTL_MS and is purged. Both databases.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { StorageResponse } from '../../src/protocol/vaults';
import { chunkKey } from '../blobs/BlobStore';
import { RESERVATION_TTL_MS } from '../services/BlobService';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus, logInSession } from '../testing/flows';
import { addMember, airdropMember, createPrivateVault, postInvitations } from '../testing/members';
import { clear, expectAccepted, expectRejected, makeFile, newId, operationBytesOf, sha256Hex, type StoredFile, VaultActor, versionOf } from '../testing/vaults';

describeEachDatabase('upload reservations of members who are gone', (env) => {
  let api: ApiClient;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
  });

  async function cloudUsed(actor: VaultActor): Promise<number> {
    const response = await api.get('/api/storage', { token: actor.token });
    expectStatus(response, 200);
    return StorageResponse.parse(response.body).cloudUsed;
  }

  /** Announces `file` and stores all its chunks but does not commit it (no file operation yet). */
  async function startUpload(actor: VaultActor, vaultId: string, file: StoredFile): Promise<string> {
    const blobId = newId();
    expectStatus(await actor.announce(vaultId, blobId, file.storedSize, file.chunks.length), 200);
    for (const [index, chunk] of file.chunks.entries()) expectStatus(await actor.putChunk(vaultId, blobId, index, chunk), 200);
    return blobId;
  }

  function chunkFileExists(blobId: string, file: StoredFile): boolean {
    return fs.existsSync(path.join(env.dataDir, 'blobs', ...chunkKey(blobId, 0, sha256Hex(file.chunks[0]!)).split('/')));
  }

  async function blobRow(blobId: string) {
    return env.db.selectFrom('blobs').select(['id', 'status']).where('id', '=', blobId).executeTakeFirst();
  }

  it('[R68] revoking a member releases the uploads they started: the owner gets the room back, their bytes go, and they can never commit them', async () => {
    const owner = await VaultActor.create(env, api);
    const carol = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isPublic: true });
    const membershipId = await addMember(owner, vaultId, carol, 'CONTRIBUTOR', null);
    const ownFile = makeFile(2000, { isPublic: true });
    const ownBlobId = await startUpload(owner, vaultId, ownFile);
    const file = makeFile(5000, { isPublic: true });
    const blobId = await startUpload(carol, vaultId, file);
    expect(await cloudUsed(owner)).toBe((await operationBytesOf(env.db, owner.userId)) + 2000 + 5000);

    expectAccepted(await owner.apply(vaultId, membershipId, { type: 'member.revoke' }));
    // Only carol's reservation went; the owner's own upload still holds its room.
    expect(await cloudUsed(owner)).toBe((await operationBytesOf(env.db, owner.userId)) + 2000);
    expect(await blobRow(blobId)).toBeUndefined();
    expect(chunkFileExists(blobId, file)).toBe(false);
    expect(await blobRow(ownBlobId)).toMatchObject({ status: 'reserved' });
    expect(chunkFileExists(ownBlobId, ownFile)).toBe(true);

    // Invited back, carol still cannot finish the upload she started before: it is gone.
    const again = await owner.sign(vaultId, membershipId, { type: 'member.invite', role: 'CONTRIBUTOR', memberKey: carol.user.publicSigningKey });
    expectStatus(await postInvitations(owner, vaultId, [again]), 200);
    expectAccepted(await carol.apply(vaultId, membershipId, { type: 'member.accept' }));
    expectRejected(
      await carol.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: clear('late.txt'), version: versionOf(blobId, file, true) }),
      'INVALID_OPERATION',
    );
    expect((await carol.getChunk(vaultId, blobId, 0)).statusCode).toBe(404);
  });

  it('[R68] a member who leaves releases the uploads they started; other members keep theirs', async () => {
    const owner = await VaultActor.create(env, api);
    const dave = await VaultActor.create(env, api);
    const erin = await VaultActor.create(env, api);
    const { vaultId, ring } = await createPrivateVault(owner);
    const daveMembership = await addMember(owner, vaultId, dave, 'CONTRIBUTOR', ring);
    await addMember(owner, vaultId, erin, 'CONTRIBUTOR', ring);
    const daveFile = makeFile(3000);
    const daveBlobId = await startUpload(dave, vaultId, daveFile);
    const erinFile = makeFile(4000);
    const erinBlobId = await startUpload(erin, vaultId, erinFile);
    const reserved = daveFile.storedSize + erinFile.storedSize;
    expect(await cloudUsed(owner)).toBe((await operationBytesOf(env.db, owner.userId)) + reserved);

    expectAccepted(await dave.apply(vaultId, daveMembership, { type: 'member.leave' }));
    expect(await cloudUsed(owner)).toBe((await operationBytesOf(env.db, owner.userId)) + erinFile.storedSize);
    expect(await blobRow(daveBlobId)).toBeUndefined();
    expect(chunkFileExists(daveBlobId, daveFile)).toBe(false);
    expect(await blobRow(erinBlobId)).toMatchObject({ status: 'reserved' });
    expect(chunkFileExists(erinBlobId, erinFile)).toBe(true);
  });

  it('[R68] making a contributor a VIEWER releases the uploads they started', async () => {
    const owner = await VaultActor.create(env, api);
    const hugo = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isPublic: true });
    const membershipId = await addMember(owner, vaultId, hugo, 'CONTRIBUTOR', null);
    const file = makeFile(3500, { isPublic: true });
    const blobId = await startUpload(hugo, vaultId, file);
    expectAccepted(await owner.apply(vaultId, membershipId, { type: 'member.changeRole', role: 'VIEWER' }));
    expect(await cloudUsed(owner)).toBe(await operationBytesOf(env.db, owner.userId));
    expect(await blobRow(blobId)).toBeUndefined();
    expect(chunkFileExists(blobId, file)).toBe(false);
  });

  it('[R68] deleting an account releases the uploads it started in vaults that stay', async () => {
    const owner = await VaultActor.create(env, api);
    const gina = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isPublic: true });
    await addMember(owner, vaultId, gina, 'CONTRIBUTOR', null);
    const file = makeFile(4500, { isPublic: true });
    const blobId = await startUpload(gina, vaultId, file);
    expect(await cloudUsed(owner)).toBe((await operationBytesOf(env.db, owner.userId)) + 4500);
    const signedAt = env.clock.now();
    const signature = await gina.user.sign({ purpose: 'delete-account', userId: gina.userId, signedAt });
    expectStatus(await api.request('DELETE', '/api/account', { signedAt, signature }, { token: gina.token }), 200);
    expect(await cloudUsed(owner)).toBe(await operationBytesOf(env.db, owner.userId));
    expect(await blobRow(blobId)).toBeUndefined();
    expect(chunkFileExists(blobId, file)).toBe(false);
  });

  it('[R68] an airdrop member’s reservation stops counting when their link ends', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault();
    const expiresAt = env.clock.now() + 60 * 60 * 1000;
    const guest = await airdropMember(owner, vaultId, { role: 'CONTRIBUTOR', storageAllowance: 1_000_000, expiresAt });
    const file = makeFile(6000);
    await startUpload(guest, vaultId, file);
    expect(await cloudUsed(owner)).toBe((await operationBytesOf(env.db, owner.userId)) + file.storedSize);
    env.clock.advance(60 * 60 * 1000 + 1);
    // The link has ended: nothing of it can be committed any more, so it holds no room.
    expect(await cloudUsed(owner)).toBe(await operationBytesOf(env.db, owner.userId));
  });

  it('[R68] an abandoned reservation stops counting after RESERVATION_TTL_MS, and the next announce purges it with its bytes', async () => {
    const owner = await VaultActor.create(env, api);
    const frank = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isPublic: true });
    await addMember(owner, vaultId, frank, 'CONTRIBUTOR', null);
    const file = makeFile(7000, { isPublic: true });
    const blobId = await startUpload(frank, vaultId, file);
    expect(await cloudUsed(owner)).toBe((await operationBytesOf(env.db, owner.userId)) + 7000);
    env.clock.advance(RESERVATION_TTL_MS + 1);
    // A week on, the owner's session has ended too: they sign in again.
    const ownerLater = new VaultActor(api, owner.user, (await logInSession(api, owner.user)).token, owner.userId);
    expect(await cloudUsed(ownerLater)).toBe(await operationBytesOf(env.db, owner.userId));
    // Anyone's next upload sweeps expired reservations: the row and the chunk file go.
    await startUpload(ownerLater, vaultId, makeFile(10, { isPublic: true }));
    expect(await blobRow(blobId)).toBeUndefined();
    expect(chunkFileExists(blobId, file)).toBe(false);
  });
});
