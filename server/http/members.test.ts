/**
 * Members and sharing routes (spec 001 sections 2-6, src/protocol/members.ts): lookup,
 * invitations with their e-mail, resend, the member list, one membership, notifications, and the
 * membership rules of the member.* operations that a user meets (last owner, re-invitation,
 * confirmation, public vaults). Real accounts, keys and mail files; both databases.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createKeyRing } from '../../src/crypto/keyRing';
import { InviteResponse, MembershipResponse, NotificationListResponse } from '../../src/protocol/members';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { readMailbox } from '../testing/mailbox';
import {
  addMember,
  createPrivateVault,
  invite,
  inviteOp,
  membersOf,
  postInvitations,
  sealRingTo,
  summaryOf,
} from '../testing/members';
import { countVaultRows, expectAccepted, expectRejected, insertMembership, membershipIdOf, newId, sealed, VaultActor, vaultState } from '../testing/vaults';

describeEachDatabase('members and sharing', (env) => {
  let api: ApiClient;
  let owner: VaultActor;
  let alice: VaultActor;
  let bob: VaultActor;
  let carol: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
    alice = await VaultActor.create(env, api);
    bob = await VaultActor.create(env, api);
    carol = await VaultActor.create(env, api);
  });

  function mailsTo(actor: VaultActor) {
    return readMailbox(env.dataDir).filter((m) => m.to.includes(actor.user.email));
  }

  async function notificationsOf(actor: VaultActor) {
    const response = await api.get('/api/notifications', { token: actor.token });
    expectStatus(response, 200);
    return NotificationListResponse.parse(response.body).notifications;
  }

  /** Everything a refused request could have touched: rows, the vault's rows, the mailbox. */
  async function expectNothingChanged(vaultIds: string[], attempt: () => Promise<void>): Promise<void> {
    const rows = await countVaultRows(env.db);
    const states = await Promise.all(vaultIds.map((id) => vaultState(env.db, id)));
    const mails = readMailbox(env.dataDir).length;
    await attempt();
    expect(await countVaultRows(env.db)).toEqual(rows);
    expect(await Promise.all(vaultIds.map((id) => vaultState(env.db, id)))).toEqual(states);
    expect(readMailbox(env.dataDir)).toHaveLength(mails);
  }

  describe('GET /users/lookup', () => {
    it('answers the public keys of an account, 404 for none or a passwordless one, 401 signed out', async () => {
      const found = await api.get(`/api/users/lookup?email=${encodeURIComponent(alice.user.email.toUpperCase())}`, { token: owner.token });
      expectStatus(found, 200);
      expect(found.body).toEqual({
        userId: alice.userId,
        email: alice.user.email,
        address: alice.user.address,
        publicSigningKey: alice.user.publicSigningKey,
        publicEncryptionKey: alice.user.publicEncryptionKey,
      });
      expectError(await api.get('/api/users/lookup?email=nobody%40example.com', { token: owner.token }), 404, 'USER_NOT_FOUND');
      expectError(await api.get(`/api/users/lookup?email=${encodeURIComponent(alice.user.email)}`), 401, 'UNAUTHENTICATED');

      const airdropped = await VaultActor.create(env, api);
      await env.db.updateTable('users').set({ passwordless: 1 }).where('id', '=', airdropped.userId).execute();
      expectError(await api.get(`/api/users/lookup?email=${encodeURIComponent(airdropped.user.email)}`, { token: owner.token }), 404, 'USER_NOT_FOUND');
    });

    it('is rate limited', async () => {
      const limited = new ApiClient(await env.buildApp({ config: { authRateLimit: 2 } }));
      const url = `/api/users/lookup?email=${encodeURIComponent(alice.user.email)}`;
      expectStatus(await limited.get(url, { token: owner.token }), 200);
      expectStatus(await limited.get(url, { token: owner.token }), 200);
      expectError(await limited.get(url, { token: owner.token }), 429, 'RATE_LIMITED');
    });
  });

  describe('POST /vaults/{vaultId}/invitations', () => {
    it('invites with a PENDING membership, an e-mail with the link and the escaped message, and a notification', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      const op = await inviteOp(owner, vaultId, alice, 'CONTRIBUTOR', ring);
      const message = 'Hi <b>Alice</b> & "team": <a href="https://evil.example">click</a>';
      const response = await postInvitations(owner, vaultId, [op], message);
      expectStatus(response, 200);
      expectAccepted(InviteResponse.parse(response.body).results[0]);

      const summary = await summaryOf(alice, vaultId);
      expect(summary.membership).toMatchObject({ id: op.objectId, role: 'CONTRIBUTOR', status: 'PENDING' });
      // The ring sealed by the inviter opens with Alice's key.
      expect(await alice.user.openKeyRing(summary.membership.keys ?? '')).toEqual(ring);

      const mail = mailsTo(alice).at(-1);
      if (!mail) throw new Error('No invitation mail');
      expect(mail.subject).toContain(owner.user.email);
      expect(mail.links).toContain(`http://cairn.test/invite?membershipId=${op.objectId}`);
      expect(mail.decoded).toContain(`Message from ${owner.user.email} (their words, not Cairn's):`);
      const html = mail.decoded.split(/Content-Type: text\/html/i)[1] ?? '';
      expect(html).toContain('Hi &#60;b&#62;Alice&#60;/b&#62; &#38; &#34;team&#34;');
      expect(html).not.toContain('<b>Alice</b>');
      expect(html).not.toContain('<a href="https://evil.example">');

      const [notification] = await notificationsOf(alice);
      expect(notification).toMatchObject({
        event: 'MEMBERSHIP_INVITE',
        objectType: 'membership',
        objectId: op.objectId,
        vaultId,
        fromEmail: owner.user.email,
        status: 'UNREAD',
      });
      // The message is only in the e-mail.
      for (const table of ['notifications', 'ops', 'memberships'] as const) {
        const rows = await env.db.selectFrom(table).selectAll().execute();
        expect(JSON.stringify(rows)).not.toContain('team');
      }
    });

    it('answers ALREADY_MEMBER for a live membership, and re-invites someone who rejected under their membership id', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      const first = await inviteOp(owner, vaultId, bob, 'VIEWER', ring);
      expectStatus(await postInvitations(owner, vaultId, [first]), 200);
      const again = await invite(owner, vaultId, bob, 'VIEWER', ring);
      expectRejected(again, 'ALREADY_MEMBER');
      if (again.status === 'rejected') expect(again.error.message).toBe('This person has already been invited.');

      expectAccepted(await bob.apply(vaultId, first.objectId, { type: 'member.reject' }));
      expect((await summaryOf(bob, vaultId)).membership).toMatchObject({ status: 'REJECTED', keys: null });
      expectRejected(await invite(owner, vaultId, bob, 'VIEWER', ring), 'ALREADY_MEMBER');
      const reinvite = await owner.sign(vaultId, first.objectId, {
        type: 'member.invite',
        role: 'CONTRIBUTOR',
        memberKey: bob.user.publicSigningKey,
        keys: await sealRingTo(ring, bob.user.publicEncryptionKey),
        keyCount: 1,
      });
      const response = await postInvitations(owner, vaultId, [reinvite]);
      expectAccepted(InviteResponse.parse(response.body).results[0]);
      expect((await summaryOf(bob, vaultId)).membership).toMatchObject({ id: first.objectId, status: 'PENDING', role: 'CONTRIBUTOR' });
    });

    it('refuses an unknown account, an invitation carrying an e-mail (R55), and a ring of the wrong size, row by row', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      const unknown = await owner.sign(vaultId, newId(), {
        type: 'member.invite',
        role: 'VIEWER',
        memberKey: 'ab'.repeat(32),
        keys: await sealRingTo(ring, alice.user.publicEncryptionKey),
        keyCount: 1,
      });
      const withEmail = await owner.sign(vaultId, newId(), {
        type: 'member.invite',
        email: alice.user.email,
        role: 'VIEWER',
        memberKey: alice.user.publicSigningKey,
        keys: await sealRingTo(ring, alice.user.publicEncryptionKey),
        keyCount: 1,
      });
      const stale = await owner.sign(vaultId, newId(), {
        type: 'member.invite',
        role: 'VIEWER',
        memberKey: carol.user.publicSigningKey,
        keys: await sealRingTo([...ring, ...createKeyRing()], carol.user.publicEncryptionKey),
        keyCount: 2,
      });
      const noKeys = await owner.sign(vaultId, newId(), { type: 'member.invite', role: 'VIEWER', memberKey: carol.user.publicSigningKey });
      await expectNothingChanged([vaultId], async () => {
        const response = await postInvitations(owner, vaultId, [unknown, withEmail, stale, noKeys]);
        expectStatus(response, 200);
        const codes = InviteResponse.parse(response.body).results.map((r) => (r.status === 'rejected' ? r.error.code : r.status));
        expect(codes).toEqual(['USER_NOT_FOUND', 'VALIDATION_FAILED', 'STALE_VAULT_KEY', 'VALIDATION_FAILED']);
      });
    });

    it('refuses a batch with an operation of another vault or of another type, applying none of it', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      const other = await createPrivateVault(owner);
      const good = await inviteOp(owner, vaultId, alice, 'VIEWER', ring);
      const elsewhere = await inviteOp(owner, other.vaultId, bob, 'VIEWER', other.ring);
      const folder = await owner.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() });
      await expectNothingChanged([vaultId, other.vaultId], async () => {
        expectError(await postInvitations(owner, vaultId, [good, elsewhere]), 400, 'VALIDATION_FAILED');
        expectError(await postInvitations(owner, vaultId, [good, folder]), 400, 'VALIDATION_FAILED');
      });
    });

    it('lets only an owner invite (403 for a member, 404 for a stranger)', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      await addMember(owner, vaultId, alice, 'CONTRIBUTOR', ring);
      const byAlice = await inviteOp(alice, vaultId, bob, 'VIEWER', ring);
      const byCarol = await inviteOp(carol, vaultId, bob, 'VIEWER', ring);
      await expectNothingChanged([vaultId], async () => {
        expectError(await postInvitations(alice, vaultId, [byAlice]), 403, 'FORBIDDEN');
        expectError(await postInvitations(carol, vaultId, [byCarol]), 404, 'NOT_FOUND');
      });
    });

    it('answers 403 MEMBER_LIMIT past the configured limit, applying nothing', async () => {
      const limitedApi = new ApiClient(await env.buildApp({ config: { memberLimit: 2 } }));
      const limitedOwner = new VaultActor(limitedApi, owner.user, owner.token, owner.userId);
      const { vaultId, ring } = await createPrivateVault(limitedOwner);
      const two = [await inviteOp(limitedOwner, vaultId, alice, 'VIEWER', ring), await inviteOp(limitedOwner, vaultId, bob, 'VIEWER', ring)];
      await expectNothingChanged([vaultId], async () => {
        expectError(await postInvitations(limitedOwner, vaultId, two), 403, 'MEMBER_LIMIT');
      });
      const [first] = two;
      if (!first) throw new Error('No op');
      expectAccepted(InviteResponse.parse((await postInvitations(limitedOwner, vaultId, [first])).body).results[0]);
      const third = await inviteOp(limitedOwner, vaultId, carol, 'VIEWER', ring);
      await expectNothingChanged([vaultId], async () => {
        expectError(await postInvitations(limitedOwner, vaultId, [third]), 403, 'MEMBER_LIMIT');
      });
      // At the limit, inviting someone already invited adds nobody: the row says so, no upgrade dialog.
      const again = await inviteOp(limitedOwner, vaultId, alice, 'CONTRIBUTOR', ring);
      await expectNothingChanged([vaultId], async () => {
        expectRejected(InviteResponse.parse((await postInvitations(limitedOwner, vaultId, [again])).body).results[0], 'ALREADY_MEMBER');
      });
      // A batch with a newcomer besides the repeat is still past the limit.
      await expectNothingChanged([vaultId], async () => {
        expectError(await postInvitations(limitedOwner, vaultId, [again, third]), 403, 'MEMBER_LIMIT');
      });
      // A rejected invitation no longer counts.
      expectAccepted(await alice.apply(vaultId, first.objectId, { type: 'member.reject' }));
      expectAccepted(InviteResponse.parse((await postInvitations(limitedOwner, vaultId, [third])).body).results[0]);
    });

    it('invites to a public vault without keys, and refuses keys there', async () => {
      const vaultId = await owner.createVault({ isPublic: true });
      const withKeys = await inviteOp(owner, vaultId, alice, 'VIEWER', createKeyRing());
      expectRejected(InviteResponse.parse((await postInvitations(owner, vaultId, [withKeys])).body).results[0], 'VALIDATION_FAILED');
      expectAccepted(await invite(owner, vaultId, alice, 'VIEWER', null));
      const summary = await summaryOf(alice, vaultId);
      expect(summary).toMatchObject({ keyCount: 0, membership: { status: 'PENDING', keys: null } });
    });
  });

  describe('POST /vaults/{vaultId}/members/{membershipId}/resend', () => {
    it('sends the invitation again while it is unanswered (OWNER only), 409 once answered', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      await addMember(owner, vaultId, carol, 'CONTRIBUTOR', ring);
      const op = await inviteOp(owner, vaultId, alice, 'VIEWER', ring);
      expectStatus(await postInvitations(owner, vaultId, [op]), 200);
      const url = `/api/vaults/${vaultId}/members/${op.objectId}/resend`;
      const before = mailsTo(alice).length;
      expectStatus(await api.post(url, undefined, { token: owner.token }), 200);
      expect(mailsTo(alice)).toHaveLength(before + 1);
      expect(mailsTo(alice).at(-1)?.links).toContain(`http://cairn.test/invite?membershipId=${op.objectId}`);
      expect((await notificationsOf(alice))[0]).toMatchObject({ event: 'MEMBERSHIP_INVITE_RESEND', objectId: op.objectId, fromEmail: owner.user.email });

      await expectNothingChanged([vaultId], async () => {
        expectError(await api.post(url, undefined, { token: carol.token }), 403, 'FORBIDDEN');
        expectError(await api.post(url, undefined, { token: bob.token }), 404, 'NOT_FOUND');
        expectError(await api.post(`/api/vaults/${vaultId}/members/${newId()}/resend`, undefined, { token: owner.token }), 404, 'NOT_FOUND');
      });
      expectAccepted(await alice.apply(vaultId, op.objectId, { type: 'member.accept' }));
      await expectNothingChanged([vaultId], async () => {
        expectError(await api.post(url, undefined, { token: owner.token }), 409, 'CONFLICT');
      });
    });
  });

  describe('GET /vaults/{vaultId}/members', () => {
    it('lists members with their public keys; a viewer does not see pending invitations', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      await addMember(owner, vaultId, alice, 'VIEWER', ring);
      const pending = await inviteOp(owner, vaultId, bob, 'CONTRIBUTOR', ring);
      expectStatus(await postInvitations(owner, vaultId, [pending]), 200);
      await env.db.updateTable('users').set({ name: 'Alice <b>A.</b>' }).where('id', '=', alice.userId).execute();

      const ownerView = await membersOf(owner, vaultId);
      expect(ownerView.map((m) => [m.userId, m.role, m.status]).sort()).toEqual(
        [
          [owner.userId, 'OWNER', 'ACCEPTED'],
          [alice.userId, 'VIEWER', 'ACCEPTED'],
          [bob.userId, 'CONTRIBUTOR', 'PENDING'],
        ].sort(),
      );
      expect(ownerView.find((m) => m.userId === alice.userId)).toMatchObject({
        email: alice.user.email,
        profileName: 'Alice <b>A.</b>',
        address: alice.user.address,
        publicSigningKey: alice.user.publicSigningKey,
        publicEncryptionKey: alice.user.publicEncryptionKey,
        holdsKeys: true,
        isPasswordless: false,
        invitedByUserId: owner.userId,
      });

      const viewerView = await membersOf(alice, vaultId);
      expect(viewerView.map((m) => m.userId).sort()).toEqual([owner.userId, alice.userId].sort());
      // The invitee sees themselves.
      expect((await membersOf(bob, vaultId)).map((m) => m.userId)).toContain(bob.userId);
      expectError(await api.get(`/api/vaults/${vaultId}/members`, { token: carol.token }), 404, 'NOT_FOUND');
    });

    it('shows a passwordless member without an e-mail and refuses a removed member', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      const membershipId = await addMember(owner, vaultId, carol, 'VIEWER', ring);
      await env.db.updateTable('users').set({ passwordless: 1 }).where('id', '=', carol.userId).execute();
      try {
        expect((await membersOf(owner, vaultId)).find((m) => m.userId === carol.userId)).toMatchObject({ email: null, isPasswordless: true });
      } finally {
        await env.db.updateTable('users').set({ passwordless: 0 }).where('id', '=', carol.userId).execute();
      }
      expectAccepted(await carol.apply(vaultId, membershipId, { type: 'member.leave' }));
      expectError(await api.get(`/api/vaults/${vaultId}/members`, { token: carol.token }), 403, 'FORBIDDEN');
    });
  });

  describe('GET /memberships/{membershipId}', () => {
    it('answers the caller their own membership and an owner any of the vault; 404 for others', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      await addMember(owner, vaultId, carol, 'VIEWER', ring);
      const op = await inviteOp(owner, vaultId, alice, 'CONTRIBUTOR', ring);
      expectStatus(await postInvitations(owner, vaultId, [op]), 200);
      const url = `/api/memberships/${op.objectId}`;

      for (const reader of [alice, owner]) {
        const response = await api.get(url, { token: reader.token });
        expectStatus(response, 200);
        expect(MembershipResponse.parse(response.body)).toMatchObject({
          vaultId,
          vaultStatus: 'ACTIVE',
          isPublic: false,
          invitedByEmail: owner.user.email,
          member: { membershipId: op.objectId, userId: alice.userId, status: 'PENDING', role: 'CONTRIBUTOR', holdsKeys: true },
        });
      }
      expectError(await api.get(url, { token: carol.token }), 404, 'NOT_FOUND');
      expectError(await api.get(url, { token: bob.token }), 404, 'NOT_FOUND');
      expectError(await api.get(`/api/memberships/${newId()}`, { token: alice.token }), 404, 'NOT_FOUND');

      // A revoked invitee still reads their membership (the invite page shows 'Your invite was revoked').
      const rotation = { keyCount: 2, sealedKeys: {} as Record<string, string> };
      const next = [...ring, ...createKeyRing()];
      for (const m of (await membersOf(owner, vaultId)).filter((x) => x.holdsKeys && x.userId !== alice.userId)) {
        rotation.sealedKeys[m.membershipId] = await sealRingTo(next, m.publicEncryptionKey);
      }
      expectAccepted(await owner.apply(vaultId, op.objectId, { type: 'member.revoke', rotation }));
      const revoked = await api.get(url, { token: alice.token });
      expectStatus(revoked, 200);
      expect(MembershipResponse.parse(revoked.body).member).toMatchObject({ status: 'REVOKED', role: 'REVOKED', holdsKeys: false });
    });
  });

  describe('membership rules and notifications', () => {
    it('notifies the inviter of an answer and the member of a role change or revoke; marks read', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      const accepted = await addMember(owner, vaultId, alice, 'VIEWER', ring);
      const rejected = await inviteOp(owner, vaultId, bob, 'VIEWER', ring);
      expectStatus(await postInvitations(owner, vaultId, [rejected]), 200);
      expectAccepted(await bob.apply(vaultId, rejected.objectId, { type: 'member.reject' }));
      const ownerNotes = await notificationsOf(owner);
      expect(ownerNotes.slice(0, 2).map((n) => [n.event, n.objectId, n.fromEmail])).toEqual([
        ['MEMBERSHIP_REJECT', rejected.objectId, bob.user.email],
        ['MEMBERSHIP_ACCEPT', accepted, alice.user.email],
      ]);

      expectAccepted(await owner.apply(vaultId, accepted, { type: 'member.changeRole', role: 'CONTRIBUTOR' }));
      expect((await notificationsOf(alice))[0]).toMatchObject({ event: 'MEMBERSHIP_CHANGE_ACCESS', objectId: accepted, fromEmail: owner.user.email });
      const ownerMembership = await membershipIdOf(env.db, vaultId, owner.userId);
      const next = [...ring, ...createKeyRing()];
      expectAccepted(
        await owner.apply(vaultId, accepted, {
          type: 'member.revoke',
          rotation: { keyCount: 2, sealedKeys: { [ownerMembership]: await sealRingTo(next, owner.user.publicEncryptionKey) } },
        }),
      );
      const [revoke] = await notificationsOf(alice);
      expect(revoke).toMatchObject({ event: 'MEMBERSHIP_REVOKE', objectId: accepted, status: 'UNREAD' });
      if (!revoke) throw new Error('No notification');

      expectError(await api.request('PATCH', `/api/notifications/${revoke.id}`, undefined, { token: owner.token }), 404, 'NOT_FOUND');
      expectStatus(await api.request('PATCH', `/api/notifications/${revoke.id}`, undefined, { token: alice.token }), 200);
      expect((await notificationsOf(alice)).find((n) => n.id === revoke.id)?.status).toBe('READ');
      expectError(await api.get('/api/notifications'), 401, 'UNAUTHENTICATED');
    });

    it('always keeps an accepted owner: the last one cannot be demoted, revoked or leave', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      const ownerMembership = await membershipIdOf(env.db, vaultId, owner.userId);
      const second = await addMember(owner, vaultId, alice, 'OWNER', ring);
      const rotation = { keyCount: 2, sealedKeys: { [second]: sealed(80).c } };
      // Two owners: one may step down to contributor.
      expectAccepted(await alice.apply(vaultId, ownerMembership, { type: 'member.changeRole', role: 'CONTRIBUTOR' }));
      await expectNothingChanged([vaultId], async () => {
        expectRejected(await alice.apply(vaultId, second, { type: 'member.changeRole', role: 'VIEWER' }), 'INVALID_OPERATION');
        expectRejected(await alice.apply(vaultId, second, { type: 'member.leave' }), 'INVALID_OPERATION');
        expectRejected(await alice.apply(vaultId, second, { type: 'member.revoke', rotation }), 'INVALID_OPERATION');
      });
      expectAccepted(await alice.apply(vaultId, ownerMembership, { type: 'member.changeRole', role: 'OWNER' }));
      expectAccepted(await alice.apply(vaultId, second, { type: 'member.leave' }));
    });

    it('confirms an INVITED member with the ring (INVITED -> PENDING), then they accept', async () => {
      const { vaultId, ring } = await createPrivateVault(owner);
      const membershipId = await insertMembership(env.db, vaultId, bob.userId, 'VIEWER', 'INVITED', { invitedByUserId: owner.userId });
      expectRejected(await bob.apply(vaultId, membershipId, { type: 'member.accept' }), 'INVALID_OPERATION');
      expectRejected(await owner.apply(vaultId, membershipId, { type: 'member.confirm', keys: sealed(80).c, keyCount: 2 }), 'STALE_VAULT_KEY');
      expectAccepted(
        await owner.apply(vaultId, membershipId, { type: 'member.confirm', keys: await sealRingTo(ring, bob.user.publicEncryptionKey), keyCount: 1 }),
      );
      expectRejected(await owner.apply(vaultId, membershipId, { type: 'member.confirm', keys: sealed(80).c, keyCount: 1 }), 'INVALID_OPERATION');
      expectAccepted(await bob.apply(vaultId, membershipId, { type: 'member.accept' }));
      expect(await bob.user.openKeyRing((await summaryOf(bob, vaultId)).membership.keys ?? '')).toEqual(ring);
    });
  });
});
