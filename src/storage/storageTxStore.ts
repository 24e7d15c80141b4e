/**
 * The device's copy of the user's storage transactions (docs/SYNC_SPEC.md R38-R39, schema v11):
 * pages of GET /storage/transactions and `storageTransaction` socket messages are merged here by
 * id, the newer `updatedAt` winning, so a late page never takes a status back. The server knows
 * no names: screens resolve them on the device from the projected versions and nodes.
 */
import Dexie from 'dexie';
import type { StorageResponse } from '../protocol/vaults';
import type { StorageTransaction } from '../protocol/arweave';
import { useLiveQuery } from 'dexie-react-hooks';
import { getDb, type CairnDb } from './db';
import type { VaultRecord, VersionRecord } from './vaultRecords';
import { useStoreAccount } from './vaultStore';

export interface StorageTxRecord extends StorageTransaction {
  accountId: string;
}

/** GET /storage as last answered, so the cards show offline too (a figure cached by an older version has no log fields). */
export interface StorageUsageRecord extends Omit<StorageResponse, 'cloudLogUsed' | 'permanentLogUsed'>, Partial<Pick<StorageResponse, 'cloudLogUsed' | 'permanentLogUsed'>> {
  accountId: string;
  fetchedAt: number;
}

/** What one merged transaction did to the cache: its status before (null when new) and after. */
export interface StorageTxChange {
  transaction: StorageTransaction;
  previousStatus: StorageTransaction['status'] | null;
}

function timeOf(value: number | string): number {
  return typeof value === 'number' ? value : Date.parse(value);
}

/**
 * Upserts `transactions`; an incoming copy older than the stored one (by updatedAt) is ignored.
 * Returns the changes actually written, for the snackbar and the storage refresh.
 */
export async function mergeStorageTransactions(db: CairnDb, accountId: string, transactions: readonly StorageTransaction[]): Promise<StorageTxChange[]> {
  if (transactions.length === 0) return [];
  return db.transaction('rw', db.storageTxs, async () => {
    const keys = transactions.map((tx) => [accountId, tx.id] as [string, string]);
    const stored = await db.storageTxs.bulkGet(keys);
    const changes: StorageTxChange[] = [];
    const writes: StorageTxRecord[] = [];
    const seen = new Map<string, StorageTxRecord>();
    transactions.forEach((tx, index) => {
      const before = seen.get(tx.id) ?? stored[index];
      if (before && timeOf(before.updatedAt) > timeOf(tx.updatedAt)) return;
      if (before && before.updatedAt === tx.updatedAt && before.status === tx.status && before.txId === tx.txId) return;
      const record = { ...tx, accountId };
      seen.set(tx.id, record);
      writes.push(record);
      changes.push({ transaction: tx, previousStatus: before?.status ?? null });
    });
    if (writes.length) await db.storageTxs.bulkPut(writes);
    return changes;
  });
}

/** The newest `limit` cached transactions, newest first. */
export async function listStorageTransactions(db: CairnDb, accountId: string, limit = Number.POSITIVE_INFINITY): Promise<StorageTxRecord[]> {
  const all = await db.storageTxs
    .where('[accountId+createdAt]')
    .between([accountId, Dexie.minKey], [accountId, Dexie.maxKey])
    .reverse()
    .toArray();
  // ISO 8601 strings of the same form sort as they read; sorting by time keeps odd forms right too.
  all.sort((a, b) => timeOf(b.createdAt) - timeOf(a.createdAt));
  return Number.isFinite(limit) ? all.slice(0, limit) : all;
}

/** The latest transaction of each version id asked for (a version posted twice keeps its newest). */
export async function statusesByVersion(db: CairnDb, accountId: string, versionIds: readonly string[]): Promise<Map<string, StorageTxRecord>> {
  if (versionIds.length === 0) return new Map();
  return latestByVersion(await db.storageTxs.where('[accountId+versionId]').anyOf(versionIds.map((id) => [accountId, id])).toArray());
}

/** The latest transaction of each version of vault `vaultId` this device has cached. */
export async function vaultStatusesByVersion(db: CairnDb, accountId: string, vaultId: string): Promise<Map<string, StorageTxRecord>> {
  return latestByVersion((await db.storageTxs.where('accountId').equals(accountId).toArray()).filter((row) => row.vaultId === vaultId));
}

