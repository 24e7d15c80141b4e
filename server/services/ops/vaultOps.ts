/** vault.* operations (spec 000 section 4, Vault). Role and archive checks ran before these. */
import { ApiError } from '../../../src/protocol/errors';
import type { OperationBody } from '../../../src/protocol/vaults';
import { toDbBool } from '../../db/dbBool';
import { randomId } from '../tokens';
import { findVault } from '../vaultRows';
import { freeBlobs, type OpContext, type VaultOpContext } from './OpContext';
import { assertMayOwnVaults } from './passwordlessRules';

type Body<T extends OperationBody['type']> = Extract<OperationBody, { type: T }>;

/** Creates the vault and its creator's OWNER membership; the caller appends the op as seq 1. */
export async function createVault(ctx: OpContext, body: Body<'vault.create'>): Promise<void> {
  const { op, trx, now } = ctx;
  if (op.objectId !== op.vaultId) throw new ApiError('INVALID_OPERATION', 'vault.create names the vault as its object');
  if (await findVault(trx, op.vaultId)) throw new ApiError('INVALID_OPERATION', 'The vault already exists');
  await assertMayOwnVaults(trx, ctx.userId, 'An airdrop link gives access to its vault only: sign up to create vaults');
  await trx
    .insertInto('vaults')
    .values({
      id: op.vaultId,
      owner_user_id: ctx.userId,
      is_public: toDbBool(body.isPublic),
      is_cloud: toDbBool(body.isCloud),
      status: 'ACTIVE',
      head_seq: 0,
      size: 0,
      // A private vault starts with the one key its creator sealed in `ownerKeys`.
      key_count: body.isPublic ? 0 : 1,
      needs_rotation: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await trx
    .insertInto('memberships')
    .values({
      id: randomId(),
      vault_id: op.vaultId,
      user_id: ctx.userId,
      role: 'OWNER',
      status: 'ACCEPTED',
      keys: body.ownerKeys ?? null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** The other vault.* operations. Names, descriptions and tags change only inside the op log. */
export async function applyVaultOp(ctx: VaultOpContext, body: OperationBody): Promise<void> {
  const { vault, op } = ctx;
  if (op.objectId !== vault.id) throw new ApiError('INVALID_OPERATION', 'A vault operation names the vault as its object');
  switch (body.type) {
    case 'vault.rename':
    case 'vault.updateMetadata':
      return;
    case 'vault.archive':
      return setStatus(ctx, 'ACTIVE', 'ARCHIVED');
    case 'vault.restore':
      return setStatus(ctx, 'ARCHIVED', 'ACTIVE');
    case 'vault.delete': {
      await setStatus(ctx, 'ARCHIVED', 'DELETED');
      // A deleted cloud vault frees its storage; a permanent vault's bytes stay for the network.
      if (vault.isCloud) {
        const blobs = await ctx.trx.selectFrom('blobs').select('id').where('vault_id', '=', vault.id).execute();
        await freeBlobs(ctx, vault.id, blobs.map((b) => b.id));
      }
      await ctx.trx.updateTable('nodes').set({ status: 'DELETED', updated_at: ctx.now }).where('vault_id', '=', vault.id).execute();
      return;
    }
    default:
      throw new Error(`Not a vault operation: ${body.type}`);
  }
}

async function setStatus(ctx: VaultOpContext, from: 'ACTIVE' | 'ARCHIVED', to: 'ACTIVE' | 'ARCHIVED' | 'DELETED'): Promise<void> {
  if (ctx.vault.status !== from) {
    const message =
      to === 'DELETED' ? 'A vault can be deleted only when archived' : to === 'ACTIVE' ? 'The vault is not archived' : 'The vault is already archived';
    throw new ApiError('INVALID_OPERATION', message);
  }
  await ctx.trx.updateTable('vaults').set({ status: to }).where('id', '=', ctx.vault.id).execute();
}
