/**
 * R128, R130, R131 against the REAL server (SQLite), the REAL crypto API and fake-indexeddb: the
 * organisation's vault flows as the admin's and the invitees' devices run them. The organisation
 * routes themselves are not needed here: these flows take the person (userId, e-mail, address)
 * that GET /organisations/{id}/members answers, and the server's `organisationAirdrop` flag is
 * put on the invitee's GET /vaults answer by the test where the server would set it.
 */
import { describe, expect, it } from 'vitest';
import { VaultListResponse } from '../../protocol/vaults';
import { getMembers } from '../../storage/memberStore';
import { getVault } from '../../storage/vaultStore';
import * as members from '../../sync/memberActions';
import { as, type Device, realServerSuite, sharedVault, sync } from '../../sync/testing/realDevices';
import * as actions from '../../sync/vaultActions';
import { airdropAdminsIntoVault, airdropIntoMyVaults, revokeFromMyVaults } from './organisationVaults';

const { device } = realServerSuite();

const personOf = (d: Device) => ({ userId: d.userId, email: d.user.email, address: d.user.address });

async function memberOf(owner: Device, vaultId: string, d: Device) {
  await as(owner, () => members.refreshMembers(vaultId));
  return (await getMembers(owner.db, owner.userId, vaultId)).find((m) => m.userId === d.userId);
}

/** What the server does for an organisation invitee's list (orgserver): PENDING OWNER memberships flagged. */
function flagOwnerAirdrops(d: Device) {
  d.tamper = async (request, response) => {
    if (request !== 'GET /api/vaults') return response;
    const list = VaultListResponse.parse(await response.json());
    for (const vault of list.vaults) {
      vault.membership.organisationAirdrop = vault.membership.status === 'PENDING' && vault.membership.role === 'OWNER';
    }
    return Response.json(list);
  };
}

