/**
 * The vault projections as screens read them (DESIGN.md section 4: the UI reads Dexie only).
 *
 * Account scoping: hooks read the signed-in account from a module-level value that
 * `setStoreAccount(accountId)` sets; startSync/stopSync (src/sync/index.ts) call it, so screens
 * never pass an account id. Changing it re-renders every hook. The plain getters take the
 * database and account explicitly (for sync code and tests).
 *
 * Hooks answer `undefined` while the first read is in flight; with no account set they answer
 * an empty result.
 */
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { compareNames, nodeComparator, sortNodes } from '../domain/nodeSort';
import { ACTIVE_UPLOAD_STATES } from '../domain/uploadRules';
import { isListedMembership } from '../domain/vaultListRules';
import { getDb, type CairnDb } from './db';
import { PacedRead, usePacedRead } from './pacedRead';
import type { NodeRecord, UploadRecord, VaultRecord, VersionRecord } from './vaultRecords';

let storeAccountId: string | null = null;
const accountListeners = new Set<() => void>();

/** Sets (or clears, with null) the account whose data the hooks read. */
export function setStoreAccount(accountId: string | null): void {
  if (storeAccountId === accountId) return;
  storeAccountId = accountId;
  for (const listener of accountListeners) listener();
}

export function getStoreAccount(): string | null {
  return storeAccountId;
}

export function useStoreAccount(): string | null {
  return useSyncExternalStore(
    (listener) => {
      accountListeners.add(listener);
      return () => accountListeners.delete(listener);
    },
    () => storeAccountId,
    () => storeAccountId,
  );
}

export { compareNames };

/** Vaults being created first, then by name. */
export function sortVaults(vaults: VaultRecord[]): VaultRecord[] {
  return [...vaults].sort((a, b) => Number(b.isPending) - Number(a.isPending) || compareNames(a.name, b.name) || a.vaultId.localeCompare(b.vaultId));
}

// --- plain getters -----------------------------------------------------------------------------

/**
 * 'active': ACTIVE (including vaults being created); 'inactive': ARCHIVED. Vaults whose membership
 * ended (revoked, left, rejected) are not listed (isListedMembership).
 */
export async function getVaults(db: CairnDb, accountId: string, status: 'active' | 'inactive'): Promise<VaultRecord[]> {
  const wanted = status === 'active' ? 'ACTIVE' : 'ARCHIVED';
  const vaults = await db.vaults
    .where('accountId')
    .equals(accountId)
    .filter((v) => v.status === wanted && isListedMembership(v.membershipStatus))
    .toArray();
  return sortVaults(vaults);
}

export async function getVault(db: CairnDb, accountId: string, vaultId: string): Promise<VaultRecord | undefined> {
  return db.vaults.get([accountId, vaultId]);
}

export async function getNode(db: CairnDb, accountId: string, nodeId: string): Promise<NodeRecord | undefined> {
  return db.nodes.get([accountId, nodeId]);
}

/** Every node of a vault, any status. */
export async function getVaultNodes(db: CairnDb, accountId: string, vaultId: string): Promise<NodeRecord[]> {
  return db.nodes.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray();
}

/**
 * Children of `parentId` (null: root), folders first, then by name. ACTIVE: the active children.
 * REVOKED with parentId null: every hidden node of the vault wherever it sits (the revoked-files
 * view); REVOKED inside a folder: that (hidden) folder's children that are not deleted, since all
 * of them are hidden with it.
 *
 * Active children come from the list-order index: only active records are read, and they arrive
 * in nearly the final order, so the exact sort is close to linear.
 */
