/**
 * DESIGN.md section 3 with real libsodium and the real server: removing someone from a private
 * vault rotates its key, so what is written afterwards is sealed under a key they never had.
 * Revoke rotates in the same operation; leave marks the vault and the next owner or contributor
 * rotates (vault.rotateKeys), new sealed content waiting meanwhile (KEY_ROTATION_PENDING). The
 * server refuses content sealed under an older key (STALE_VAULT_KEY) and a removed member's pull.
 */
import { beforeAll, expect, it } from 'vitest';
import { type FieldContext, openField } from '../../src/crypto/fieldEnvelope';
import { addKey, type KeyRing } from '../../src/crypto/keyRing';
import { loadSodium } from '../../src/crypto/sodium';
import { PullResponse, type SealedField } from '../../src/protocol/vaults';
import { ApiClient, errorCode } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { addMember, createPrivateVault, membersOf, sealNewest, sealRingTo, summaryOf } from '../testing/members';
import { expectAccepted, expectRejected, newId, VaultActor } from '../testing/vaults';

/** The name of `objectId` as stored in the vault's log, pulled by `reader`. */
async function pulledName(reader: VaultActor, vaultId: string, objectId: string): Promise<SealedField> {
  const response = await reader.api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: reader.token });
  expectStatus(response, 200);
  const op = PullResponse.parse(response.body).ops.find((o) => o.op.objectId === objectId)?.op;
  if (op?.body.type !== 'folder.create' && op?.body.type !== 'vault.create') throw new Error('No named operation');
  if (!('key' in op.body.name)) throw new Error('A clear name in a private vault');
  return op.body.name;
}

/** Opens `sealed` with the key its number names in `ring`; throws when the ring lacks it or it does not open. */
async function openWith(ring: KeyRing, context: FieldContext, sealed: SealedField): Promise<string> {
  const key = ring[sealed.key];
  if (!key) throw new Error('BAD_FIELD');
  return openField(await loadSodium(), key, context, sealed);
}

/** The ring sealed to `actor` in their vault summary, opened with their private key. */
async function ringOf(actor: VaultActor, vaultId: string): Promise<KeyRing> {
  const keys = (await summaryOf(actor, vaultId)).membership.keys;
  if (!keys) throw new Error('No ring sealed to this member');
  return actor.user.openKeyRing(keys);
}

