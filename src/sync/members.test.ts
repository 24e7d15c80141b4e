/**
 * Members and key rotation against the REAL server (buildApp on a temp SQLite DATA_DIR), the REAL
 * crypto API and fake-indexeddb: three accounts, each with its own device (SyncClient, crypto
 * worker, IndexedDB and session). The member actions are the ones screens call
 * (memberActions.ts), run as the device made current with setCurrentSync.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestEnv } from '../../server/testing/databases';
import { ApiError } from '../protocol/errors';
import { PullResponse, type SealedField, VaultListResponse } from '../protocol/vaults';
import { getMembers } from '../storage/memberStore';
import { getChildren, getVault, getVaults } from '../storage/vaultStore';
import { setCurrentSync } from './currentSync';
import * as members from './memberActions';
import { pushOutbox } from './outbox';
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { as, type Device, device as makeDevice, membershipIdOf, sharedVault, sync } from './testing/realDevices';
import * as actions from './vaultActions';

const env = new TestEnv('sqlite');
let app: FastifyInstance;

function device(name: string, server: () => FastifyInstance = () => app): Promise<Device> {
  return makeDevice(env, name, server);
}

/** The operations of a vault as the server serves them (read with an account that may). */
async function serverOps(reader: Device, vaultId: string) {
  return (await reader.api.get(`/vaults/${vaultId}/ops?after=0`, PullResponse)).ops;
}

/** What `d`'s crypto worker makes of the folder.create of `folderId` on the server. */
async function nameSeenBy(d: Pick<Device, 'crypto'>, reader: Device, vaultId: string, folderId: string): Promise<string | null | undefined> {
  const ops = (await serverOps(reader, vaultId)).filter((o) => o.op.objectId === folderId);
  const [opened] = await d.crypto.openOperations(vaultId, ops);
  return opened?.fields.name;
}

/**
 * A copy of `d`'s ring as it is now, in a crypto worker of its own: what a member about to lose
 * access may have kept (their device itself forgets the ring, R56).
 */
async function keptRingOf(d: Device, vaultId: string): Promise<Pick<Device, 'crypto'>> {
  const crypto = createCryptoApi();
  await crypto.loadPendingWallet(d.user.phrase.split(' '));
  await crypto.activatePendingWallet();
  const sealedKeys = (await getVault(d.db, d.userId, vaultId))?.sealedKeys;
  if (!sealedKeys) throw new Error(`${d.name} holds no ring of ${vaultId}`);
  await crypto.openVaultKeys(vaultId, sealedKeys);
  return { crypto };
}

beforeAll(async () => {
  await env.setUp();
  app = await env.buildApp();
}, 60_000);

afterAll(async () => {
  setCurrentSync(null);
  await env.tearDown();
});

