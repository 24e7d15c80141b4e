/**
 * Referrals (issue 22; SYNC_SPEC R132-R134; spec 001 sections 2, 5 and 9): the summary, 'Invite
 * now' e-mails and their limits, and the reward: 100 MB of permanent storage for each referred
 * account's first verified sign-up, counted once, at most 10, with a REFERRAL_REWARD notification.
 * Both databases.
 */
import { expect, it } from 'vitest';
import { NotificationListResponse } from '../../src/protocol/members';
import { ReferralSummary } from '../../src/protocol/referrals';
import { StorageResponse } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus, signUp, verifyEmail } from '../testing/flows';
import { readMailbox } from '../testing/mailbox';
import { TestUser } from '../testing/TestUser';
import { VaultActor } from '../testing/vaults';

async function summaryOf(actor: VaultActor): Promise<ReferralSummary> {
  const response = await actor.api.get('/api/referrals', { token: actor.token });
  expectStatus(response, 200);
  return ReferralSummary.parse(response.body);
}

async function permanentTotal(actor: VaultActor): Promise<number> {
  return StorageResponse.parse((await actor.api.get('/api/storage', { token: actor.token })).body).permanentTotal;
}

/** A new account signed up with `referralId` and verified by its link; answers the verification. */
async function referredSignUp(api: ApiClient, dataDir: string, referralId: string) {
  const user = await TestUser.create();
  expectStatus(await signUp(api, user, { referrerId: referralId }), 200);
  return { user, verified: await verifyEmail(api, dataDir, user.email) };
}

describeEachDatabase('referrals (R132-R134)', (env) => {
  it('[R133] a referred account verified grows the referrer by 100 MB of permanent storage once, with a notification; verifying again changes nothing', async () => {
    const api = new ApiClient(await env.buildApp());
    const referrer = await VaultActor.create(env, api);
    const { referralId } = await summaryOf(referrer);
    expect(await summaryOf(referrer)).toEqual({ referralId, rewarded: 0, left: 10 });
    const before = await permanentTotal(referrer);

    // Signed up but not verified yet: nothing.
    const user = await TestUser.create();
    expectStatus(await signUp(api, user, { referrerId: referralId }), 200);
    expect(await permanentTotal(referrer)).toBe(before);

    expectStatus(await verifyEmail(api, env.dataDir, user.email), 200);
    expect(await permanentTotal(referrer)).toBe(before + 100_000_000);
    expect(await summaryOf(referrer)).toEqual({ referralId, rewarded: 1, left: 9 });
    const notifications = NotificationListResponse.parse((await api.get('/api/notifications', { token: referrer.token })).body).notifications;
    expect(notifications.filter((n) => n.event === 'REFERRAL_REWARD').map((n) => [n.fromEmail, n.objectType, n.vaultId])).toEqual([[user.email.toLowerCase(), 'account', null]]);

    // The same link followed again: CONFIRMED, and still one reward.
    expectStatus(await verifyEmail(api, env.dataDir, user.email), 200);
    expect(await permanentTotal(referrer)).toBe(before + 100_000_000);
    expect((await summaryOf(referrer)).rewarded).toBe(1);
  });

  it('[R133] ten rewards at most: the eleventh referred sign-up gives nothing; an unknown referral id is ignored', async () => {
    const api = new ApiClient(await env.buildApp());
    const referrer = await VaultActor.create(env, api);
    const { referralId } = await summaryOf(referrer);
    const before = await permanentTotal(referrer);
    for (let i = 0; i < 10; i++) expectStatus((await referredSignUp(api, env.dataDir, referralId)).verified, 200);
    expect(await summaryOf(referrer)).toEqual({ referralId, rewarded: 10, left: 0 });
    expect(await permanentTotal(referrer)).toBe(before + 1_000_000_000);

    const eleventh = await referredSignUp(api, env.dataDir, referralId);
    expectStatus(eleventh.verified, 200);
    expect(await summaryOf(referrer)).toEqual({ referralId, rewarded: 10, left: 0 });
    expect(await permanentTotal(referrer)).toBe(before + 1_000_000_000);

    const stranger = await TestUser.create();
    expectStatus(await signUp(api, stranger, { referrerId: 'nosuchreferralid' }), 200);
    expectStatus(await verifyEmail(api, env.dataDir, stranger.email), 200);
    expect(await env.db.selectFrom('referral_rewards').select('referred_user_id').where('referrer_user_id', '=', referrer.userId).execute()).toHaveLength(10);
  });

  it('[R134] Invite now e-mails the referral link to each address, no more than the rewards left, not to oneself, and is rate-limited', async () => {
    const api = new ApiClient(await env.buildApp({ config: { authRateLimit: 3 } }));
    const referrer = await VaultActor.create(env, api);
    const { referralId } = await summaryOf(referrer);
    const before = readMailbox(env.dataDir).length;
    const sent = await api.post('/api/referrals', { emails: ['Friend.One@Example.com', 'friend.two@example.com', 'friend.two@example.com'] }, { token: referrer.token });
    expectStatus(sent, 200);
    expect(sent.body).toEqual({ sent: 2 });
    const mails = readMailbox(env.dataDir).slice(before);
    expect(mails.map((m) => m.to).sort()).toEqual(['friend.one@example.com', 'friend.two@example.com']);
    expect(mails[0]?.subject).toBe(`${referrer.user.email.toLowerCase()} invited you to Cairn`);
    expect(mails[0]?.links).toContain(`http://cairn.test/signup/?referrerId=${referralId}`);

    expectError(await api.post('/api/referrals', { emails: ['not an address'] }, { token: referrer.token }), 400, 'VALIDATION_FAILED');
    const self = await api.post('/api/referrals', { emails: [referrer.user.email] }, { token: referrer.token });
    expectError(self, 400, 'VALIDATION_FAILED');
    expectError(await api.post('/api/referrals', { emails: ['x@example.com'] }, { token: referrer.token }), 429, 'RATE_LIMITED');
    expect(readMailbox(env.dataDir).length).toBe(before + 2);
    expectError(await api.get('/api/referrals'), 401, 'UNAUTHENTICATED');
  });

  it('[R134] with fewer rewards left than addresses, nothing is sent', async () => {
    const api = new ApiClient(await env.buildApp());
    const referrer = await VaultActor.create(env, api);
    const { referralId } = await summaryOf(referrer);
    for (let i = 0; i < 9; i++) expectStatus((await referredSignUp(api, env.dataDir, referralId)).verified, 200);
    const before = readMailbox(env.dataDir).length;
    const refused = await api.post('/api/referrals', { emails: ['a@example.com', 'b@example.com'] }, { token: referrer.token });
    expectError(refused, 400, 'VALIDATION_FAILED');
    expect(JSON.stringify(refused.body)).toContain('You have 1 referral reward left: invite at most 1 person.');
    expect(readMailbox(env.dataDir).length).toBe(before);
    expectStatus(await api.post('/api/referrals', { emails: ['a@example.com'] }, { token: referrer.token }), 200);
  });
});
