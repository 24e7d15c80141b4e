/**
 * [R60] Deleting an account (DELETE /api/account) hands its shared vaults to their other owners,
 * refuses while a vault others use would be left without an owner, and deletes the vaults only it
 * used, their chunk files included. Its membership of a vault that stays ends like a leave.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { DELETE_ACCOUNT_OWNED_VAULT } from '../../src/protocol/auth';
import { parseErrorBody } from '../../src/protocol/errors';
import { StorageResponse, VaultListResponse } from '../../src/protocol/vaults';
import { chunkKey } from '../blobs/BlobStore';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { addMember, createPrivateVault, inviteOp, membersOf, postInvitations, sealRingTo, summaryOf } from '../testing/members';
import { countVaultRows, expectAccepted, makeFile, newId, operationBytesOf, sealed, sha256Hex, VaultActor, vaultState } from '../testing/vaults';
import { addKey } from '../../src/crypto/keyRing';

describeEachDatabase('account deletion and vault ownership', (env) => {
  let api: ApiClient;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
  });

  function deleteAccount(actor: VaultActor) {
    return (async () => {
      const signedAt = env.clock.now();
      const signature = await actor.user.sign({ purpose: 'delete-account', userId: actor.userId, signedAt });
      return api.request('DELETE', '/api/account', { signedAt, signature }, { token: actor.token });
    })();
  }

  /** Uploads a file of `size` bytes as `actor`; returns its chunks' paths on disk and its bytes. */
  async function uploadFile(actor: VaultActor, vaultId: string, size: number) {
    const file = makeFile(size);
    const version = await actor.upload(vaultId, file);
    expectAccepted(await actor.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version }));
    const files = file.chunks.map((chunk, i) => path.join(env.dataDir, 'blobs', ...chunkKey(version.blobId, i, sha256Hex(chunk)).split('/')));
    return { version, file, files };
  }

  it('a shared vault passes to the other owner, with its files readable and charged to them; a rotation is asked for', async () => {
    const alice = await VaultActor.create(env, api);
    const bob = await VaultActor.create(env, api);
    const { vaultId, ring } = await createPrivateVault(alice, 'Shared');
    const bobMembership = await addMember(alice, vaultId, bob, 'CONTRIBUTOR', ring);
    expectAccepted(await alice.apply(vaultId, bobMembership, { type: 'member.changeRole', role: 'OWNER' }));
    const { version, file, files } = await uploadFile(alice, vaultId, 120_000);

    expectStatus(await deleteAccount(alice), 200);
    expectError(await api.get('/api/account', { token: alice.token }), 401, 'UNAUTHENTICATED');

    const summary = await summaryOf(bob, vaultId);
    expect({ owner: summary.ownerAddress, status: summary.status, needsKeyRotation: summary.needsKeyRotation }).toEqual({
      owner: bob.user.address,
      status: 'ACTIVE',
      needsKeyRotation: true,
    });
    const chunk = await bob.getChunk(vaultId, version.blobId, 0);
    expect(chunk.statusCode).toBe(200);
    expect(Buffer.compare(chunk.rawPayload, file.chunks[0] ?? Buffer.alloc(0))).toBe(0);
    expect(files.every((f) => fs.existsSync(f))).toBe(true);
    const storage = StorageResponse.parse((await api.get('/api/storage', { token: bob.token })).body);
    // The file and the vault's log (R62) are bob's to pay for now.
    const logBytes = await operationBytesOf(env.db, bob.userId);
    expect(logBytes).toBeGreaterThan(0);
    expect(storage.cloudUsed).toBe(file.storedSize + logBytes);
    expect((await membersOf(bob, vaultId)).map((m) => m.userId)).toEqual([bob.userId]);

    // The remaining owner rotates the key the deleted account held, and writes on.
    const bobMember = (await membersOf(bob, vaultId))[0];
    if (!bobMember) throw new Error('No member');
    const newRing = addKey(ring);
    expectAccepted(
      await bob.apply(vaultId, vaultId, {
        type: 'vault.rotateKeys',
        rotation: { keyCount: 2, sealedKeys: { [bobMember.membershipId]: await sealRingTo(newRing, bob.user.publicEncryptionKey) } },
      }),
    );
    expect((await summaryOf(bob, vaultId)).needsKeyRotation).toBe(false);
  });

  it('refuses while a vault other members use has no other owner, naming it, and changes nothing', async () => {
    const carol = await VaultActor.create(env, api);
    const dave = await VaultActor.create(env, api);
    const { vaultId, ring } = await createPrivateVault(carol, 'Team');
    await addMember(carol, vaultId, dave, 'VIEWER', ring);
    const solo = await carol.createVault();
    await uploadFile(carol, vaultId, 10_000);

    const rows = await countVaultRows(env.db);
    const states = [await vaultState(env.db, vaultId), await vaultState(env.db, solo)];
    const response = await deleteAccount(carol);
    expectError(response, 409, 'CONFLICT');
    const error = parseErrorBody(response.body);
    expect(error?.message).toMatch(/only owner of vaults that other members still use/);
    expect(error?.details).toEqual([{ path: DELETE_ACCOUNT_OWNED_VAULT, message: vaultId }]);
    expect(await countVaultRows(env.db)).toEqual(rows);
    expect([await vaultState(env.db, vaultId), await vaultState(env.db, solo)]).toEqual(states);
    expectStatus(await api.get('/api/account', { token: carol.token }), 200);
    expect(VaultListResponse.parse((await api.get('/api/vaults', { token: dave.token })).body).vaults.map((v) => v.vaultId)).toEqual([vaultId]);
  });

  it("deletes the vaults only it used, their chunk files included; its membership elsewhere ends like a leave", async () => {
    const erin = await VaultActor.create(env, api);
    const frank = await VaultActor.create(env, api);
    const solo = await createPrivateVault(erin, 'Mine alone');
    const { files } = await uploadFile(erin, solo.vaultId, 150_000);
    // An invitation nobody answered does not make the vault shared.
    expectStatus(await postInvitations(erin, solo.vaultId, [await inviteOp(erin, solo.vaultId, frank, 'VIEWER', solo.ring)]), 200);
    const franks = await createPrivateVault(frank, "Frank's");
    await addMember(frank, franks.vaultId, erin, 'CONTRIBUTOR', franks.ring);
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((f) => fs.existsSync(f))).toBe(true);

    expectStatus(await deleteAccount(erin), 200);
    expect(files.filter((f) => fs.existsSync(f))).toEqual([]);
    expect(await env.db.selectFrom('vaults').select('id').where('id', '=', solo.vaultId).executeTakeFirst()).toBeUndefined();
    expect(await env.db.selectFrom('blobs').select('id').where('vault_id', '=', solo.vaultId).execute()).toEqual([]);
    expect(await env.db.selectFrom('notifications').select('id').where('vault_id', '=', solo.vaultId).execute()).toEqual([]);
    expect(VaultListResponse.parse((await api.get('/api/vaults', { token: frank.token })).body).vaults.map((v) => v.vaultId)).toEqual([franks.vaultId]);

    const summary = await summaryOf(frank, franks.vaultId);
    expect({ owner: summary.ownerAddress, needsKeyRotation: summary.needsKeyRotation }).toEqual({ owner: frank.user.address, needsKeyRotation: true });
    expect((await membersOf(frank, franks.vaultId)).map((m) => m.userId)).toEqual([frank.userId]);
  });
});