describe('members against the real server', () => {
  it('R19: invite -> accept -> member list -> role change -> revoke with rotation: the revoked member cannot open new names, the others can', async () => {
    const owner = await device('owner');
    const bob = await device('bob');
    const carol = await device('carol');
    const vaultId = await as(owner, () => actions.createVault({ title: 'Shared plans', description: '', tags: [], terms: 'Be kind.', isPublic: false, isCloud: true }));
    await sync(owner);

    expect(await as(owner, () => members.lookupAccount(bob.user.email))).toMatchObject({ userId: bob.userId, publicEncryptionKey: bob.user.publicEncryptionKey });
    expect(await as(owner, () => members.lookupAccount('nobody-here@example.com'))).toBeNull();

    const invited = await as(owner, () =>
      members.inviteMembers(
        vaultId,
        [
          { email: bob.user.email, role: 'CONTRIBUTOR' },
          { email: 'nobody-here@example.com', role: 'VIEWER' },
          { email: carol.user.email, role: 'VIEWER' },
        ],
        'Welcome aboard',
      ),
    );
    expect(invited.map((r) => [r.email, r.status, r.status === 'failed' ? r.code : ''])).toEqual([
      [bob.user.email, 'invited', ''],
      ['nobody-here@example.com', 'failed', 'USER_NOT_FOUND'],
      [carol.user.email, 'invited', ''],
    ]);
    const bobMembership = (invited[0] as { membershipId: string }).membershipId;
    const carolMembership = (invited[2] as { membershipId: string }).membershipId;
    // The owner's cached list has the invitees, pending, each holding the sealed ring.
    expect((await getMembers(owner.db, owner.userId, vaultId)).map((m) => [m.email, m.role, m.status, m.holdsKeys])).toEqual([
      [owner.user.email, 'OWNER', 'ACCEPTED', true],
      [bob.user.email, 'CONTRIBUTOR', 'PENDING', true],
      [carol.user.email, 'VIEWER', 'PENDING', true],
    ]);
    // Inviting someone again: this person has already been invited.
    const again = await as(owner, () => members.inviteMembers(vaultId, [{ email: bob.user.email, role: 'VIEWER' }]));
    expect(again[0]).toMatchObject({ status: 'failed', code: 'ALREADY_MEMBER' });

    // Bob sees the invitation (listed, to accept), reads it and accepts; the vault's name opens with his sealed ring.
    await sync(bob);
    expect(await getVault(bob.db, bob.userId, vaultId)).toMatchObject({ membershipStatus: 'PENDING', name: 'Shared plans' });
    expect(await as(bob, () => members.fetchMembership(bobMembership))).toMatchObject({ vaultId, invitedByEmail: owner.user.email, member: { status: 'PENDING' } });
    await as(bob, () => members.acceptInvite(vaultId, bobMembership));
    expect(await getVault(bob.db, bob.userId, vaultId)).toMatchObject({ membershipStatus: 'ACCEPTED', role: 'CONTRIBUTOR' });
    await sync(carol);
    await as(carol, () => members.acceptInvite(vaultId, carolMembership));

    // Bob adds a folder; the owner pulls it and, seeing member operations, refreshes the list.
    const bobFolder = await as(bob, () => actions.createFolder(vaultId, null, 'From Bob'));
    await sync(bob, owner);
    expect((await getChildren(owner.db, owner.userId, vaultId, null)).map((n) => n.name)).toEqual(['From Bob']);
    expect((await getMembers(owner.db, owner.userId, vaultId)).map((m) => m.status)).toEqual(['ACCEPTED', 'ACCEPTED', 'ACCEPTED']);

    // Role change: Bob becomes a viewer; his device learns it on its next sync.
    await as(owner, () => members.saveRoleChanges(vaultId, [{ membershipId: bobMembership, role: 'VIEWER' }]));
    await sync(bob);
    expect(await getVault(bob.db, bob.userId, vaultId)).toMatchObject({ role: 'VIEWER' });
    await sync(carol);
    expect((await getMembers(carol.db, carol.userId, vaultId)).find((m) => m.membershipId === bobMembership)?.role).toBe('VIEWER');

    // Revoke Bob: the key rotates in the same operation, sealed to the owner and Carol only.
    const bobKept = await keptRingOf(bob, vaultId);
    await as(owner, () => members.revokeMember(vaultId, bobMembership));
    const listed = (await owner.api.get('/vaults', VaultListResponse)).vaults.find((v) => v.vaultId === vaultId)!;
    expect(listed.keyCount).toBe(2);
    expect((await getMembers(owner.db, owner.userId, vaultId)).find((m) => m.membershipId === bobMembership)).toMatchObject({ status: 'REVOKED', holdsKeys: false });

    const secret = await as(owner, () => actions.createFolder(vaultId, null, 'After Bob left'));
    await sync(owner, carol, bob);
    const [sealedName] = (await serverOps(owner, vaultId)).filter((o) => o.op.objectId === secret).map((o) => (o.op.body as { name: SealedField }).name);
    expect(sealedName?.key).toBe(1);
    expect((await getChildren(carol.db, carol.userId, vaultId, null)).map((n) => n.name).sort()).toEqual(['After Bob left', 'From Bob']);
    expect(await nameSeenBy(bobKept, owner, vaultId, secret)).toBeNull();
    expect(await nameSeenBy(bobKept, owner, vaultId, bobFolder)).toBe('From Bob');
    expect(await bob.crypto.hasVaultKeys(vaultId)).toBe(false);
    // Bob's device stops pulling the vault, the list drops it, and the device lets go of what it held (R56).
    expect(await getVault(bob.db, bob.userId, vaultId)).toMatchObject({ membershipStatus: 'REVOKED', name: '' });
    expect((await getVaults(bob.db, bob.userId, 'active')).map((v) => v.vaultId)).not.toContain(vaultId);
    expect((await getChildren(bob.db, bob.userId, vaultId, null)).map((n) => n.name)).toEqual([]);

    // Invited again, Bob gets his old membership back with the rotated ring, and reads what came after.
    const reinvited = await as(owner, () => members.inviteMembers(vaultId, [{ email: bob.user.email, role: 'VIEWER' }]));
    expect(reinvited[0]).toEqual({ email: bob.user.email, status: 'invited', membershipId: bobMembership });
    await sync(bob);
    expect((await getVaults(bob.db, bob.userId, 'active')).map((v) => v.vaultId)).toContain(vaultId);
    await as(bob, () => members.acceptInvite(vaultId, bobMembership));
    expect((await getChildren(bob.db, bob.userId, vaultId, null)).map((n) => n.name).sort()).toEqual(['After Bob left', 'From Bob']);
  }, 120_000);

  it('R55: the invitation a device pushes names the invitee by key only, so no member pulls an e-mail address', async () => {
    const owner = await device('owner');
    const dana = await device('dana');
    const vaultId = await sharedVault(owner, [{ d: dana, role: 'VIEWER' }], 'Key only');
    const ops = await serverOps(owner, vaultId);
    const invitation = ops.find((o) => o.op.body.type === 'member.invite');
    expect(invitation?.op.body).toEqual({ type: 'member.invite', role: 'VIEWER', memberKey: dana.user.publicSigningKey, keys: expect.any(String), keyCount: 1 });
    expect(JSON.stringify(await serverOps(dana, vaultId))).not.toContain(dana.user.email);
    // The owner still sees who was invited: the member list the server answers has the address.
    expect((await getMembers(owner.db, owner.userId, vaultId)).find((m) => m.membershipId === invitation?.op.objectId)?.email).toBe(dana.user.email);
  }, 60_000);

  it('R17, R18: changes queued offline during a revoke are resealed under the new key (a move depending on them waits behind them), land, and the remaining members read them', async () => {
    const owner = await device('owner');
    const bob = await device('bob');
    const carol = await device('carol');
    const vaultId = await sharedVault(owner, [{ d: bob, role: 'VIEWER' }, { d: carol, role: 'CONTRIBUTOR' }], 'Field notes');

    const existing = await as(owner, () => actions.createFolder(vaultId, null, 'Existing'));
    await sync(owner, carol);

    // Offline, Carol makes a folder and moves another into it: the move depends on the folder.
    carol.online = false;
    const folderId = await as(carol, () => actions.createFolder(vaultId, null, 'Written offline'));
    await as(carol, () => actions.moveNodes(vaultId, [existing], folderId));
    await sync(carol);
    expect((await carol.db.outbox.toArray()).map((r) => r.status)).toEqual(['pending', 'pending']);

    const bobMembership = await membershipIdOf(owner, vaultId, bob.user.email);
    await as(owner, () => members.revokeMember(vaultId, bobMembership));
    carol.online = true;
    await sync(carol);

    // Nothing reached the user: no rejection, nothing left queued, the folder is no longer pending.
    expect(await carol.db.outbox.count()).toBe(0);
    expect(await getChildren(carol.db, carol.userId, vaultId, null)).toMatchObject([{ name: 'Written offline', pendingOpIds: [], rejection: null }]);
    expect(await getChildren(carol.db, carol.userId, vaultId, folderId)).toMatchObject([{ name: 'Existing', rejection: null }]);
    const [stored] = (await serverOps(owner, vaultId)).filter((o) => o.op.objectId === folderId);
    expect((stored!.op.body as { name: SealedField }).name.key).toBe(1);
    await sync(owner);
    expect((await getChildren(owner.db, owner.userId, vaultId, null)).map((n) => n.name)).toEqual(['Written offline']);
    expect((await getChildren(owner.db, owner.userId, vaultId, folderId)).map((n) => n.name)).toEqual(['Existing']);
    expect(await nameSeenBy(bob, owner, vaultId, folderId)).toBeNull();
  }, 120_000);

  it('R18, R20: after a leave, content waits (KEY_ROTATION_PENDING) until an owner device rotates automatically, then lands under the new key', async () => {
    const owner = await device('owner');
    const bob = await device('bob');
    const carol = await device('carol');
    const vaultId = await sharedVault(owner, [{ d: bob, role: 'CONTRIBUTOR' }, { d: carol, role: 'CONTRIBUTOR' }], 'Team');

    // Carol queues a folder while offline; Bob leaves meanwhile.
    carol.online = false;
    const folderId = await as(carol, () => actions.createFolder(vaultId, null, 'Queued before the rotation'));
    await carol.client.idle();
    await as(bob, () => members.leaveVault(vaultId));
    expect((await getVaults(bob.db, bob.userId, 'active')).map((v) => v.vaultId)).not.toContain(vaultId);
    expect((await owner.api.get('/vaults', VaultListResponse)).vaults.find((v) => v.vaultId === vaultId)).toMatchObject({ needsKeyRotation: true, keyCount: 1 });

    // Back online, Carol's push is refused for now: the operation stays pending, with no rejection shown.
    carol.online = true;
    const outcome = await pushOutbox(carol.client.context);
    expect(outcome).toMatchObject({ accepted: 0, rejected: 0, waiting: 1 });
    expect(await carol.db.outbox.toArray()).toMatchObject([{ status: 'pending', error: null }]);
    expect((await getChildren(carol.db, carol.userId, vaultId, null))[0]).toMatchObject({ rejection: null });

    // The owner's next sync rotates the key (once), sealed to the owner and Carol.
    await sync(owner);
    const summary = (await owner.api.get('/vaults', VaultListResponse)).vaults.find((v) => v.vaultId === vaultId)!;
    expect(summary).toMatchObject({ needsKeyRotation: false, keyCount: 2 });
    await sync(owner);
    expect((await serverOps(owner, vaultId)).filter((o) => o.op.body.type === 'vault.rotateKeys')).toHaveLength(1);

    // Carol's retry is resealed under the new key and lands; the owner reads it, Bob cannot.
    await sync(carol);
    expect(await carol.db.outbox.count()).toBe(0);
    await sync(owner);
    expect((await getChildren(owner.db, owner.userId, vaultId, null)).map((n) => n.name)).toEqual(['Queued before the rotation']);
    expect(await nameSeenBy(bob, owner, vaultId, folderId)).toBeNull();
  }, 120_000);

  it('R20: a second owner leaves; a viewer device does not rotate, the owner device does by itself, and what the owner adds next the leaver cannot open', async () => {
    const owner = await device('owner');
    const bob = await device('bob');
    const carol = await device('carol');
    const vaultId = await sharedVault(owner, [{ d: bob, role: 'OWNER' }, { d: carol, role: 'VIEWER' }], 'Co-owned');
    const before = await as(owner, () => actions.createFolder(vaultId, null, 'Before the leave'));
    await sync(owner, bob, carol);
    expect((await getChildren(bob.db, bob.userId, vaultId, null)).map((n) => n.name)).toEqual(['Before the leave']);

    // Bob, an accepted OWNER beside the owner, leaves: the vault leaves his list and waits for a new key.
    const bobKept = await keptRingOf(bob, vaultId);
    await as(bob, () => members.leaveVault(vaultId));
    expect((await getVaults(bob.db, bob.userId, 'active')).map((v) => v.vaultId)).not.toContain(vaultId);
    const bobMembership = await as(owner, async () => {
      await members.refreshMembers(vaultId);
      return membershipIdOf(owner, vaultId, bob.user.email);
    });
    expect((await owner.api.get('/vaults', VaultListResponse)).vaults.find((v) => v.vaultId === vaultId)).toMatchObject({ needsKeyRotation: true, keyCount: 1 });

    // A viewer may not rotate (R20: an OWNER or CONTRIBUTOR does): Carol's sync leaves it pending.
    await sync(carol);
    expect((await owner.api.get('/vaults', VaultListResponse)).vaults.find((v) => v.vaultId === vaultId)).toMatchObject({ needsKeyRotation: true, keyCount: 1 });

    // The owner's next sync rotates, sealed to the owner and Carol only.
    await sync(owner);
    expect((await owner.api.get('/vaults', VaultListResponse)).vaults.find((v) => v.vaultId === vaultId)).toMatchObject({ needsKeyRotation: false, keyCount: 2 });
    const [rotation] = (await serverOps(owner, vaultId)).filter((o) => o.op.body.type === 'vault.rotateKeys');
    expect(rotation?.op.author).toBe(owner.user.publicSigningKey);
    expect(Object.keys((rotation!.op.body as { rotation: { sealedKeys: Record<string, string> } }).rotation.sealedKeys)).not.toContain(bobMembership);
    expect((await getMembers(owner.db, owner.userId, vaultId)).find((m) => m.membershipId === bobMembership)).toMatchObject({ status: 'REVOKED', holdsKeys: false });

    // The owner adds a folder at once (no KEY_ROTATION_PENDING): sealed under the new key, Carol reads it, Bob's old ring does not.
    const after = await as(owner, () => actions.createFolder(vaultId, null, 'After the leave'));
    await sync(owner);
    expect(await owner.db.outbox.count()).toBe(0);
    const [sealedName] = (await serverOps(owner, vaultId)).filter((o) => o.op.objectId === after).map((o) => (o.op.body as { name: SealedField }).name);
    expect(sealedName?.key).toBe(1);
    await sync(carol);
    expect((await getChildren(carol.db, carol.userId, vaultId, null)).map((n) => n.name).sort()).toEqual(['After the leave', 'Before the leave']);
    expect(await nameSeenBy(bobKept, owner, vaultId, after)).toBeNull();
    expect(await nameSeenBy(bobKept, owner, vaultId, before)).toBe('Before the leave');
    // Bob's device no longer pulls the vault, and after the leave it holds nothing of it (R56).
    await sync(bob);
    expect((await getChildren(bob.db, bob.userId, vaultId, null)).map((n) => n.name)).toEqual([]);
  }, 120_000);

  it('R19: a revoke whose push gets no answer reopens the last ring: nothing is sealed under a key only this device has', async () => {
    const owner = await device('owner');
    const bob = await device('bob');
    const vaultId = await sharedVault(owner, [{ d: bob, role: 'CONTRIBUTOR' }], 'Careful');
    const bobMembership = await membershipIdOf(owner, vaultId, bob.user.email);

    // The push and everything after it fail (the connection dropped): the worker's rotated ring must go.
    owner.dropNext = /^POST \/api\/vaults\/ops$/;
    const failing = as(owner, () => members.revokeMember(vaultId, bobMembership));
    await expect(failing).rejects.toThrow(members.MEMBERS_OFFLINE_MESSAGE);
    expect((await owner.crypto.sealFields(vaultId, 'probe', { name: 'x' })).name!.key).toBe(0);

    // Bob is still a member: what the owner writes now, Bob reads.
    const folderId = await as(owner, () => actions.createFolder(vaultId, null, 'Still shared'));
    await sync(owner, bob);
    expect(await owner.db.outbox.count()).toBe(0);
    expect(await nameSeenBy(bob, owner, vaultId, folderId)).toBe('Still shared');
  }, 120_000);

  it('R19: offline, member actions fail at once with a clear message and change nothing', async () => {
    const owner = await device('owner');
    const bob = await device('bob');
    const vaultId = await sharedVault(owner, [{ d: bob, role: 'VIEWER' }], 'Offline owner');
    const bobMembership = await membershipIdOf(owner, vaultId, bob.user.email);
    owner.online = false;
    await expect(as(owner, () => members.saveRoleChanges(vaultId, [{ membershipId: bobMembership, role: 'CONTRIBUTOR' }]))).rejects.toBeInstanceOf(members.OfflineError);
    await expect(as(owner, () => members.inviteMembers(vaultId, [{ email: 'x@example.com', role: 'VIEWER' }]))).rejects.toThrow(members.MEMBERS_OFFLINE_MESSAGE);
    await expect(as(owner, () => members.lookupAccount(bob.user.email))).rejects.toThrow(members.MEMBERS_OFFLINE_MESSAGE);
    owner.online = true;
    await sync(owner);
    expect((await getMembers(owner.db, owner.userId, vaultId)).find((m) => m.membershipId === bobMembership)?.role).toBe('VIEWER');
    expect(await owner.db.outbox.count()).toBe(0);
  }, 120_000);

  it('a refused member change throws the server code; the member limit throws MemberLimitError and invites nobody', async () => {
    const owner = await device('owner');
    const bob = await device('bob');
    const vaultId = await sharedVault(owner, [{ d: bob, role: 'VIEWER' }], 'Refusals');
    // The only owner cannot make themselves a viewer: the server's refusal reaches the screen.
    const ownMembership = await membershipIdOf(owner, vaultId, owner.user.email);
    const refused = await as(owner, () => members.saveRoleChanges(vaultId, [{ membershipId: ownMembership, role: 'VIEWER' }])).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toMatch(/owner/i);

    const limited = await env.buildApp({ config: { memberLimit: 1 } });
    const limitedOwner = await device('limited owner', () => limited);
    const carol = await device('carol', () => limited);
    const limitedVault = await as(limitedOwner, () => actions.createVault({ title: 'Small', description: '', tags: [], terms: '', isPublic: false, isCloud: true }));
    await sync(limitedOwner);
    await expect(as(limitedOwner, () => members.inviteMembers(limitedVault, [{ email: carol.user.email, role: 'VIEWER' }]))).rejects.toBeInstanceOf(members.MemberLimitError);
    await as(limitedOwner, () => members.refreshMembers(limitedVault));
    expect((await getMembers(limitedOwner.db, limitedOwner.userId, limitedVault)).map((m) => m.email)).toEqual([limitedOwner.user.email]);
    await limited.close();
  }, 120_000);

  it('R19: a revoke that races an invitation (CONFLICT: the rotation misses the new member) is made again once, for everyone', async () => {
    const owner = await device('owner');
    const bob = await device('bob');
    const dave = await device('dave');
    const vaultId = await sharedVault(owner, [{ d: bob, role: 'VIEWER' }], 'Busy vault');
    const bobMembership = await membershipIdOf(owner, vaultId, bob.user.email);

    // Just before the revoke is pushed, Dave is invited (as from the owner's other tab).
    let daveMembership = '';
    owner.beforeNext = {
      pattern: /^POST \/api\/vaults\/ops$/,
      run: async () => {
        const [row] = await members.inviteMembers(vaultId, [{ email: dave.user.email, role: 'CONTRIBUTOR' }]);
        daveMembership = (row as { membershipId: string }).membershipId;
      },
    };
    await as(owner, () => members.revokeMember(vaultId, bobMembership));
    expect(daveMembership).not.toBe('');
    expect((await owner.api.get('/vaults', VaultListResponse)).vaults.find((v) => v.vaultId === vaultId)?.keyCount).toBe(2);

    // Dave's ring is the rotated one: he accepts and reads what the owner writes next; Bob does not.
    await sync(dave);
    await as(dave, () => members.acceptInvite(vaultId, daveMembership));
    const folderId = await as(owner, () => actions.createFolder(vaultId, null, 'For Dave'));
    await sync(owner, dave);
    expect((await getChildren(dave.db, dave.userId, vaultId, null)).map((n) => n.name)).toEqual(['For Dave']);
    expect(await nameSeenBy(bob, owner, vaultId, folderId)).toBeNull();
  }, 120_000);

  it('R19: a pull that meets a rotation made after its GET /vaults fetches the new ring first, so what follows opens', async () => {
    const owner = await device('owner');
    const bob = await device('bob');
    const carol = await device('carol');
    const vaultId = await sharedVault(owner, [{ d: bob, role: 'VIEWER' }, { d: carol, role: 'VIEWER' }], 'Moving target');
    const bobMembership = await membershipIdOf(owner, vaultId, bob.user.email);
    await as(owner, () => actions.createFolder(vaultId, null, 'Before'));
    await sync(owner);

    // Carol's cycle has read the vault list (one key) when, before her pull, Bob is revoked and a folder added.
    let afterId = '';
    carol.beforeNext = {
      pattern: new RegExp(`^GET /api/vaults/${vaultId}/ops`),
      run: async () => {
        await as(owner, () => members.revokeMember(vaultId, bobMembership));
        afterId = await as(owner, () => actions.createFolder(vaultId, null, 'After'));
        await sync(owner);
      },
    };
    await sync(carol);
    expect(afterId).not.toBe('');
    expect((await getChildren(carol.db, carol.userId, vaultId, null)).map((n) => n.name).sort()).toEqual(['After', 'Before']);
  }, 120_000);
});
