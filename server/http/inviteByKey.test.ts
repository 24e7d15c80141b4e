/**
 * E-mail addresses stay out of signed operations (SYNC_SPEC R55): `member.invite` names the
 * invitee by signing key; the server finds the account by it and mails the account's address.
 * What every member pulls forever, the vault's log, holds no invitee's e-mail; an invitation that
 * carries one is refused and changes nothing.
 */
import { beforeAll, expect, it } from 'vitest';
import { InviteResponse } from '../../src/protocol/members';
import { PullResponse } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { readMailbox } from '../testing/mailbox';
import { createPrivateVault, invite, inviteOp, membersOf, postInvitations, sealRingTo } from '../testing/members';
import { countVaultRows, expectAccepted, newId, VaultActor } from '../testing/vaults';

describeEachDatabase('invitations by key', (env) => {
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

  async function logOf(reader: VaultActor, vaultId: string): Promise<string> {
    const response = await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: reader.token });
    expectStatus(response, 200);
    PullResponse.parse(response.body);
    return response.raw;
  }

  it('[R55] the invitation carries no e-mail; the invitee is mailed at the account address; the log holds no address', async () => {
    const { vaultId, ring } = await createPrivateVault(owner);
    const op = await inviteOp(owner, vaultId, alice, 'VIEWER', ring);
    expect(op.body).not.toHaveProperty('email');
    const response = await postInvitations(owner, vaultId, [op]);
    expectStatus(response, 200);
    expectAccepted(InviteResponse.parse(response.body).results[0]);
    const invitations = readMailbox(env.dataDir).filter((m) => m.links.some((link) => link.includes(`membershipId=${op.objectId}`)));
    expect(invitations.map((m) => m.to)).toEqual([alice.user.email]);
    // Members see each other's addresses in the member list the server answers, not in the log.
    expectAccepted(await alice.apply(vaultId, op.objectId, { type: 'member.accept' }));
    expectAccepted(await invite(owner, vaultId, bob, 'CONTRIBUTOR', ring));
    for (const reader of [owner, alice]) {
      const log = await logOf(reader, vaultId);
      expect(log).toContain('member.invite');
      expect(log).not.toContain(alice.user.email);
      expect(log).not.toContain(bob.user.email);
    }
    expect((await membersOf(owner, vaultId)).find((m) => m.membershipId === op.objectId)?.email).toBe(alice.user.email);
  });

  it('[R55] an invitation with the e-mail in its signed body is refused and changes nothing', async () => {
    const { vaultId, ring } = await createPrivateVault(owner);
    const oldFormat = await owner.sign(vaultId, newId(), {
      type: 'member.invite',
      email: bob.user.email,
      role: 'VIEWER',
      memberKey: bob.user.publicSigningKey,
      keys: await sealRingTo(ring, bob.user.publicEncryptionKey),
      keyCount: 1,
    });
    const rows = await countVaultRows(env.db);
    const mails = readMailbox(env.dataDir).length;
    const response = await postInvitations(owner, vaultId, [oldFormat]);
    expectStatus(response, 200);
    const [result] = InviteResponse.parse(response.body).results;
    expect(result).toMatchObject({ status: 'rejected', error: { code: 'VALIDATION_FAILED' } });
    expect(await countVaultRows(env.db)).toEqual(rows);
    expect(readMailbox(env.dataDir)).toHaveLength(mails);
    expect(await logOf(owner, vaultId)).not.toContain(bob.user.email);
  });
});
