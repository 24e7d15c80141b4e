/**
 * Airdrop links (spec 001 sections 4-5): an OWNER makes a passwordless member whose wallet is
 * created on the owner's device. The link carries the wallet's entropy in its `wallet` parameter;
 * the server only ever sees the public keys, the ring sealed to the new wallet and the sealed name.
 *
 * Like every membership change the operation is pushed online at once, never queued offline: the
 * link is worth showing only once the server has made the account (docs/decisions.md).
 */
import type { CryptoApi } from '../../workers/crypto/CryptoApi';
import type { MemberRole } from '../protocol/vaults';
import { getCrypto } from '../platform/cryptoClient';
import { requireSync } from './currentSync';
import { pushMemberOps, sealRingFor } from './members';
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

/** The wallet maker of the crypto worker that an airdrop needs. */
export type AirdropWallets = Pick<CryptoApi, 'createAirdropWallet'>;

/** The link's address: `/login?wallet=` on this app's origin. */
export function airdropUrl(origin: string, entropy: string): string {
  return `${origin}/login?wallet=${entropy}`;
}

/**
 * Makes the wallet, the member and the link. Rejects with the server's ApiError when the
 * operation is refused (e.g. STALE_VAULT_KEY after a rotation this device has not pulled yet).
 * Pushed like the other member operations (src/sync/members.ts), so the vault and its member
 * list are pulled again at once.
 */
export async function makeAirdropLink(ctx: SyncContext, wallets: AirdropWallets, input: AirdropInput, origin: string): Promise<AirdropLink> {
  const { wallet, entropy } = await wallets.createAirdropWallet();
  const membershipId = ctx.newId();
  let ring = {};
  if (!input.isPublic) {
    await ensureVaultKeys(ctx, input.vaultId);
    ring = await sealRingFor(ctx, input.vaultId, wallet.publicEncryptionKey);
  }
  const fields = await makeFields(ctx, input.vaultId, membershipId, input.isPublic, { name: input.name.trim() });
  await pushMemberOps(ctx, input.vaultId, [
    {
      objectId: membershipId,
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
    },
  ]);
  return { membershipId, url: airdropUrl(origin, entropy) };
}

/** The airdrop form's 'Generate link'. */
export async function createAirdropLink(input: AirdropInput): Promise<AirdropLink> {
  const { ctx } = requireSync();
  return makeAirdropLink(ctx, getCrypto(), input, window.location.origin);
}
