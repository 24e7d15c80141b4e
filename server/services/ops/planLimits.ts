/**
 * The plan's vault and member limits (SYNC_SPEC R101, R102), checked inside the transaction of the
 * operation that would pass them, after it is applied: over the limit, the check throws and the
 * transaction rolls back, so nothing of the refused operation stays.
 */
import { ApiError } from '../../../src/protocol/errors';
import type { PlanFeature } from '../../../src/protocol/features';
import type { PlanLimits } from '../AllowanceService';
import { type Db, REMOVED_STATUSES } from '../vaultRows';

export const VAULT_LIMIT_MESSAGE = "You've hit the vault limit";
export const MEMBER_LIMIT_MESSAGE = "You've hit the member limit";

/** Where a check reads an account's limits (AllowanceService). */
export interface LimitsPort {
  limitsOf(userId: string, db?: Db): Promise<PlanLimits>;
  /** R122: throws FEATURE_NOT_IN_PLAN when the account's plan lacks a gated feature. */
  assertFeature?(userId: string, feature: PlanFeature, db?: Db): Promise<void>;
}

/**
 * After a vault.create by `userId`: refuses it when the account now owns more vaults than its
 * plan allows. Deleted vaults do not count; archived ones do (they can be restored). The
 * account's row is locked first (a no-op update, portable to SQLite), so two creations at once on
 * PostgreSQL are counted one after the other and cannot both take the last place.
 */
export async function assertVaultLimit(trx: Db, limits: LimitsPort, userId: string): Promise<void> {
  await trx.updateTable('users').set((eb) => ({ id: eb.ref('id') })).where('id', '=', userId).execute();
  await limits.assertFeature?.(userId, 'vaults', trx);
  const { vaults } = await limits.limitsOf(userId, trx);
  if (vaults === null) return;
  const row = await trx
    .selectFrom('vaults')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_user_id', '=', userId)
    .where('status', '!=', 'DELETED')
    .executeTakeFirstOrThrow();
  if (Number(row.n) > vaults) throw new ApiError('VAULT_LIMIT', VAULT_LIMIT_MESSAGE);
}

/** Members a vault has: every membership not ended (owners, members, open invitations, airdrops). */
export async function countLiveMembers(db: Db, vaultId: string): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('vault_id', '=', vaultId)
    .where('status', 'not in', REMOVED_STATUSES)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * After an operation that adds a member (member.invite, member.airdrop): refuses it when the vault
 * now has more members than its owner's plan allows. The caller holds the vault row's lock.
 */
export async function assertMemberLimit(trx: Db, limits: LimitsPort, vault: { id: string; ownerUserId: string }): Promise<void> {
  await limits.assertFeature?.(vault.ownerUserId, 'members', trx);
  const { members } = await limits.limitsOf(vault.ownerUserId, trx);
  if (members !== null && (await countLiveMembers(trx, vault.id)) > members) throw new ApiError('MEMBER_LIMIT', MEMBER_LIMIT_MESSAGE);
}
