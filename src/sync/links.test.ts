/**
 * Links and invitations against the REAL server (buildApp on a temp SQLite DATA_DIR), the REAL
 * crypto API and fake-indexeddb, with the member actions screens call (memberActions.ts).
 */
import { describe, expect, it } from 'vitest';
import { inviteRowFailureText, isAlreadyInVault } from '../domain/memberRules';
import { getMembers } from '../storage/memberStore';
import { getVault } from '../storage/vaultStore';
import * as members from './memberActions';
import { as, realServerSuite, sharedVault } from './testing/realDevices';
import * as actions from './vaultActions';

const { env, device } = realServerSuite();

describe('a link opened on a device that has not fetched what it names', () => {
  it('R70: a cycle that reached the server brings a shared vault; only then does a missing vault count as absent; offline nothing is concluded', async () => {
    const owner = await device('owner');
    const bob = await device('bob');
    const vaultId = await sharedVault(owner, [{ d: bob, role: 'VIEWER' }], 'Linked plans');
    const elsewhere = await as(owner, () => actions.createVault({ title: 'Not shared', description: '', tags: [], terms: '', isPublic: false, isCloud: true }));

    // A new device of Bob's: nothing is on it yet; a cycle that answered brings the shared vault.
    const bobNew = await device('bob-new', bob.user);
    expect(await getVault(bobNew.db, bobNew.userId, vaultId)).toBeUndefined();
    expect(await bobNew.client.syncAndConfirm()).toBe(true);
    expect(await getVault(bobNew.db, bobNew.userId, vaultId)).toMatchObject({ name: 'Linked plans' });
    // The owner's other vault is not Bob's: after that same answer it is still not on his device.
    expect(await getVault(bobNew.db, bobNew.userId, elsewhere)).toBeUndefined();

    // Offline, the cycle does not reach the server: nothing may be concluded from what is missing.
    bobNew.online = false;
    expect(await bobNew.client.syncAndConfirm()).toBe(false);
    bobNew.online = true;
    expect(await bobNew.client.syncAndConfirm()).toBe(true);
  }, 120_000);
});

describe('inviting someone already in the vault', () => {
  it('inviting yourself or an accepted member says they are already a member, sends nothing, and is not an error to report', async () => {
    const owner = await device('owner');
    const carol = await device('carol');
    const dave = await device('dave');
    const vaultId = await sharedVault(owner, [{ d: carol, role: 'CONTRIBUTOR' }], 'Members only');
    const before = (await getMembers(owner.db, owner.userId, vaultId)).map((m) => [m.email, m.status]);

    const results = await as(owner, () =>
      members.inviteMembers(vaultId, [
        { email: owner.user.email, role: 'VIEWER' },
        { email: carol.user.email.toUpperCase(), role: 'VIEWER' },
        { email: dave.user.email, role: 'VIEWER' },
      ]),
    );
    expect(results.map((r) => [r.status, r.status === 'failed' ? inviteRowFailureText(r.code) : ''])).toEqual([
      ['failed', 'You are already a member of this vault.'],
      ['failed', 'This person is already a member of this vault.'],
      ['invited', ''],
    ]);
    expect(results.map((r) => r.status === 'failed' && isAlreadyInVault(r.code))).toEqual([true, true, false]);
    // Carol keeps her role; the owner stays the owner; only Dave was added.
    expect((await getMembers(owner.db, owner.userId, vaultId)).map((m) => [m.email, m.role, m.status])).toEqual([
      ...before.map(([email, status]) => [email, email === owner.user.email ? 'OWNER' : 'CONTRIBUTOR', status]),
      [dave.user.email, 'VIEWER', 'PENDING'],
    ]);
    // Someone invited but not yet in keeps the spec's text.
    const again = await as(owner, () => members.inviteMembers(vaultId, [{ email: dave.user.email, role: 'VIEWER' }]));
    expect(again[0]).toMatchObject({ status: 'failed', code: 'ALREADY_MEMBER' });
    expect(inviteRowFailureText('ALREADY_MEMBER')).toBe('This person has already been invited.');
  }, 120_000);
});