export async function getChildren(
  db: CairnDb,
  accountId: string,
  vaultId: string,
  parentId: string | null,
  status: 'ACTIVE' | 'REVOKED' = 'ACTIVE',
): Promise<NodeRecord[]> {
  if (status === 'ACTIVE') return (await activeChildren(db, accountId, vaultId, parentId).toArray()).sort(NAME_ORDER);
  let nodes: NodeRecord[];
  if (parentId === null) {
    nodes = (await getVaultNodes(db, accountId, vaultId)).filter((n) => n.status === 'REVOKED');
  } else {
    const children = await db.nodes.where('[accountId+vaultId+parentKey]').equals([accountId, vaultId, parentId]).toArray();
    nodes = children.filter((n) => n.status !== 'DELETED');
  }
  return sortNodes(nodes, 'name', 'asc');
}

/**
 * The first `limit` active children in list-index order, re-sorted exactly among themselves: what
 * a large folder shows while `getChildren` reads the rest. They are the first rows of the full
 * listing except where the index key and the collator disagree (see nodeListKey.ts).
 */
export async function getFirstChildren(db: CairnDb, accountId: string, vaultId: string, parentId: string | null, limit: number): Promise<NodeRecord[]> {
  return (await activeChildren(db, accountId, vaultId, parentId).limit(limit).toArray()).sort(NAME_ORDER);
}

const NAME_ORDER = nodeComparator('name', 'asc');

function activeChildren(db: CairnDb, accountId: string, vaultId: string, parentId: string | null) {
  const prefix = [accountId, vaultId, parentId ?? '', 'ACTIVE'];
  return db.nodes.where('[accountId+vaultId+parentKey+status+listKey]').between([...prefix, Dexie.minKey], [...prefix, Dexie.maxKey]);
}

/** The folders from the root down to `folderId` (inclusive); empty for the root. */
export async function getFolderPath(db: CairnDb, accountId: string, folderId: string | null): Promise<NodeRecord[]> {
  const path: NodeRecord[] = [];
  const seen = new Set<string>();
  let id = folderId;
  while (id && !seen.has(id)) {
    seen.add(id);
    const node = await db.nodes.get([accountId, id]);
    if (!node) break;
    path.unshift(node);
    id = node.parentId;
  }
  return path;
}

/** A file's versions, newest first. */
export async function getVersions(db: CairnDb, accountId: string, fileId: string): Promise<VersionRecord[]> {
  const versions = await db.versions.where('[accountId+fileId]').equals([accountId, fileId]).toArray();
  return versions.sort((a, b) => b.number - a.number);
}

/** The uploads of files (a mint's blobs are shown by the mint's own progress, not here). */
export async function getUploads(db: CairnDb, accountId: string): Promise<UploadRecord[]> {
  return (await db.uploads.where('accountId').equals(accountId).sortBy('createdAt')).filter((upload) => upload.purpose !== 'nft');
}


/** An upload still to be sent: it ends in a file operation, or waits for the user (paused). */
const UNSENT_UPLOAD_STATES: ReadonlySet<UploadRecord['state']> = new Set(['queued', 'encrypting', 'uploading', 'paused', 'resuming', 'finalising']);

/**
 * The operations waiting to be pushed (rejected ones are not counted; they show on their item):
 * how many, and the uploads whose file operation is among them.
 */
export interface PendingOutbox {
  count: number;
  uploadIds: ReadonlySet<string>;
}

export async function getPendingOutbox(db: CairnDb, accountId: string): Promise<PendingOutbox> {
  const pending = await db.outbox.where('accountId').equals(accountId).filter((r) => r.status === 'pending').toArray();
  return { count: pending.length, uploadIds: new Set(pending.map((r) => r.waitsForUploadId).filter((id) => id !== null)) };
}

/**
 * The changes waiting to be sent (the top bar's count, SYNC_SPEC R12): pending operations and the
 * uploads still on their way. An upload is counted once: as itself until its file operation is
 * queued, then as that operation. Without the uploads the top bar said 'Synced' while a file was
 * still being sent, and a user who trusted it and closed the browser left the file behind.
 */
