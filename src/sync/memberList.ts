/**
 * Fetching a vault's member list into Dexie (src/storage/memberStore.ts): when a screen opens it,
 * after a member action, and after a pull brought member.* or vault.rotateKeys operations.
 */
import { MemberListResponse } from '../protocol/members';
import { type MemberRecord, replaceMembers } from '../storage/memberStore';
import type { PullStats } from './pull';
import type { SyncContext } from './SyncContext';

/** GET /vaults/{vaultId}/members, replacing the vault's cached rows in one transaction. Answers them. */
export async function fetchMembers(ctx: SyncContext, vaultId: string): Promise<MemberRecord[]> {
  const { members } = await ctx.api.get(`/vaults/${encodeURIComponent(vaultId)}/members`, MemberListResponse);
  return replaceMembers(ctx.db, ctx.accountId, vaultId, members);
}

/**
 * Fetches the members of every vault whose pulled operations changed them. A vault the user may
 * no longer list (revoked meanwhile) keeps its last list; failures are logged, never thrown: the
 * pull itself succeeded and the next one tries again.
 */
export async function refreshChangedMembers(ctx: SyncContext, stats: PullStats): Promise<void> {
  const vaultIds = stats.memberVaultIds;
  if (!vaultIds?.size) return;
  for (const vaultId of [...vaultIds]) {
    try {
      await fetchMembers(ctx, vaultId);
      vaultIds.delete(vaultId);
    } catch (error) {
      ctx.log(`Members of vault ${vaultId} not refreshed`, error);
    }
  }
}
