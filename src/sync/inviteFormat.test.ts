/**
 * The invitation format change (SYNC_SPEC R55): `member.invite` used to carry the invitee's
 * e-mail inside the signed body. Those operations are in vaults' logs for good, so a device must
 * still parse, verify and apply them; the timeline names the invitee from the member list the
 * server answers (by membership id), never from the body.
 */
import { describe, expect, it } from 'vitest';
import { deriveWalletKeysFromEntropy } from '../crypto/keys';
import { signOperation, verifyOperations } from '../crypto/operations';
import { buildTimeline, type TimelineContext } from '../features/timeline/timelineItems';
import { describeItem } from '../features/timeline/timelineText';
import { PullResponse } from '../protocol/vaults';
import { emptyVaultRecord, newVaultState } from '../storage/vaultProjection';
import { applyOperation } from './applyOperation';

const INVITEE_EMAIL = 'dana.reyes@example.com';

async function oldFormatInvite() {
  const keys = await deriveWalletKeysFromEntropy(new Uint8Array(16).fill(7));
  const author = Array.from(keys.signingPublicKey, (b) => b.toString(16).padStart(2, '0')).join('');
  const signed = await signOperation(keys.signingPrivateKey, {
    id: 'op_invite_before_issue_18',
    vaultId: 'vault_1',
    objectId: 'membership_dana',
    author,
    createdAt: 1_700_000_000_000,
    body: { type: 'member.invite', email: INVITEE_EMAIL, role: 'VIEWER', memberKey: 'd'.repeat(64) },
  });
  // As a pull brings it: JSON from the server, through the page schema.
  const page = PullResponse.parse(JSON.parse(JSON.stringify({ ops: [{ seq: 2, receivedAt: 5, op: signed }], headSeq: 2, hasMore: false })));
  return { author, pulled: page.ops[0]! };
}

describe('[R55] invitations signed with an e-mail, before issue 18', () => {
  it('still parse, verify and apply, leaving the vault and its nodes as they were', async () => {
    const { pulled } = await oldFormatInvite();
    expect(pulled.op.body).toMatchObject({ type: 'member.invite', email: INVITEE_EMAIL });
    expect(await verifyOperations([pulled.op])).toEqual([true]);
    const state = newVaultState(emptyVaultRecord('acc', 'vault_1'));
    const before = structuredClone({ vault: state.vault, nodes: [...state.nodes.values()] });
    applyOperation(state, { op: pulled.op, fields: {}, time: pulled.receivedAt, isPending: false, seq: pulled.seq });
    expect({ vault: { ...state.vault, updatedAt: before.vault.updatedAt }, nodes: [...state.nodes.values()] }).toEqual(before);
  });

  it('the timeline names the invitee from the member list, and shows no e-mail the body carried', async () => {
    const { author, pulled } = await oldFormatInvite();
    const entry = { seq: pulled.seq, postedAt: pulled.receivedAt, op: pulled.op, isVerified: true, fields: {}, isPending: false };
    const ctx: TimelineContext = {
      viewerKey: author,
      viewerRole: 'OWNER',
      members: [{ membershipId: 'membership_dana', publicSigningKey: 'd'.repeat(64), email: INVITEE_EMAIL, profileName: 'Dana Reyes', status: 'ACCEPTED' }],
      nodes: new Map(),
    };
    const [named] = buildTimeline([entry], ctx);
    expect(describeItem(named!)).toEqual({ before: 'invited', object: 'Dana Reyes', after: ' as Viewer' });
    // A viewer whose member list does not show this member: 'someone', not the body's e-mail.
    const [unnamed] = buildTimeline([entry], { ...ctx, viewerRole: 'VIEWER', members: [] });
    expect(describeItem(unnamed!)).toEqual({ before: 'invited', object: 'someone', after: ' as Viewer' });
    expect(JSON.stringify(unnamed)).not.toContain(INVITEE_EMAIL);
  });
});