export function countChangesWaiting(outbox: PendingOutbox, uploads: readonly UploadRecord[]): number {
  let unsent = 0;
  for (const upload of uploads) if (UNSENT_UPLOAD_STATES.has(upload.state) && !outbox.uploadIds.has(upload.uploadId)) unsent += 1;
  return outbox.count + unsent;
}

// --- hooks -------------------------------------------------------------------------------------

export function useVaults(status: 'active' | 'inactive'): VaultRecord[] | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(() => (accountId ? getVaults(getDb(), accountId, status) : []), [accountId, status]);
}

export function useVault(vaultId: string): VaultRecord | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(() => (accountId ? getVault(getDb(), accountId, vaultId) : undefined), [accountId, vaultId]);
}

export function useChildren(vaultId: string, parentId: string | null, status: 'ACTIVE' | 'REVOKED' = 'ACTIVE'): NodeRecord[] | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(
    () => (accountId ? getChildren(getDb(), accountId, vaultId, parentId, status) : []),
    [accountId, vaultId, parentId, status],
  );
}

/** Rows a large folder shows before the whole of it is read: a screenful or two. */
export const FIRST_ROWS = 100;

/**
 * A folder's active children for the file list: at first its first FIRST_ROWS children (a read
 * of a few milliseconds), then, once read, the whole folder, live. `isComplete` tells which, so
 * that screens can hold back what needs every item (select-all, other sort orders, the count).
 */
export function useFolderChildren(vaultId: string, parentId: string | null): { nodes: NodeRecord[] | undefined; isComplete: boolean; readAt: number } {
  const accountId = useStoreAccount();
  // Results carry the folder they belong to: useLiveQuery keeps the previous folder's result
  // until the new one lands, which must not pass for this folder's. They carry when their read
  // began too: what changed after that is not in them (uploadsOnTheWay).
  const key = `${accountId}/${vaultId}/${parentId ?? ''}`;
  const [first, setFirst] = useState<{ key: string; nodes: NodeRecord[]; readAt: number } | null>(null);
  // Issued before the full read (effects run in order): IndexedDB answers requests in turn, so
  // the other way round the first rows would wait for the whole folder.
  useEffect(() => {
    if (!accountId) return;
    let isCurrent = true;
    const readAt = Date.now();
    getFirstChildren(getDb(), accountId, vaultId, parentId, FIRST_ROWS).then(
      (nodes) => isCurrent && setFirst({ key, nodes, readAt }),
      () => undefined, // the full read below reports the same failure
    );
    return () => {
      isCurrent = false;
    };
  }, [key]); // key stands for accountId, vaultId and parentId
  // Paced (pacedRead.ts): a pick of many files makes a node each, and the whole folder read on
  // every one of them grew with the square of the pick.
  const all = usePacedRead(key, () =>
    new PacedRead(getDb(), ['nodes'], async () => {
      const readAt = Date.now();
      return { key, nodes: accountId ? await getChildren(getDb(), accountId, vaultId, parentId) : [], readAt };
    }),
  );
  if (all?.key === key) return { nodes: all.nodes, isComplete: true, readAt: all.readAt };
  return { nodes: first?.key === key ? first.nodes : undefined, isComplete: false, readAt: first?.key === key ? first.readAt : 0 };
}

export function useNode(nodeId: string): NodeRecord | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(() => (accountId ? getNode(getDb(), accountId, nodeId) : undefined), [accountId, nodeId]);
}

/** Root to folder, inclusive; [] for the root or while loading. */
export function useFolderPath(vaultId: string, folderId: string | null): NodeRecord[] {
  const accountId = useStoreAccount();
  const path = useLiveQuery(
    async () => (accountId ? (await getFolderPath(getDb(), accountId, folderId)).filter((n) => n.vaultId === vaultId) : []),
    [accountId, vaultId, folderId],
  );
  return path ?? EMPTY_NODES;
}

export function useVersions(fileId: string): VersionRecord[] | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(() => (accountId ? getVersions(getDb(), accountId, fileId) : []), [accountId, fileId]);
}

