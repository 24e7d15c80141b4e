/**
 * A membership that ended (revoked, left, invitation rejected): removes what this device holds of
 * one vault, like log out does for a whole account (wipeAccountData.ts), and keeps a small
 * tombstone of the vault record so the room can say that access has ended (docs/SYNC_SPEC.md R56).
 *
 * What goes: the projection (nodes, versions, memos), the pulled-operation cache, note draft
 * updates and the y-indexeddb draft databases with their `noteDrafts` entries, queued outbox
 * operations, upload records with their kept file copies, the cached member list, and the vault's
 * entries in the saved search index. What stays: the tombstone, the notifications (they carry ids,
 * not names, and tell the user what happened) and the storage transactions (ids and sizes of the
 * user's own uploads, what the storage page accounts for). Cached chunks (Cache Storage) and the
 * in-memory copies are the sync layer's (src/sync/dropEndedVaults.ts).
 */
import { announceVaultWipe } from '../search/searchStore';
import type { CairnDb } from './db';
import { emptyVaultRecord } from './vaultProjection';
import type { VaultRecord } from './vaultRecords';

/** Deletes one IndexedDB database; a blocked or failed delete must not keep the rest from going. */
function deleteDatabase(idb: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = idb.deleteDatabase(name);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

/**
 * What a dropped vault's record keeps: its id, the server's view of the membership (so the room
 * and the lists know it ended, and a later invitation is pulled again from the start), and no name,
 * description, tags, terms, sealed keys, offline mark or cursor.
 */
export function vaultTombstone(record: VaultRecord, droppedAt: number): VaultRecord {
  return {
    ...emptyVaultRecord(record.accountId, record.vaultId),
    isPublic: record.isPublic,
    isCloud: record.isCloud,
    status: record.status,
    role: record.role,
    membershipStatus: record.membershipStatus,
    ...(record.membershipId === undefined ? {} : { membershipId: record.membershipId }),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    headSeq: record.headSeq,
    sealedKeys: null,
    isPending: false,
    // A fresh stamp: whoever held the projection in memory (a pull, the search indexer) reads it again.
    projectionStamp: `dropped-${droppedAt.toString(36)}`,
    droppedAt,
  };
}

export interface WipedVault {
  /** The upload ids that were removed: the caller forgets their picked files held in memory. */
  uploadIds: string[];
}

/**
 * Removes vault `vaultId`'s data of account `accountId` from Dexie in one transaction (a crash
 * leaves all of it or none), leaving the tombstone; then deletes its note draft databases and its
 * entries in the search index. Does nothing to a vault with no record.
 */
export async function wipeVaultData(
  db: CairnDb,
  accountId: string,
  vaultId: string,
  options: { now?: number; idb?: IDBFactory | undefined } = {},
): Promise<WipedVault> {
  const idb = 'idb' in options ? options.idb : typeof indexedDB === 'undefined' ? undefined : indexedDB;
  const now = options.now ?? Date.now();
  const byVault = [accountId, vaultId] as const;
  const ofVault = (row: { vaultId: string }) => row.vaultId === vaultId;
  const tables = [db.vaults, db.nodes, db.versions, db.memos, db.opPages, db.outbox, db.uploads, db.uploadFiles, db.members, db.noteDrafts, db.noteDraftUpdates, db.thumbnails, db.acceptedOps];
  const wiped = await db.transaction('rw', tables, async () => {
    const record = await db.vaults.get([accountId, vaultId]);
    if (!record) return null;
    await db.vaults.put(vaultTombstone(record, now));
    await db.nodes.where('[accountId+vaultId]').equals([...byVault]).delete();
    await db.versions.where('[accountId+vaultId]').equals([...byVault]).delete();
    await db.thumbnails.where('[accountId+vaultId]').equals([...byVault]).delete();
    await db.memos.where('[accountId+vaultId]').equals([...byVault]).delete();
    await db.outbox.where('[accountId+vaultId]').equals([...byVault]).delete();
    await db.members.where('[accountId+vaultId]').equals([...byVault]).delete();
    await db.opPages.where('[accountId+vaultId+firstSeq]').between([accountId, vaultId, -Infinity], [accountId, vaultId, Infinity], true, true).delete();
    await db.acceptedOps.where('[accountId+vaultId+seq]').between([accountId, vaultId, -Infinity], [accountId, vaultId, Infinity], true, true).delete();
    // Tables without a vault index: an account's rows are few (uploads, drafts), read and filtered.
    const uploadIds = (await db.uploads.where('accountId').equals(accountId).filter(ofVault).toArray()).map((u) => u.uploadId);
    await db.uploads.bulkDelete(uploadIds.map((id) => [accountId, id] as [string, string]));
    await db.uploadFiles.bulkDelete(uploadIds.map((id) => [accountId, id] as [string, string]));
    const draftNames = (await db.noteDrafts.where('accountId').equals(accountId).filter(ofVault).toArray()).map((d) => d.docName);
    await db.noteDrafts.bulkDelete(draftNames.map((name) => [accountId, name] as [string, string]));
    await db.noteDraftUpdates.where('accountId').equals(accountId).filter(ofVault).delete();
    return { uploadIds, draftNames };
  });
  if (!wiped) return { uploadIds: [] };
  // Drafts live in their own databases, in clear (they are this device's own text).
  if (idb) for (const name of wiped.draftNames) await deleteDatabase(idb, name);
  await announceVaultWipe(db, accountId, vaultId);
  return { uploadIds: wiped.uploadIds };
}

/**
 * Whether the device holds rows of a dropped vault again: a write that was under way while it was
 * dropped (an upload finishing queues its file operation, a note editor saving its draft) may land
 * after the wipe. Indexed counts, cheap enough for every sync cycle.
 */
export async function holdsVaultData(db: CairnDb, accountId: string, vaultId: string): Promise<boolean> {
  const ofVault = (row: { vaultId: string }) => row.vaultId === vaultId;
  return (
    (await db.outbox.where('[accountId+vaultId]').equals([accountId, vaultId]).count()) > 0 ||
    (await db.nodes.where('[accountId+vaultId]').equals([accountId, vaultId]).count()) > 0 ||
    (await db.uploads.where('accountId').equals(accountId).filter(ofVault).count()) > 0 ||
    (await db.noteDrafts.where('accountId').equals(accountId).filter(ofVault).count()) > 0
  );
}
