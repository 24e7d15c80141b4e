/**
 * Issue 18 (trust): an address is taken only once its mailbox is proven, and the verification
 * route answers a wrong code the same way whatever the address's state.
 */
import { expect, it } from 'vitest';
import { LoginFinishResponse, SessionResult } from '../../src/protocol/auth';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus, logIn, signUp, signUpVerified, verificationLink } from '../testing/flows';
import { encodeUid } from '../services/SignupService';
import { TestUser } from '../testing/TestUser';
import { createPrivateVault, postInvitations, sealRingTo } from '../testing/members';
import { newId, VaultActor } from '../testing/vaults';
import { InviteResponse } from '../../src/protocol/members';

describeEachDatabase('sign-up squatting and verification answers', (env) => {
  it("a new sign-up replaces an unverified one: the squatter's link stops working, the owner's works and logs in with the owner's keys", async () => {
    const api = new ApiClient(await env.buildApp());
    const email = `victim-${Date.now()}@example.com`;
    const attacker = await TestUser.create({ email });
    expectStatus(await signUp(api, attacker), 200);
    const attackerLink = verificationLink(env.dataDir, email);

    const victim = await TestUser.create({ email });
    expectStatus(await signUp(api, victim), 200);
    const victimLink = verificationLink(env.dataDir, email);
    expect(victimLink.code).not.toBe(attackerLink.code);

    // The link e-mailed for the squatter's sign-up is dead; the victim's own link works.
    expectError(await api.post('/api/auth/verify-email', { uid: attackerLink.uid, code: attackerLink.code }), 400, 'CODE_MISMATCH');
    expect((await api.post('/api/auth/verify-email', { uid: victimLink.uid, code: victimLink.code })).body).toEqual({ status: 'VERIFIED' });

    const { response } = await logIn(api, victim);
    expectStatus(response, 200);
    const session = SessionResult.parse(LoginFinishResponse.parse(response.body));
    expect(session.user).toMatchObject({ email, address: victim.address, publicSigningKey: victim.publicSigningKey });
    // The squatter's password opens nothing.
    expect((await logIn(api, attacker)).proofRejectedByClient).toBe(true);
    expect(await env.db.selectFrom('users').select('address').where('email', '=', email).execute()).toEqual([{ address: victim.address }]);
  });

  it('a verified address stays taken, and a refused sign-up changes nothing', async () => {
    const api = new ApiClient(await env.buildApp());
    const owner = await TestUser.create();
    await signUpVerified(api, env.dataDir, owner);
    expectError(await signUp(api, await TestUser.create({ email: owner.email })), 409, 'EMAIL_TAKEN');
    expectStatus((await logIn(api, owner)).response, 200);
  });

  it('answers a wrong verification code alike for unknown, unverified and verified addresses', async () => {
    const api = new ApiClient(await env.buildApp());
    const verified = await TestUser.create();
    await signUpVerified(api, env.dataDir, verified);
    const unverified = await TestUser.create();
    expectStatus(await signUp(api, unverified), 200);
    const bogus = 'A'.repeat(43);
    const answers = [];
    for (const email of [verified.email, unverified.email, `nobody-${Date.now()}@example.com`]) {
      const response = await api.post('/api/auth/verify-email', { uid: encodeUid({ email }), code: bogus });
      answers.push({ status: response.status, body: response.body });
    }
    expect(answers[0]).toEqual({ status: 400, body: { error: { code: 'CODE_MISMATCH', message: expect.any(String) } } });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('following the real link again still answers CONFIRMED, even after it expired', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    expectStatus(await signUp(api, user), 200);
    const link = verificationLink(env.dataDir, user.email);
    expect((await api.post('/api/auth/verify-email', { uid: link.uid, code: link.code })).body).toEqual({ status: 'VERIFIED' });
    expect((await api.post('/api/auth/verify-email', { uid: link.uid, code: link.code })).body).toEqual({ status: 'CONFIRMED' });
    env.clock.advance(25 * 60 * 60 * 1000);
    expect((await api.post('/api/auth/verify-email', { uid: link.uid, code: link.code })).body).toEqual({ status: 'CONFIRMED' });
  });

  it('[R57] an unverified sign-up cannot be looked up, nor sealed a vault key by invitation', async () => {
    const api = new ApiClient(await env.buildApp());
    const owner = await VaultActor.create(env, api);
    const { vaultId, ring } = await createPrivateVault(owner);
    const squatter = await TestUser.create();
    expectStatus(await signUp(api, squatter), 200);

    expectError(await api.get(`/api/users/lookup?email=${encodeURIComponent(squatter.email)}`, { token: owner.token }), 404, 'USER_NOT_FOUND');
    // An invitation made from the key anyway (an owner's device fooled, or a script) is refused.
    const op = await owner.sign(vaultId, newId(), {
      type: 'member.invite',
      role: 'VIEWER',
      memberKey: squatter.publicSigningKey,
      keys: await sealRingTo(ring, squatter.publicEncryptionKey),
      keyCount: ring.length,
    });
    const response = await postInvitations(owner, vaultId, [op]);
    expectStatus(response, 200);
    expect(InviteResponse.parse(response.body).results).toEqual([{ id: op.id, status: 'rejected', error: { code: 'USER_NOT_FOUND', message: expect.any(String) } }]);
    expect(await env.db.selectFrom('memberships').select('id').where('vault_id', '=', vaultId).execute()).toHaveLength(1);
  });
});
