/**
 * member.airdrop (spec 001 section 4, Airdrop; src/protocol/vaults.ts): an OWNER makes a
 * passwordless member from a wallet created on their device. The operation carries only the
 * wallet's public keys, the ring sealed to it (private vaults) and the sealed name; the secret
 * travels in the link and never reaches the server. The dispatcher has already checked the OWNER
 * role and the field rule (fieldRules.ts: `name` sealed in a private vault, clear in a public one).
 */
import { ApiError } from '../../../src/protocol/errors';
import type { OperationBody } from '../../../src/protocol/vaults';
import { addressOf } from '../signatures';
import { airdropEmailOf, insertPasswordlessUser } from '../UserService';
import { assertVaultOpen } from '../vaultAccess';
import type { VaultOpContext } from './OpContext';
import { assertRing } from './ringRules';

type AirdropBody = Extract<OperationBody, { type: 'member.airdrop' }>;

export async function applyAirdropOp(ctx: VaultOpContext, body: AirdropBody): Promise<void> {
  const { trx, op, vault, now } = ctx;
  assertVaultOpen(vault);
  if (body.expiresAt <= now) throw new ApiError('VALIDATION_FAILED', 'Date cannot be in the past.');
  // The whole ring, so the member misses no key (STALE_VAULT_KEY: reopen and reseal); KEY_ROTATION_PENDING
  // for the sealed name is the dispatcher's (fieldRules.ts assertSealedUnderNewestKey).
  assertRing(vault, body.keys, body.keyCount);
  const userId = await insertPasswordlessUser(
    trx,
    {
      email: airdropEmailOf(op.objectId),
      publicSigningKey: body.memberKey,
      publicEncryptionKey: body.memberEncryptionKey,
      address: addressOf(body.memberKey),
    },
    now,
  );
  await trx
    .insertInto('memberships')
    .values({
      id: op.objectId,
      vault_id: vault.id,
      user_id: userId,
      role: body.role,
      // Nothing to accept or confirm: the owner chose the role and made the wallet.
      status: 'ACCEPTED',
      keys: body.keys ?? null,
      invited_by_user_id: ctx.userId,
      expires_at: body.expiresAt,
      storage_allowance: body.storageAllowance,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
