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

type AirdropBody = Extract<OperationBody, { type: 'member.airdrop' }>;

export async function applyAirdropOp(ctx: VaultOpContext, body: AirdropBody): Promise<void> {
  const { trx, op, vault, now } = ctx;
  assertVaultOpen(vault);
  if (body.expiresAt <= now) throw new ApiError('VALIDATION_FAILED', 'Date cannot be in the past.');
  await assertKeysFitVault(ctx, body);
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

/**
 * A private vault's ring must be sealed to the member, and whole: `keyCount` must be the vault's
 * current count, or the member would miss the newest key (STALE_VAULT_KEY: reopen and reseal).
 * A public vault has no ring to hand out.
 */
async function assertKeysFitVault(ctx: VaultOpContext, body: AirdropBody): Promise<void> {
  if (ctx.vault.isPublic) {
    if (body.keys !== undefined || body.keyCount !== undefined) {
      throw new ApiError('VALIDATION_FAILED', 'A public vault carries clear fields and no keys');
    }
    return;
  }
  if (body.keys === undefined || body.keyCount === undefined) {
    throw new ApiError('VALIDATION_FAILED', 'A private vault needs the key ring sealed to the member');
  }
  const row = await ctx.trx.selectFrom('vaults').select(['key_count', 'needs_rotation']).where('id', '=', ctx.vault.id).executeTakeFirstOrThrow();
  if (Number(row.needs_rotation) !== 0) throw new ApiError('KEY_ROTATION_PENDING', 'The vault key is being rotated; try again shortly');
  if (body.keyCount !== Number(row.key_count)) throw new ApiError('STALE_VAULT_KEY', 'The vault has a newer key; reseal the ring');
}
