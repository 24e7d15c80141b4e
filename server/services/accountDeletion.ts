/**
 * What deleting an account does to the vaults it touches (docs/SYNC_SPEC.md R60), inside one
 * transaction with the deletion of its row:
 *
 * - a vault that no other accepted member uses (pending invitees and ended airdrop links do not
 *   count) goes with the account: its rows, and its chunk files once the transaction commits;
 * - a vault the account owns (created it, or is an accepted OWNER of) that others still use passes
 *   to another accepted OWNER: `owner_user_id` and the blobs charged to the account move to the
 *   longest-standing one; with no other accepted owner the whole deletion is refused, naming the
 *   vaults, and nothing changes;
 * - the account's membership of a vault that stays ends like a leave: a private vault whose ring
 *   it held needs a rotation (R18/R20, R58), which the remaining owners and contributors make. The
 *   membership row itself goes with the account's row (its foreign key cascades), so no e-mail of
 *   the deleted account stays in any member list.
 *
 * The vault's key ring and log are untouched: the account's past operations stay signed by it.
 */
import { DELETE_ACCOUNT_OWNED_VAULT } from '../../src/protocol/auth';
import { ApiError } from '../../src/protocol/errors';
import { chunkKey } from '../blobs/BlobStore';
import { hasExpired } from './vaultAccess';
import { type Db, findMembership, findVault, isRemoved, toMembership } from './vaultRows';

export const ACCOUNT_DELETION_BLOCKED_MESSAGE =
  'You are the only owner of vaults that other members still use. Make one of them an owner, or remove them, before deleting your account.';

/**
 * Hands over, ends or deletes every vault of `userId` as above; returns the blob store keys to
 * delete after the commit. Throws 409 CONFLICT (details: the vault ids) when a vault would be
 * left without an owner.
 */
export async function releaseVaultsOf(trx: Db, userId: string, now: number): Promise<string[]> {
  const memberOf = await trx.selectFrom('memberships').select('vault_id').where('user_id', '=', userId).execute();
  const created = await trx.selectFrom('vaults').select('id').where('owner_user_id', '=', userId).execute();
  const vaultIds = [...new Set([...memberOf.map((m) => m.vault_id), ...created.map((v) => v.id)])].sort();

  const blocked: string[] = [];
  const doomed: string[] = [];
  const handOvers: { vaultId: string; ownerId: string | null }[] = [];
  const rotations: string[] = [];
  for (const vaultId of vaultIds) {
    // The vault row's write lock first, as an operation takes it, so no role changes meanwhile.
    await trx.updateTable('vaults').set((eb) => ({ head_seq: eb.ref('head_seq') })).where('id', '=', vaultId).execute();
    const vault = await findVault(trx, vaultId);
    if (!vault) continue;
    const mine = await findMembership(trx, vaultId, userId);
    const others = (
      await trx.selectFrom('memberships').selectAll().where('vault_id', '=', vaultId).where('user_id', '!=', userId).where('status', '=', 'ACCEPTED').execute()
    )
      .map(toMembership)
      .filter((m) => !isRemoved(m) && !hasExpired(m, now));
    const owners = others.filter((m) => m.role === 'OWNER').sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    const isOwnerSide = vault.ownerUserId === userId || (mine !== null && mine.status === 'ACCEPTED' && mine.role === 'OWNER');

    if (others.length === 0) {
      doomed.push(vaultId);
      continue;
    }
    if (isOwnerSide && owners.length === 0) {
      // A deleted vault holds nothing for its members any more: it goes rather than block.
      if (vault.status === 'DELETED') doomed.push(vaultId);
      else blocked.push(vaultId);
      continue;
    }
    handOvers.push({ vaultId, ownerId: vault.ownerUserId === userId ? (owners[0]?.userId ?? null) : null });
    if (!vault.isPublic && mine !== null && mine.keys !== null && !isRemoved(mine)) rotations.push(vaultId);
  }
  if (blocked.length > 0) {
    throw new ApiError(
      'CONFLICT',
      ACCOUNT_DELETION_BLOCKED_MESSAGE,
      blocked.map((vaultId) => ({ path: DELETE_ACCOUNT_OWNED_VAULT, message: vaultId })),
    );
  }

  for (const { vaultId, ownerId } of handOvers) {
    if (ownerId !== null) await trx.updateTable('vaults').set({ owner_user_id: ownerId, updated_at: now }).where('id', '=', vaultId).execute();
    // Whoever owns the vault now pays for what the account was charged for in it.
    const payer = (await findVault(trx, vaultId))?.ownerUserId;
    if (payer && payer !== userId) {
      await trx.updateTable('blobs').set({ charged_user_id: payer }).where('vault_id', '=', vaultId).where('charged_user_id', '=', userId).execute();
    }
    await trx
      .updateTable('memberships')
      .set({ status: 'REVOKED', role: 'REVOKED', keys: null, updated_at: now })
      .where('vault_id', '=', vaultId)
      .where('user_id', '=', userId)
      .execute();
  }
  if (rotations.length > 0) await trx.updateTable('vaults').set({ needs_rotation: 1 }).where('id', 'in', rotations).execute();

  const freedKeys: string[] = [];
  // Like a leave (R68): the uploads it started and never committed in the vaults that stay can
  // never be committed now; they stop holding the owner's storage, and their bytes go.
  const stays = handOvers.map((h) => h.vaultId);
  if (stays.length > 0) {
    const reserved = await trx
      .selectFrom('blobs')
      .select('id')
      .where('vault_id', 'in', stays)
      .where('uploader_user_id', '=', userId)
      .where('status', '=', 'reserved')
      .execute();
    const ids = reserved.map((b) => b.id);
    if (ids.length > 0) {
      const chunks = await trx.selectFrom('blob_chunks').select(['blob_id', 'idx', 'sha256']).where('blob_id', 'in', ids).execute();
      for (const chunk of chunks) freedKeys.push(chunkKey(chunk.blob_id, Number(chunk.idx), chunk.sha256));
      await trx.deleteFrom('blob_chunks').where('blob_id', 'in', ids).execute();
      await trx.deleteFrom('blobs').where('id', 'in', ids).execute();
    }
  }
  if (doomed.length > 0) {
    const chunks = await trx
      .selectFrom('blob_chunks as c')
      .innerJoin('blobs as b', 'b.id', 'c.blob_id')
      .select(['c.blob_id', 'c.idx', 'c.sha256'])
      .where('b.vault_id', 'in', doomed)
      .execute();
    for (const chunk of chunks) freedKeys.push(chunkKey(chunk.blob_id, Number(chunk.idx), chunk.sha256));
    // Notifications name the vault without a foreign key: an invitee's would point at nothing.
    await trx.deleteFrom('notifications').where('vault_id', 'in', doomed).execute();
    // Memberships, nodes, ops, blobs and their chunks, storage transactions cascade.
    await trx.deleteFrom('vaults').where('id', 'in', doomed).execute();
  }
  return freedKeys;
}