export function useUploads(): UploadRecord[] {
  return useUploadsOnceRead() ?? EMPTY_UPLOADS;
}

type UploadsFeed = PacedRead<UploadRecord[]>;

const feeds = new WeakMap<CairnDb, Map<string, UploadsFeed>>();

/** The one feed of `accountId`'s uploads in `db` (pacedRead.ts), shared by every view of them. */
export function uploadsFeedOf(db: CairnDb, accountId: string): UploadsFeed {
  let byAccount = feeds.get(db);
  if (!byAccount) feeds.set(db, (byAccount = new Map()));
  let feed = byAccount.get(accountId);
  if (!feed) byAccount.set(accountId, (feed = new PacedRead(db, [db.uploads.name], () => getUploads(db, accountId))));
  return feed;
}

const NO_FEED = { subscribe: () => () => {}, getSnapshot: () => undefined };

/** The uploads feed of the signed-in account (nothing with no account). */
function feedOf(accountId: string | null): Pick<UploadsFeed, 'subscribe' | 'getSnapshot'> {
  return accountId ? uploadsFeedOf(getDb(), accountId) : NO_FEED;
}

/**
 * The uploads, or undefined until they have been read for a signed-in account: from the one
 * shared feed of them (uploadsFeed.ts), so at most four reads a second however many views show
 * them and however fast the upload records change.
 */
export function useUploadsOnceRead(): UploadRecord[] | undefined {
  const feed = feedOf(useStoreAccount());
  return useSyncExternalStore(feed.subscribe, feed.getSnapshot);
}

/** One upload's record, live (a pending row's mark follows its progress by itself), from the feed. */
export function useUpload(uploadId: string): UploadRecord | undefined {
  const feed = feedOf(useStoreAccount());
  return useSyncExternalStore(feed.subscribe, () => feed.getSnapshot()?.find((u) => u.uploadId === uploadId));
}

/**
 * The uploads of new files still on their way into a folder, from the feed: handed on only when
 * which they are changes, not on each chunk's progress (the page stays still meanwhile).
 */
export function useNewFileUploadsInto(vaultId: string, parentId: string | null): UploadRecord[] {
  const accountId = useStoreAccount();
  const [selected, setSelected] = useState(EMPTY_UPLOADS);
  useEffect(() => {
    const feed = feedOf(accountId);
    let lastKey: string | null = null;
    const select = () => {
      const all = accountId ? feed.getSnapshot() : EMPTY_UPLOADS;
      if (!all) return;
      const into = all.filter((u) => u.vaultId === vaultId && u.parentId === parentId && u.isNewFile && ACTIVE_UPLOAD_STATES.has(u.state));
      const key = into.map((u) => u.uploadId).join();
      if (key === lastKey) return;
      lastKey = key;
      setSelected(into.length ? into : EMPTY_UPLOADS);
    };
    const unsubscribe = feed.subscribe(select);
    select();
    return unsubscribe;
  }, [accountId, vaultId, parentId]);
  return selected;
}

const NO_PENDING: PendingOutbox = { count: 0, uploadIds: new Set() };

/**
 * The top bar's count of changes waiting. Both reads are paced: a pick of 1,000 files writes the
 * uploads and the outbox thousands of times, and a live query would count them all again each time.
 */
export function useChangesWaiting(): number {
  const accountId = useStoreAccount();
  const outbox = usePacedRead(`outbox:${accountId ?? ''}`, () =>
    new PacedRead(getDb(), ['outbox'], async () => (accountId ? getPendingOutbox(getDb(), accountId) : NO_PENDING)),
  );
  const uploads = useUploadsOnceRead() ?? EMPTY_UPLOADS;
  return countChangesWaiting(outbox ?? NO_PENDING, uploads);
}

const EMPTY_NODES: NodeRecord[] = [];
const EMPTY_UPLOADS: UploadRecord[] = [];
