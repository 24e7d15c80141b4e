/**
 * A device lets go of a vault whose membership ended (docs/SYNC_SPEC.md R56). Once the server says
 * the signed-in user's membership is REVOKED (removed by an owner, or the user left) or REJECTED
 * (GET /vaults, or a pull answered 403, both in pull.ts), the device keeps nothing of the vault but
 * a tombstone of its record: the projection, caches, drafts, queued operations and uploads go
 * (src/storage/wipeVaultData.ts), and so do the chunks kept offline and the decrypted copies in
 * memory. Queued operations and uploads of the vault can never be accepted any more, and the
 * server refuses the device's chunk requests, so nothing here is worth keeping.
 *
 * What the member saw before is theirs anyway (DESIGN.md section 3: old ciphertext stays readable
 * by whoever held the keys, and they could have copied it); this is about the device not serving
 * it on, to whoever opens the room's address on it next.
 */
import { isListedMembership } from '../domain/vaultListRules';
import type { NotificationEvent } from '../protocol/members';
import { holdsVaultData, wipeVaultData } from '../storage/wipeVaultData';
import { clearOfflineFiles } from './offlineFiles';
import { forgetHeldRing } from './pull';
import type { SyncContext } from './SyncContext';
import { forgetPickedFile } from './uploadSource';

type DropListener = (accountId: string, vaultId: string) => void;
const dropListeners = new Set<DropListener>();

/**
 * Called after a vault's data was dropped: holders of decrypted copies in memory (the viewer's
 * cache, src/features/files/viewer/decryptedBlobs.ts) let go of theirs.
 */
export function onVaultDataDropped(listener: DropListener): () => void {
  dropListeners.add(listener);
  return () => dropListeners.delete(listener);
}

/**
 * Notifications telling the recipient their membership ended. The server pokes no revoked member
 * (R3), so this is how a device online learns it at once rather than at its next poll.
 */
export function isMembershipEndingEvent(event: NotificationEvent): boolean {
  return event === 'MEMBERSHIP_REVOKE';
}

/**
 * Drops the local data of every vault of the account whose membership ended and whose data is
 * still held (not dropped yet, or written again by a write under way during the drop). A
 * tombstone whose membership is live again (a new invitation) loses its mark, so the vault is
 * pulled from the start and dropped again if that membership ends too. Answers the ids of the
 * vaults dropped now.
 */
export async function dropEndedVaults(ctx: SyncContext): Promise<string[]> {
  const { db, accountId } = ctx;
  const records = await db.vaults.where('accountId').equals(accountId).toArray();
  const dropped: string[] = [];
  for (const record of records) {
    const hasEnded = !isListedMembership(record.membershipStatus);
    if (!hasEnded) {
      if (record.droppedAt !== undefined) await db.vaults.where('[accountId+vaultId]').equals([accountId, record.vaultId]).modify((r) => void delete r.droppedAt);
      continue;
    }
    if (record.droppedAt !== undefined && !(await holdsVaultData(db, accountId, record.vaultId))) continue;
    ctx.log(`Membership of vault ${record.vaultId} ended (${record.membershipStatus}): dropping its data on this device`);
    const { uploadIds } = await wipeVaultData(db, accountId, record.vaultId, { now: ctx.now() });
    await forgetHeldRing(ctx, record.vaultId);
    for (const uploadId of uploadIds) forgetPickedFile(uploadId);
    await clearOfflineFiles(accountId, record.vaultId).catch((error: unknown) => ctx.log(`Offline copies of vault ${record.vaultId} not cleared`, error));
    for (const listener of [...dropListeners]) listener(accountId, record.vaultId);
    dropped.push(record.vaultId);
  }
  // Uploads of a dropped vault stop at their next record write (the record is gone); a run of the
  // queue then clears the sealed chunks they left in the spool.
  if (dropped.length) ctx.requestUploads();
  return dropped;
}
