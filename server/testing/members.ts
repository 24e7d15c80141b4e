/**
 * Member flows for server tests, with real keys: private vaults whose ring is sealed by the
 * client's own code (src/crypto/keyRing.ts), invitations through the public routes, and the
 * answers parsed with the protocol schemas.
 */
import { hexToBytes } from '../../src/crypto/encoding';
import { type FieldContext, sealField } from '../../src/crypto/fieldEnvelope';
import { createKeyRing, type KeyRing, sealKeyRing } from '../../src/crypto/keyRing';
import { loadSodium } from '../../src/crypto/sodium';
import { SessionResult } from '../../src/protocol/auth';
import { InviteResponse, MemberListResponse, type Member, UserLookupResponse, WalletChallengeResponse } from '../../src/protocol/members';
import { type MemberRole, type Operation, type PushResult, type SealedField, VaultListResponse, type VaultSummary } from '../../src/protocol/vaults';
import { expectStatus } from './flows';
import { TestUser } from './TestUser';
import { expectAccepted, newId, sealed, VaultActor } from './vaults';

/** Seals `ring` to the account with that X25519 public key (hex). */
export async function sealRingTo(ring: KeyRing, publicEncryptionKey: string): Promise<string> {
  return sealKeyRing(await loadSodium(), ring, hexToBytes(publicEncryptionKey));
}

/** Seals `text` under the ring's newest key, as the client does for new content. */
export async function sealNewest(ring: KeyRing, context: FieldContext, text: string): Promise<SealedField> {
  const index = ring.length - 1;
  const key = ring[index];
  if (!key) throw new Error('Empty ring');
  return sealField(await loadSodium(), key, index, context, text);
}

/** A private cloud vault whose one-key ring is sealed to its owner; returns the id and the ring. */
export async function createPrivateVault(owner: VaultActor, name = 'Shared vault'): Promise<{ vaultId: string; ring: KeyRing }> {
  const vaultId = newId();
  const ring = createKeyRing();
  expectAccepted(
    await owner.apply(vaultId, vaultId, {
      type: 'vault.create',
      isPublic: false,
      isCloud: true,
      name: await sealNewest(ring, { vaultId, objectId: vaultId, field: 'name' }, name),
      ownerKeys: await sealRingTo(ring, owner.user.publicEncryptionKey),
    }),
  );
  return { vaultId, ring };
}

export async function lookUp(actor: VaultActor, email: string): Promise<UserLookupResponse> {
  const response = await actor.api.get(`/api/users/lookup?email=${encodeURIComponent(email)}`, { token: actor.token });
  expectStatus(response, 200);
  return UserLookupResponse.parse(response.body);
}

/** A signed member.invite of `invitee` (looked up first), with the ring sealed to them when given. */
export async function inviteOp(owner: VaultActor, vaultId: string, invitee: VaultActor, role: MemberRole, ring: KeyRing | null): Promise<Operation> {
  const found = await lookUp(owner, invitee.user.email);
  return owner.sign(vaultId, newId(), {
    type: 'member.invite',
    role,
    memberKey: found.publicSigningKey,
    ...(ring ? { keys: await sealRingTo(ring, found.publicEncryptionKey), keyCount: ring.length } : {}),
  });
}

/** POST /vaults/{vaultId}/invitations; the raw response. */
export function postInvitations(owner: VaultActor, vaultId: string, ops: Operation[], message?: string) {
  return owner.api.post(`/api/vaults/${vaultId}/invitations`, { ops, ...(message === undefined ? {} : { message }) }, { token: owner.token });
}

export async function invite(owner: VaultActor, vaultId: string, invitee: VaultActor, role: MemberRole, ring: KeyRing | null, message?: string): Promise<PushResult> {
  const response = await postInvitations(owner, vaultId, [await inviteOp(owner, vaultId, invitee, role, ring)], message);
  expectStatus(response, 200);
  const [result] = InviteResponse.parse(response.body).results;
  if (!result) throw new Error('No invitation result');
  return result;
}

/** Invites `member` and has them accept; returns the membership id. */
export async function addMember(owner: VaultActor, vaultId: string, member: VaultActor, role: MemberRole, ring: KeyRing | null): Promise<string> {
  const op = await inviteOp(owner, vaultId, member, role, ring);
  const response = await postInvitations(owner, vaultId, [op]);
  expectStatus(response, 200);
  expectAccepted(InviteResponse.parse(response.body).results[0]);
  expectAccepted(await member.apply(vaultId, op.objectId, { type: 'member.accept' }));
  return op.objectId;
}

/** The caller's summary of one vault from GET /vaults. */
export async function summaryOf(actor: VaultActor, vaultId: string): Promise<VaultSummary> {
  const response = await actor.api.get('/api/vaults', { token: actor.token });
  expectStatus(response, 200);
  const summary = VaultListResponse.parse(response.body).vaults.find((v) => v.vaultId === vaultId);
  if (!summary) throw new Error(`Vault ${vaultId} is not listed`);
  return summary;
}

export async function membersOf(actor: VaultActor, vaultId: string): Promise<Member[]> {
  const response = await actor.api.get(`/api/vaults/${vaultId}/members`, { token: actor.token });
  expectStatus(response, 200);
  return MemberListResponse.parse(response.body).members;
}

/**
 * A guest brought in by an airdrop link (member.airdrop with a fresh wallet, ring and name sealed
 * as placeholders), signed in through the wallet login as the link's page does.
 */
export async function airdropMember(
  owner: VaultActor,
  vaultId: string,
  options: { role: 'CONTRIBUTOR' | 'VIEWER'; storageAllowance: number; expiresAt: number },
): Promise<VaultActor> {
  const wallet = await TestUser.create();
  expectAccepted(
    await owner.apply(vaultId, newId(), {
      type: 'member.airdrop',
      name: sealed(),
      memberKey: wallet.publicSigningKey,
      memberEncryptionKey: wallet.publicEncryptionKey,
      keys: sealed(80).c,
      keyCount: 1,
      ...options,
    }),
  );
  const challenged = await owner.api.post('/api/auth/wallet/challenge', { publicSigningKey: wallet.publicSigningKey });
  expectStatus(challenged, 200);
  const { challenge } = WalletChallengeResponse.parse(challenged.body);
  const signature = await wallet.sign({ purpose: 'wallet-login', challenge });
  const login = await owner.api.post('/api/auth/wallet/login', { publicSigningKey: wallet.publicSigningKey, challenge, signature });
  expectStatus(login, 200);
  const session = SessionResult.parse(login.body);
  return new VaultActor(owner.api, wallet, session.token, session.user.id);
}
