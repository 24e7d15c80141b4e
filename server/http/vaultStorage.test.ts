/**
 * GET /vaults/{id}/storage: the room an upload by the caller into that vault has. Uploads are
 * charged to the vault's owner, so a contributor sees the owner's remaining space, not their own,
 * and an airdrop member sees the smaller of that and what is left of their link's allowance.
 */
import { beforeAll, expect, it } from 'vitest';
import { CHUNK_SIZE, StorageResponse, VaultStorageResponse } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { addMember, airdropMember, createPrivateVault, summaryOf } from '../testing/members';
import { makeFile, newId, operationBytesOf, VaultActor } from '../testing/vaults';

const CLOUD_ALLOWANCE = 10 * CHUNK_SIZE;
const PERMANENT_ALLOWANCE = 2 * CHUNK_SIZE;
const HOUR = 60 * 60 * 1000;

describeEachDatabase('upload room in a vault', (env) => {
  let api: ApiClient;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp({ config: { storageAllowances: { cloud: CLOUD_ALLOWANCE, permanent: PERMANENT_ALLOWANCE } } }));
  });

  async function availableIn(actor: VaultActor, vaultId: string): Promise<number> {
    const response = await api.get(`/api/vaults/${vaultId}/storage`, { token: actor.token });
    expectStatus(response, 200);
    return VaultStorageResponse.parse(response.body).available;
  }

  /** Reserves `bytes` in `vaultId` as `actor` (an announcement with no chunks sent yet). */
  async function reserve(actor: VaultActor, vaultId: string, bytes: number): Promise<void> {
    expectStatus(await actor.announce(vaultId, newId(), bytes, Math.ceil(bytes / CHUNK_SIZE)), 200);
  }

  it("a contributor sees the owner's remaining space, not their own, and it drops after their upload", async () => {
    const owner = await VaultActor.create(env, api);
    const contributor = await VaultActor.create(env, api);
    const { vaultId, ring } = await createPrivateVault(owner);
    await addMember(owner, vaultId, contributor, 'CONTRIBUTOR', ring);
    await reserve(owner, vaultId, 3 * CHUNK_SIZE);
    // The contributor's own account is fuller than the owner's, so the two figures differ.
    await reserve(contributor, await contributor.createVault(), 6 * CHUNK_SIZE);

    // The owner's vault logs take cloud storage too (docs/decisions.md, "Operation bytes").
    const logs = await operationBytesOf(env.db, owner.userId);
    expect(await availableIn(contributor, vaultId)).toBe(CLOUD_ALLOWANCE - 3 * CHUNK_SIZE - logs);
    expect(await availableIn(owner, vaultId)).toBe(CLOUD_ALLOWANCE - 3 * CHUNK_SIZE - logs);

    const file = makeFile(50_000);
    await contributor.upload(vaultId, file);
    expect(await availableIn(contributor, vaultId)).toBe(CLOUD_ALLOWANCE - 3 * CHUNK_SIZE - logs - file.storedSize);
    // The upload was charged to the owner: the contributor's own figures did not move.
    const own = StorageResponse.parse((await api.get('/api/storage', { token: contributor.token })).body);
    expect(own.cloudUsed).toBe(6 * CHUNK_SIZE + (await operationBytesOf(env.db, contributor.userId)));
  });

  it("a permanent vault answers the owner's permanent allowance, and a full one 0", async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    await reserve(owner, await owner.createVault(), 4 * CHUNK_SIZE);
    expect(await availableIn(owner, vaultId)).toBe(PERMANENT_ALLOWANCE);
    await reserve(owner, vaultId, PERMANENT_ALLOWANCE);
    expect(await availableIn(owner, vaultId)).toBe(0);
  });

  it("an airdrop member sees the smaller of the owner's room and their allowance's rest", async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault();
    await reserve(owner, vaultId, CLOUD_ALLOWANCE - 500_000);
    const expiresAt = env.clock.now() + HOUR;
    const generous = await airdropMember(owner, vaultId, { role: 'CONTRIBUTOR', storageAllowance: 1_000_000, expiresAt });
    const modest = await airdropMember(owner, vaultId, { role: 'CONTRIBUTOR', storageAllowance: 150_000, expiresAt });
    const none = await airdropMember(owner, vaultId, { role: 'CONTRIBUTOR', storageAllowance: 0, expiresAt });
    // Less the vault's log, which takes the owner's cloud storage too (docs/decisions.md, "Operation bytes").
    const ownerRoom = 500_000 - (await operationBytesOf(env.db, owner.userId));

    expect(await availableIn(generous, vaultId)).toBe(ownerRoom);
    expect(await availableIn(modest, vaultId)).toBe(150_000);
    expect(await availableIn(none, vaultId)).toBe(0);

    const file = makeFile(100_000);
    await modest.upload(vaultId, file);
    expect(await availableIn(modest, vaultId)).toBe(150_000 - file.storedSize);
    // The member's bytes count against the owner's storage too.
    expect(await availableIn(owner, vaultId)).toBe(ownerRoom - file.storedSize);
    expect(await availableIn(generous, vaultId)).toBe(ownerRoom - file.storedSize);
  });

  it('lists the caller\'s own upload allowance with their membership', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault();
    const guest = await airdropMember(owner, vaultId, { role: 'CONTRIBUTOR', storageAllowance: 0, expiresAt: env.clock.now() + HOUR });
    expect((await summaryOf(guest, vaultId)).membership.storageAllowance).toBe(0);
    expect((await summaryOf(owner, vaultId)).membership.storageAllowance).toBeNull();
  });
});
