/**
 * The operation log takes storage (docs/decisions.md, "Operation bytes"): each accepted
 * operation's canonical body counts against the vault owner's cloud storage, whoever wrote it and
 * whatever the vault's kind, and one that does not fit is refused with NOT_ENOUGH_STORAGE, except
 * those that free storage or only take access away.
 */
import { beforeAll, expect, it } from 'vitest';
import { canonicalJson } from '../../src/protocol/canonical';
import { type Operation, StorageResponse } from '../../src/protocol/vaults';
import { OPERATION_STORAGE_MESSAGE } from '../services/StorageService';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { expectAccepted, expectRejected, insertMembership, makeFile, newId, sealed, VaultActor, vaultState } from '../testing/vaults';

const CLOUD_ALLOWANCE = 200_000;

function bytesOf(...ops: Operation[]): number {
  return ops.reduce((sum, op) => sum + Buffer.byteLength(canonicalJson(op)), 0);
}

describeEachDatabase('operation bytes in storage', (env) => {
  let api: ApiClient;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp({ config: { storageAllowances: { cloud: CLOUD_ALLOWANCE, permanent: 100_000 } } }));
  });

  async function storage(actor: VaultActor) {
    const response = await api.get('/api/storage', { token: actor.token });
    expectStatus(response, 200);
    return StorageResponse.parse(response.body);
  }

  /** Signs and pushes `body`; returns the operation and its result. */
  async function push(actor: VaultActor, vaultId: string, objectId: string, body: Operation['body']) {
    const op = await actor.sign(vaultId, objectId, body);
    const [result] = await actor.push(op);
    return { op, result };
  }

  it("counts every accepted operation's canonical bytes as the owner's cloud storage, a contributor's and a permanent vault's included", async () => {
    const owner = await VaultActor.create(env, api);
    const contributor = await VaultActor.create(env, api);
    const cloudId = newId();
    const created = await push(owner, cloudId, cloudId, { type: 'vault.create', isPublic: false, isCloud: true, name: sealed(), ownerKeys: sealed(80).c });
    expectAccepted(created.result);
    const permanentId = newId();
    const permanent = await push(owner, permanentId, permanentId, { type: 'vault.create', isPublic: false, isCloud: false, name: sealed(), ownerKeys: sealed(80).c });
    expectAccepted(permanent.result);
    await insertMembership(env.db, cloudId, contributor.userId, 'CONTRIBUTOR');
    const folder = await push(contributor, cloudId, newId(), { type: 'folder.create', parentId: null, name: sealed(2_000) });
    expectAccepted(folder.result);
    const rejected = await push(contributor, cloudId, newId(), { type: 'folder.create', parentId: newId(), name: sealed() });
    expectRejected(rejected.result, 'INVALID_OPERATION');

    expect(await storage(owner)).toMatchObject({ cloudUsed: bytesOf(created.op, permanent.op, folder.op), cloudLogUsed: bytesOf(created.op, permanent.op, folder.op), permanentUsed: 0 });
    // The contributor's own account pays nothing for the owner's vault.
    expect((await storage(contributor)).cloudUsed).toBe(0);
  });

  it("refuses an operation past the owner's cloud storage with NOT_ENOUGH_STORAGE and changes nothing; one that fits exactly goes; freeing and leaving still go through", async () => {
    const owner = await VaultActor.create(env, api);
    const contributor = await VaultActor.create(env, api);
    const vaultId = await owner.createVault();
    const membershipId = await insertMembership(env.db, vaultId, contributor.userId, 'CONTRIBUTOR');
    // Committed uploads in the cloud vault count; those of a permanent vault do not (permanent storage).
    const cloudFile = await owner.upload(vaultId, makeFile(30_000));
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version: cloudFile }));
    const permanentId = await owner.createVault({ isCloud: false });
    const permanentFile = await owner.upload(permanentId, makeFile(30_000));
    expectAccepted(await owner.apply(permanentId, newId(), { type: 'file.create', parentId: null, name: sealed(), version: permanentFile }));
    const folderId = newId();
    expectAccepted(await owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: sealed() }));
    expectAccepted(await owner.apply(vaultId, folderId, { type: 'node.hide' }));
    // Leave room for exactly one small operation.
    const fits = await contributor.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() });
    const used = (await storage(owner)).cloudUsed;
    expectStatus(await owner.announce(vaultId, newId(), CLOUD_ALLOWANCE - used - bytesOf(fits), 1), 200);

    const before = await vaultState(env.db, vaultId);
    const tooLarge = await push(contributor, vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed(200) });
    expectRejected(tooLarge.result, 'NOT_ENOUGH_STORAGE');
    expect(tooLarge.result).toMatchObject({ error: { message: OPERATION_STORAGE_MESSAGE } });
    expect(await vaultState(env.db, vaultId)).toEqual(before);
    expectAccepted((await contributor.push(fits))[0]);
    expect((await storage(owner)).cloudUsed).toBe(CLOUD_ALLOWANCE);
    const full = await vaultState(env.db, vaultId);
    expectRejected((await push(owner, vaultId, vaultId, { type: 'vault.rename', name: sealed() })).result, 'NOT_ENOUGH_STORAGE');
    expect(await vaultState(env.db, vaultId)).toEqual(full);

    // What frees storage or takes access away is never stuck behind a full account.
    expectAccepted((await push(owner, vaultId, folderId, { type: 'node.delete' })).result);
    expectAccepted((await push(contributor, vaultId, membershipId, { type: 'member.leave' })).result);
    expectAccepted((await push(owner, vaultId, vaultId, { type: 'vault.archive' })).result);
    expectAccepted((await push(owner, vaultId, vaultId, { type: 'vault.delete' })).result);
  });
});