describeEachDatabase('key rotation', (env) => {
  let owner: VaultActor;
  let contributor: VaultActor;
  let member: VaultActor;

  beforeAll(async () => {
    const api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
    contributor = await VaultActor.create(env, api);
    member = await VaultActor.create(env, api);
  });

  async function folder(actor: VaultActor, vaultId: string, ring: KeyRing, name: string) {
    const folderId = newId();
    const sealed = await sealNewest(ring, { vaultId, objectId: folderId, field: 'name' }, name);
    return { folderId, sealed, result: await actor.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: sealed }) };
  }

  it('revoking a member rotates the key: their ring opens nothing new, old-key content is refused, their pull is 403', async () => {
    const { vaultId, ring } = await createPrivateVault(owner, 'Before the revoke');
    const membershipId = await addMember(owner, vaultId, member, 'VIEWER', ring);

    // The member could read: their ring opens the vault's name.
    const memberRing = await ringOf(member, vaultId);
    expect(await openWith(memberRing, { vaultId, objectId: vaultId, field: 'name' }, await pulledName(member, vaultId, vaultId))).toBe('Before the revoke');

    const ownerMembership = (await membersOf(owner, vaultId)).find((m) => m.userId === owner.userId);
    if (!ownerMembership) throw new Error('No owner membership');
    const newRing = addKey(ring);
    expectAccepted(
      await owner.apply(vaultId, membershipId, {
        type: 'member.revoke',
        rotation: { keyCount: 2, sealedKeys: { [ownerMembership.membershipId]: await sealRingTo(newRing, owner.user.publicEncryptionKey) } },
      }),
    );
    const summary = await summaryOf(owner, vaultId);
    expect({ keyCount: summary.keyCount, needsKeyRotation: summary.needsKeyRotation }).toEqual({ keyCount: 2, needsKeyRotation: false });
    expect((await summaryOf(member, vaultId)).membership).toMatchObject({ status: 'REVOKED', role: 'REVOKED', keys: null });

    // The owner reopens the ring from the server: two keys, the first unchanged.
    const ownerRing = await ringOf(owner, vaultId);
    expect(ownerRing).toHaveLength(2);
    expect(ownerRing[0]).toEqual(ring[0]);

    const after = await folder(owner, vaultId, ownerRing, 'After the revoke');
    expectAccepted(after.result);
    const stored = await pulledName(owner, vaultId, after.folderId);
    const context: FieldContext = { vaultId, objectId: after.folderId, field: 'name' };
    expect(stored.key).toBe(1);
    expect(await openWith(ownerRing, context, stored)).toBe('After the revoke');
    // The revoked member's ring has no key 1, and its key 0 does not open the new field.
    await expect(openWith(memberRing, context, stored)).rejects.toThrow('BAD_FIELD');
    const memberKey = memberRing[0];
    if (!memberKey) throw new Error('Empty ring');
    const sodium = await loadSodium();
    expect(() => openField(sodium, memberKey, context, stored)).toThrow('BAD_FIELD');

    // Content sealed under the old key is refused, whoever writes it.
    const stale = await folder(owner, vaultId, ring, 'Sealed under the old key');
    expectRejected(stale.result, 'STALE_VAULT_KEY');

    const pull = await member.api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: member.token });
    expect({ status: pull.status, code: errorCode(pull) }).toEqual({ status: 403, code: 'FORBIDDEN' });
  });

  it('a leave waits for a rotation by an owner or contributor; the leaver is shut out the same way', async () => {
    const { vaultId, ring } = await createPrivateVault(owner, 'Before the leave');
    await addMember(owner, vaultId, contributor, 'CONTRIBUTOR', ring);
    const leaverMembership = await addMember(owner, vaultId, member, 'VIEWER', ring);
    const leaverRing = await ringOf(member, vaultId);

    expectAccepted(await member.apply(vaultId, leaverMembership, { type: 'member.leave' }));
    expect((await summaryOf(owner, vaultId)).needsKeyRotation).toBe(true);

    // New sealed content waits; changes without sealed fields go on.
    const early = await folder(contributor, vaultId, ring, 'Too early');
    expectRejected(early.result, 'KEY_ROTATION_PENDING');
    expectRejected((await folder(owner, vaultId, ring, 'Too early')).result, 'KEY_ROTATION_PENDING');
    expectAccepted(await owner.apply(vaultId, vaultId, { type: 'vault.archive' }));
    expectAccepted(await owner.apply(vaultId, vaultId, { type: 'vault.restore' }));

    // The contributor rotates: sealed to exactly the members holding keys, as the member list says.
    const holders = (await membersOf(contributor, vaultId)).filter((m) => m.holdsKeys);
    expect(holders.map((m) => m.userId).sort()).toEqual([owner.userId, contributor.userId].sort());
    const contributorRing = await ringOf(contributor, vaultId);
    const newRing = addKey(contributorRing);
    const sealedKeys: Record<string, string> = {};
    for (const holder of holders) sealedKeys[holder.membershipId] = await sealRingTo(newRing, holder.publicEncryptionKey);

    // Leaving someone out, or sealing to the leaver, is refused and changes nothing.
    const [first] = holders;
    if (!first) throw new Error('No holder');
    const { [first.membershipId]: _left, ...missingOne } = sealedKeys;
    expectRejected(await contributor.apply(vaultId, vaultId, { type: 'vault.rotateKeys', rotation: { keyCount: 2, sealedKeys: missingOne } }), 'CONFLICT');
    const withLeaver = { ...sealedKeys, [leaverMembership]: await sealRingTo(newRing, member.user.publicEncryptionKey) };
    expectRejected(await contributor.apply(vaultId, vaultId, { type: 'vault.rotateKeys', rotation: { keyCount: 2, sealedKeys: withLeaver } }), 'CONFLICT');
    expectRejected(await contributor.apply(vaultId, vaultId, { type: 'vault.rotateKeys', rotation: { keyCount: 3, sealedKeys } }), 'CONFLICT');
    expect((await summaryOf(owner, vaultId)).keyCount).toBe(1);

    expectAccepted(await contributor.apply(vaultId, vaultId, { type: 'vault.rotateKeys', rotation: { keyCount: 2, sealedKeys } }));
    const summary = await summaryOf(owner, vaultId);
    expect({ keyCount: summary.keyCount, needsKeyRotation: summary.needsKeyRotation }).toEqual({ keyCount: 2, needsKeyRotation: false });
    // [R58] The leave asked for one rotation; a second one is not asked for.
    const again: Record<string, string> = {};
    for (const holder of holders) again[holder.membershipId] = await sealRingTo(addKey(newRing), holder.publicEncryptionKey);
    expectRejected(await contributor.apply(vaultId, vaultId, { type: 'vault.rotateKeys', rotation: { keyCount: 3, sealedKeys: again } }), 'INVALID_OPERATION');
    expect((await summaryOf(owner, vaultId)).keyCount).toBe(2);

    // The retried folder is resealed under the new key (the owner's ring, reopened, has it).
    const ownerRing = await ringOf(owner, vaultId);
    expect(ownerRing[1]).toEqual(newRing[1]);
    const retried = await folder(contributor, vaultId, newRing, 'After the rotation');
    expectAccepted(retried.result);
    expectRejected((await folder(contributor, vaultId, ring, 'Old key')).result, 'STALE_VAULT_KEY');

    const stored = await pulledName(owner, vaultId, retried.folderId);
    const context: FieldContext = { vaultId, objectId: retried.folderId, field: 'name' };
    expect(await openWith(ownerRing, context, stored)).toBe('After the rotation');
    await expect(openWith(leaverRing, context, stored)).rejects.toThrow('BAD_FIELD');

    const pull = await member.api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: member.token });
    expect({ status: pull.status, code: errorCode(pull) }).toEqual({ status: 403, code: 'FORBIDDEN' });
  });

  it('[R20] a rotation nobody asked for is refused, even a well-formed one; the owner still writes and revokes', async () => {
    const { vaultId, ring } = await createPrivateVault(owner, 'Not yours to rotate');
    const contributorMembership = await addMember(owner, vaultId, contributor, 'CONTRIBUTOR', ring);
    const before = await summaryOf(owner, vaultId);

    // The attacker's ring: a fresh key sealed to every holder, so only the rule can refuse it.
    const holders = (await membersOf(contributor, vaultId)).filter((m) => m.holdsKeys);
    const attackerRing = addKey(await ringOf(contributor, vaultId));
    const sealedKeys: Record<string, string> = {};
    for (const holder of holders) sealedKeys[holder.membershipId] = await sealRingTo(attackerRing, holder.publicEncryptionKey);
    const refused = await contributor.apply(vaultId, vaultId, { type: 'vault.rotateKeys', rotation: { keyCount: 2, sealedKeys } });
    expectRejected(refused, 'INVALID_OPERATION');
    const after = await summaryOf(owner, vaultId);
    expect({ keyCount: after.keyCount, keys: after.membership.keys, headSeq: after.headSeq }).toEqual({
      keyCount: before.keyCount,
      keys: before.membership.keys,
      headSeq: before.headSeq,
    });

    // The owner's writes under the ring it holds go on, and it can still revoke the contributor.
    expectAccepted((await folder(owner, vaultId, ring, 'Still mine')).result);
    const ownerMembership = holders.find((m) => m.userId === owner.userId);
    if (!ownerMembership) throw new Error('No owner membership');
    const revokeRing = addKey(ring);
    expectAccepted(
      await owner.apply(vaultId, contributorMembership, {
        type: 'member.revoke',
        rotation: { keyCount: 2, sealedKeys: { [ownerMembership.membershipId]: await sealRingTo(revokeRing, owner.user.publicEncryptionKey) } },
      }),
    );
    expectAccepted((await folder(owner, vaultId, await ringOf(owner, vaultId), 'After the revoke')).result);
  });

  it('refuses a revoke of a key holder without a rotation, and one whose ring misses a member', async () => {
    const { vaultId, ring } = await createPrivateVault(owner);
    await addMember(owner, vaultId, contributor, 'CONTRIBUTOR', ring);
    const viewerMembership = await addMember(owner, vaultId, member, 'VIEWER', ring);
    const ownerMembership = (await membersOf(owner, vaultId)).find((m) => m.userId === owner.userId);
    if (!ownerMembership) throw new Error('No owner membership');
    const newRing = addKey(ring);

    expectRejected(await owner.apply(vaultId, viewerMembership, { type: 'member.revoke' }), 'CONFLICT');
    const onlyOwner = { [ownerMembership.membershipId]: await sealRingTo(newRing, owner.user.publicEncryptionKey) };
    expectRejected(await owner.apply(vaultId, viewerMembership, { type: 'member.revoke', rotation: { keyCount: 2, sealedKeys: onlyOwner } }), 'CONFLICT');
    const summary = await summaryOf(member, vaultId);
    expect({ status: summary.membership.status, keyCount: summary.keyCount }).toEqual({ status: 'ACCEPTED', keyCount: 1 });
  });
});