describe('organisations on the device', () => {
  it('R128 + R131: an owner-invitee is invited as OWNER into every active vault the admin owns where they are not yet, and their device accepts those by itself', async () => {
    const admin = await device('admin');
    const owner = await device('owner-invitee');
    const plans = await as(admin, () => actions.createVault({ title: 'Plans', description: '', tags: [], terms: 'Terms', isPublic: false, isCloud: true }));
    const notes = await as(admin, () => actions.createVault({ title: 'Public notes', description: '', tags: [], terms: '', isPublic: true, isCloud: true }));
    const invitedAlready = await as(admin, () => actions.createVault({ title: 'Already invited', description: '', tags: [], terms: 'Terms', isPublic: false, isCloud: true }));
    await sync(admin);
    await as(admin, () => members.inviteMembers(invitedAlready, [{ email: owner.user.email, role: 'VIEWER' }]));

    const progress: string[] = [];
    const result = await as(admin, () => airdropIntoMyVaults(personOf(owner), (done, total) => progress.push(`${done} of ${total}`)));

    expect(result).toEqual({ done: 2, failures: [] });
    expect(progress).toEqual(['0 of 2', '1 of 2', '2 of 2']);
    expect(await memberOf(admin, plans, owner)).toMatchObject({ role: 'OWNER', status: 'PENDING', holdsKeys: true });
    expect(await memberOf(admin, notes, owner)).toMatchObject({ role: 'OWNER', status: 'PENDING' });
    // The invitation they had already is left as it was: no second membership, no role change.
    expect(await memberOf(admin, invitedAlready, owner)).toMatchObject({ role: 'VIEWER', status: 'PENDING' });

    // Without the server's flag nothing is accepted by itself.
    await sync(owner);
    expect(await getVault(owner.db, owner.userId, plans)).toMatchObject({ membershipStatus: 'PENDING' });

    // With it, the owner-invitee's device accepts the flagged ones on its next sync, and opens the private vault's name.
    flagOwnerAirdrops(owner);
    await sync(owner);
    expect(await getVault(owner.db, owner.userId, plans)).toMatchObject({ membershipStatus: 'ACCEPTED', role: 'OWNER', name: 'Plans' });
    expect(await getVault(owner.db, owner.userId, notes)).toMatchObject({ membershipStatus: 'ACCEPTED', role: 'OWNER' });
    expect(await getVault(owner.db, owner.userId, invitedAlready)).toMatchObject({ membershipStatus: 'PENDING', role: 'VIEWER' });
    expect(await memberOf(admin, plans, owner)).toMatchObject({ status: 'ACCEPTED' });
  });

  it('R131: an acceptance that fails is tried again on the next refresh', async () => {
    const admin = await device('admin');
    const owner = await device('owner-invitee');
    const vaultId = await as(admin, () => actions.createVault({ title: 'Retry', description: '', tags: [], terms: '', isPublic: false, isCloud: true }));
    await sync(admin);
    await as(admin, () => airdropIntoMyVaults(personOf(owner)));
    flagOwnerAirdrops(owner);
    owner.dropNext = /^POST \/api\/vaults\/ops/;
    await sync(owner);
    expect(await getVault(owner.db, owner.userId, vaultId)).toMatchObject({ membershipStatus: 'PENDING' });
    await sync(owner);
    expect(await getVault(owner.db, owner.userId, vaultId)).toMatchObject({ membershipStatus: 'ACCEPTED', role: 'OWNER' });
  });

  it('R130: a revoked organisation member leaves every vault the admin owns, except the vaults they created', async () => {
    const admin = await device('admin');
    const member = await device('member');
    const shared = await sharedVault(admin, [{ d: member, role: 'CONTRIBUTOR' }], 'Shared');
    const theirs = await sharedVault(member, [{ d: admin, role: 'OWNER' }], 'Their own');
    await sync(admin);

    const progress: string[] = [];
    const result = await as(admin, () => revokeFromMyVaults(personOf(member), (done, total) => progress.push(`${done} of ${total}`)));

    expect(result).toEqual({ done: 1, failures: [] });
    expect(progress).toEqual(['0 of 1', '1 of 1']);
    expect(await memberOf(admin, shared, member)).toMatchObject({ status: 'REVOKED' });
    expect(await memberOf(admin, theirs, member)).toMatchObject({ status: 'ACCEPTED', role: 'OWNER' });
    await sync(member);
    // Their device drops what it had of the vault (R56): only the ended membership is kept.
    expect(await getVault(member.db, member.userId, shared)).toMatchObject({ membershipStatus: 'REVOKED', name: '', sealedKeys: null });
    expect(await getVault(member.db, member.userId, theirs)).toMatchObject({ membershipStatus: 'ACCEPTED' });
  });

  it("R129: a vault an organisation member creates is shared with the organisation's admins as OWNER; one that cannot be invited is named", async () => {
    const member = await device('member');
    const admin = await device('admin');
    const other = await device('second-admin');
    const vaultId = await as(member, () => actions.createVault({ title: 'Member notes', description: '', tags: [], terms: '', isPublic: false, isCloud: true }));
    await sync(member);
    const ghost = { userId: 'ghost', email: 'nobody-here@example.com', address: 'x'.repeat(43) };

    const result = await as(member, () => airdropAdminsIntoVault(vaultId, [personOf(admin), personOf(other), ghost]));

    expect(result.done).toBe(2);
    expect(result.failedEmails).toEqual([expect.stringMatching(/^nobody-here@example\.com: There is no Cairn account/)]);
    expect(await memberOf(member, vaultId, admin)).toMatchObject({ role: 'OWNER', status: 'PENDING', holdsKeys: true });
    expect(await memberOf(member, vaultId, other)).toMatchObject({ role: 'OWNER', status: 'PENDING', holdsKeys: true });
    flagOwnerAirdrops(admin);
    await sync(admin);
    expect(await getVault(admin.db, admin.userId, vaultId)).toMatchObject({ membershipStatus: 'ACCEPTED', role: 'OWNER', name: 'Member notes' });
  });
});
