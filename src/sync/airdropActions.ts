/**
 * Airdrop links (spec 001 sections 4-5): an OWNER makes a passwordless member whose wallet is
 * created on the owner's device. The link carries the wallet's entropy in its `wallet` parameter;
 * the server only ever sees the public keys, the ring sealed to the new wallet and the sealed name.
 *
 * Like every membership change the operation is pushed online at once, never queued offline: the
 * link is worth showing only once the server has made the account (docs/decisions.md).
 */
import type { CryptoApi } from '../../workers/crypto/CryptoApi';
import { ApiError, isErrorCode } from '../protocol/errors';
import { type MemberRole, PushResponse } from '../protocol/vaults';
import { getCrypto } from '../platform/cryptoClient';
import { requireSync } from './currentSync';
import { ensureVaultKeys } from './pull';
import type { SyncContext } from './SyncContext';
import { makeFields } from './vaultActions';

export interface AirdropInput {
  vaultId: string;
  isPublic: boolean;
  /** The free identifier typed in the form (sealed like any name in a private vault). */
  name: string;
  role: Exclude<MemberRole, 'OWNER'>;
  /** The end of the chosen day (ms), from domain/airdropRules.ts. */
  expiresAt: number;
  /** Bytes the member may upload; 0 removes uploading. */
  storageAllowance: number;
}

export interface AirdropLink {
  membershipId: string;
  url: string;
}

/** The wallet half of the crypto worker that an airdrop needs. */
export type AirdropWallets = Pick<CryptoApi, 'createAirdropWallet' | 'sealVaultKeysFor'>;

/** The link's address: `/login?wallet=` on this app's origin. */
export function airdropUrl(origin: string, entropy: string): string {
  return `${origin}/login?wallet=${entropy}`;
}

/**
 * Makes the wallet, the member and the link. Rejects with the server's ApiError when the
 * operation is refused (e.g. STALE_VAULT_KEY after a rotation this device has not pulled yet).
 */
export async function makeAirdropLink(ctx: SyncContext, wallets: AirdropWallets, input: AirdropInput, origin: string): Promise<AirdropLink> {
  const { wallet, entropy } = await wallets.createAirdropWallet();
  const membershipId = ctx.newId();
  let ring: { keys?: string; keyCount?: number } = {};
  if (!input.isPublic) {
    await ensureVaultKeys(ctx, input.vaultId);
    const sealed = await wallets.sealVaultKeysFor(input.vaultId, wallet.publicEncryptionKey);
    ring = { keys: sealed.sealedKeys, keyCount: sealed.keyCount };
  }
  const fields = await makeFields(ctx, input.vaultId, membershipId, input.isPublic, { name: input.name.trim() });
  const op = await ctx.crypto.signOperation({
    id: ctx.newId(),
    vaultId: input.vaultId,
    objectId: membershipId,
    author: ctx.user.publicSigningKey,
    createdAt: ctx.now(),
    body: {
      type: 'member.airdrop',
      name: fields.name,
      role: input.role,
      memberKey: wallet.publicSigningKey,
      memberEncryptionKey: wallet.publicEncryptionKey,
      ...ring,
      expiresAt: input.expiresAt,
      storageAllowance: input.storageAllowance,
    },
  });
  const { results } = await ctx.api.post('/vaults/ops', { ops: [op] }, PushResponse);
  const result = results[0];
  if (!result) throw new ApiError('INTERNAL', 'The server did not answer the airdrop');
  if (result.status === 'rejected') {
    throw new ApiError(isErrorCode(result.error.code) ? result.error.code : 'INTERNAL', result.error.message);
  }
  // The member appears in the vault's log; the next pull shows it to every member's device.
  ctx.requestPush();
  return { membershipId, url: airdropUrl(origin, entropy) };
}

/** The airdrop form's 'Generate link'. */
export async function createAirdropLink(input: AirdropInput): Promise<AirdropLink> {
  const { ctx } = requireSync();
  return makeAirdropLink(ctx, getCrypto(), input, window.location.origin);
}