function latestByVersion(rows: readonly StorageTxRecord[]): Map<string, StorageTxRecord> {
  const out = new Map<string, StorageTxRecord>();
  for (const row of rows) {
    const known = out.get(row.versionId);
    if (!known || timeOf(row.createdAt) > timeOf(known.createdAt)) out.set(row.versionId, row);
  }
  return out;
}

export async function saveStorageUsage(db: CairnDb, accountId: string, usage: StorageResponse, fetchedAt: number): Promise<void> {
  await db.storageUsage.put({ ...usage, accountId, fetchedAt });
}

/**
 * Names for transactions, resolved on the device: the version's file node's name (a private
 * vault's names never reach the server). Versions not on this device resolve to null.
 */
export async function resolveTransactionNames(db: CairnDb, accountId: string, transactions: readonly Pick<StorageTransaction, 'fileId' | 'versionId'>[]): Promise<Map<string, string>> {
  const fileIds = [...new Set(transactions.map((tx) => tx.fileId))];
  const nodes = await db.nodes.bulkGet(fileIds.map((id) => [accountId, id] as [string, string]));
  const names = new Map<string, string>();
  nodes.forEach((node) => {
    if (node && node.name) names.set(node.id, node.name);
  });
  // A version the device knows under another file id (should not happen) still resolves by versionId.
  const missing = transactions.filter((tx) => !names.has(tx.fileId));
  if (missing.length) {
    const versions = await db.versions.bulkGet(missing.map((tx) => [accountId, tx.versionId] as [string, string]));
    const owners = await db.nodes.bulkGet(versions.map((v) => [accountId, v?.fileId ?? ''] as [string, string]));
    missing.forEach((tx, index) => {
      const name = owners[index]?.name;
      if (name) names.set(tx.fileId, name);
    });
  }
  return names;
}

/** The signed-in account's cached transactions, newest first (live). */
export function useStorageTransactions(): StorageTxRecord[] | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(() => (accountId ? listStorageTransactions(getDb(), accountId) : []), [accountId]);
}

/** Names of `transactions` resolved on the device (live, so a late pull fills them in). */
export function useTransactionNames(transactions: readonly StorageTxRecord[]): Map<string, string> | undefined {
  const accountId = useStoreAccount();
  const key = transactions.map((tx) => tx.fileId).join(',');
  return useLiveQuery(() => (accountId ? resolveTransactionNames(getDb(), accountId, transactions) : new Map<string, string>()), [accountId, key]);
}

/** GET /storage as last answered on this device (undefined while reading, null when never fetched). */
export function useStorageUsage(): StorageUsageRecord | null | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(async () => (accountId ? ((await getDb().storageUsage.get(accountId)) ?? null) : null), [accountId]);
}

/** The latest storage transaction of each of `versionIds` (live): the timeline's dots and the file info drawer. */
export function useVersionStorageTxs(versionIds: readonly string[]): Map<string, StorageTxRecord> | undefined {
  const accountId = useStoreAccount();
  const key = versionIds.join(',');
  return useLiveQuery(() => (accountId ? statusesByVersion(getDb(), accountId, versionIds) : new Map<string, StorageTxRecord>()), [accountId, key]);
}

/** Every version of the vaults the account belongs to, with those vaults (the storage page's category usage). */
export function useOwnedUsageInputs(): { vaults: VaultRecord[]; versions: VersionRecord[] } | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(async () => {
    if (!accountId) return { vaults: [], versions: [] };
    const db = getDb();
    const vaults = (await db.vaults.where('accountId').equals(accountId).toArray()).filter((vault) => vault.role === 'OWNER');
    const versions = await db.versions.where('[accountId+vaultId]').anyOf(vaults.map((vault) => [accountId, vault.vaultId])).toArray();
    return { vaults, versions };
  }, [accountId]);
}

/**
 * The latest transaction of every cached version of a vault (live): one read for a whole list's
 * status dots (the timeline), where one live query per row would cost an IndexedDB read for each
 * row a scroll mounts.
 */
export function useVaultVersionStorageTxs(vaultId: string): Map<string, StorageTxRecord> | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(() => (accountId ? vaultStatusesByVersion(getDb(), accountId, vaultId) : new Map<string, StorageTxRecord>()), [accountId, vaultId]);
}
