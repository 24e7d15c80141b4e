/**
 * Invitation e-mails are rate-limited (docs/decisions.md): at most INVITATION_MAIL_LIMITS.perInvitee
 * e-mails per invitee and vault, and perVault per vault, in any hour, invitations, re-invitations
 * and resends alike. Past a limit the request answers 429 RATE_LIMITED, writes no e-mail and no
 * notification, and changes nothing; an hour later it works again.
 */
import { beforeAll, expect, it } from 'vitest';
import { ApiClient, errorCode } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { readMailbox } from '../testing/mailbox';
import { createPrivateVault, inviteOp, postInvitations } from '../testing/members';
import { countVaultRows, expectAccepted, newId, VaultActor, vaultState } from '../testing/vaults';
import { INVITATION_MAIL_LIMITS } from '../services/MemberService';
import { InviteResponse } from '../../src/protocol/members';

describeEachDatabase('invitation e-mail limits', (env) => {
  let api: ApiClient;
  let owner: VaultActor;
  let alice: VaultActor;
  let bob: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
    alice = await VaultActor.create(env, api);
    bob = await VaultActor.create(env, api);
  });

  function mailsTo(actor: VaultActor): number {
    return readMailbox(env.dataDir).filter((m) => m.to.includes(actor.user.email)).length;
  }

  /** The refused request changed nothing: no row, no field of the vault, no e-mail at all. */
  async function expectRefused(vaultId: string, attempt: () => Promise<void>): Promise<void> {
    const rows = await countVaultRows(env.db);
    const state = await vaultState(env.db, vaultId);
    const mails = readMailbox(env.dataDir).length;
    await attempt();
    expect(await countVaultRows(env.db)).toEqual(rows);
    expect(await vaultState(env.db, vaultId)).toEqual(state);
    expect(readMailbox(env.dataDir)).toHaveLength(mails);
  }

  it('40 resends of one invitation e-mail the invitee 3 times in the hour, then again after it', async () => {
    const { vaultId, ring } = await createPrivateVault(owner);
    const op = await inviteOp(owner, vaultId, alice, 'VIEWER', ring);
    expectStatus(await postInvitations(owner, vaultId, [op]), 200);
    const url = `/api/vaults/${vaultId}/members/${op.objectId}/resend`;
    const answers: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const before = { rows: await countVaultRows(env.db), mails: readMailbox(env.dataDir).length };
      const response = await api.post(url, undefined, { token: owner.token });
      answers.push(response.status);
      if (response.status === 429) {
        expect(errorCode(response)).toBe('RATE_LIMITED');
        expect(await countVaultRows(env.db)).toEqual(before.rows);
        expect(readMailbox(env.dataDir)).toHaveLength(before.mails);
      }
    }
    expect(answers).toEqual([200, 200, ...Array<number>(38).fill(429)]);
    // The invitation and two resends: the invitee's whole share of the hour.
    const invitationMails = readMailbox(env.dataDir).filter((m) => m.to.includes(alice.user.email) && m.links.some((l) => l.includes(op.objectId)));
    expect(invitationMails).toHaveLength(INVITATION_MAIL_LIMITS.perInvitee);
    const refused = await api.post(url, undefined, { token: owner.token });
    expect((refused.body as { error: { message: string } }).error.message).toMatch(/invitation e-mails for this vault in the last hour/);

    env.clock.advance(INVITATION_MAIL_LIMITS.windowMs + 1);
    const mails = mailsTo(alice);
    expectStatus(await api.post(url, undefined, { token: owner.token }), 200);
    expect(mailsTo(alice)).toBeGreaterThan(mails);
  });

  it('re-inviting after each rejection counts the same: the fourth invitation in the hour is refused whole', async () => {
    const { vaultId, ring } = await createPrivateVault(owner);
    let membershipId = '';
    for (let i = 0; i < INVITATION_MAIL_LIMITS.perInvitee; i += 1) {
      const op = await inviteOp(owner, vaultId, bob, 'VIEWER', ring);
      const again = membershipId ? await owner.sign(vaultId, membershipId, op.body) : op;
      const response = await postInvitations(owner, vaultId, [again]);
      expectStatus(response, 200);
      expectAccepted(InviteResponse.parse(response.body).results[0]);
      membershipId = again.objectId;
      expectAccepted(await bob.apply(vaultId, membershipId, { type: 'member.reject' }));
    }
    const mails = mailsTo(bob);
    await expectRefused(vaultId, async () => {
      const op = await inviteOp(owner, vaultId, bob, 'VIEWER', ring);
      expectError(await postInvitations(owner, vaultId, [await owner.sign(vaultId, membershipId, op.body)]), 429, 'RATE_LIMITED');
    });
    expect(mailsTo(bob)).toBe(mails);
  });

  it(`a vault sends at most ${INVITATION_MAIL_LIMITS.perVault} invitation e-mails an hour, whoever they go to`, async () => {
    const { vaultId, ring } = await createPrivateVault(owner);
    // The hour's earlier sends, to someone else: the vault has two e-mails left.
    const earlier = env.clock.now() - 60_000;
    for (let i = 0; i < INVITATION_MAIL_LIMITS.perVault - 2; i += 1) {
      await env.db.insertInto('invitation_mails').values({ id: newId(), vault_id: vaultId, invitee_user_id: owner.userId, sent_at: earlier }).execute();
    }
    // Two at once would be one too many with a third: refused whole.
    const three = [await inviteOp(owner, vaultId, alice, 'VIEWER', ring), await inviteOp(owner, vaultId, bob, 'VIEWER', ring)];
    const carol = await VaultActor.create(env, api);
    await expectRefused(vaultId, async () => {
      const response = await postInvitations(owner, vaultId, [...three, await inviteOp(owner, vaultId, carol, 'VIEWER', ring)]);
      expectError(response, 429, 'RATE_LIMITED');
      expect((response.body as { error: { message: string } }).error.message).toMatch(/This vault has sent 50 invitation e-mails/);
    });
    const response = await postInvitations(owner, vaultId, three);
    expectStatus(response, 200);
    for (const result of InviteResponse.parse(response.body).results) expectAccepted(result);
    await expectRefused(vaultId, async () => {
      expectError(await api.post(`/api/vaults/${vaultId}/members/${three[0]?.objectId}/resend`, undefined, { token: owner.token }), 429, 'RATE_LIMITED');
    });
  });
});
