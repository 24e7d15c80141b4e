/**
 * The browser's local database (Dexie over IndexedDB), named 'cairn'. Components never touch it
 * directly: one store module per entity (walletStore.ts, accountStore.ts, ...) wraps each table.
 */
import Dexie, { type DexieOptions, type EntityTable, type Table, type Transaction } from 'dexie';
import { NODE_LIST_KEY_MIDDLEWARE, nodeListKey } from './nodeListKey';
import type { AccountUser } from '../protocol/auth';
import { VAULT_LIMITS } from '../protocol/vaults';
import type { MemberRecord } from './memberStore';
import type { NoteDraftRecord, NoteDraftUpdateRecord } from './noteDraftStore';
import type { StorageTxRecord, StorageUsageRecord } from './storageTxStore';
import type { ThumbnailRecord } from './thumbnailStore';
import type { SearchIndexRecord } from '../search/searchStore';
import type { NotificationActionRecord, NotificationRecord } from './notificationStore';
import type { AcceptedOpRecord, CachedOp, MemoRecord, NodeRecord, OpPageRecord, OutboxRecord, UploadFileRecord, UploadRecord, VaultRecord, VersionRecord } from './vaultRecords';

export const DB_NAME = 'cairn';

/** A wallet kept on this device for 'Keep me signed in' (see workers/crypto/deviceKey.ts). */
export interface WalletRecord {
  accountId: string;
  /** Non-extractable AES-GCM key; IndexedDB holds it by structured clone, never as bytes. */
  deviceKey: CryptoKey;
  /** base64url(iv || AES-GCM(entropy)). */
  sealed: string;
  savedAt: number;
}

/** The signed-in user's account as last seen from the server, for offline start. */
export interface AccountRecord extends AccountUser {
  cachedAt: number;
}

export interface SchemaVersion {
  version: number;
  /** Dexie store specs: primary key first, then indexes; null deletes a table. */
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<void> | void;
}

/**
 * Schema history. APPEND-ONLY: a published version is never edited or removed, because browsers
 * already hold databases at that version and Dexie upgrades them step by step. A change adds a new
 * entry (the changed stores and, if data must move, an `upgrade`) and a test in db.test.ts that
 * opens the previous version, writes, and reopens at the new one.
 *
 * Every table must be keyed or indexed by `accountId` (or be `accounts`, keyed by the account id)
 * so that wipeAccountData can remove an account's data on log out; db.test.ts enforces it.
 */
export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  { version: 1, stores: { wallets: 'accountId', accounts: 'id' } },
  // v2: vault projections, the outbox, the upload queue and the pulled-operation cache
  // (src/storage/vaultRecords.ts). `parentKey` is `parentId ?? ''`: IndexedDB cannot index null,
  // so root children are found under ''.
  {
    version: 2,
    stores: {
      vaults: '[accountId+vaultId], accountId',
      nodes: '[accountId+id], [accountId+vaultId+parentKey], [accountId+vaultId], accountId',
      versions: '[accountId+versionId], [accountId+fileId], [accountId+vaultId], accountId',
      outbox: '[accountId+opId], [accountId+queuedAt], [accountId+vaultId], accountId',
      uploads: '[accountId+uploadId], accountId',
      ops: '[accountId+vaultId+seq], accountId',
    },
  },
  {
    // Upload files move out of the upload records (see UploadFileRecord).
    version: 3,
    stores: { uploadFiles: '[accountId+uploadId], accountId' },
    async upgrade(tx) {
      await tx
        .table('uploads')
        .toCollection()
        .modify((record: Record<string, unknown>) => {
          const file = record.file as Blob | undefined;
          if (file) {
            void tx.table('uploadFiles').put({ accountId: record.accountId, uploadId: record.uploadId, file });
            record.fileType = file.type;
          }
          delete record.file;
        });
    },
  },
  {
    // The pulled-operation cache moves from one record per operation (`ops`) to one per applied
    // page (`opPages`, see OpPageRecord): existing rows move, a vault's in runs of at most
    // PULL_PAGE_MAX, and `ops` is deleted.
    version: 4,
    stores: { opPages: '[accountId+vaultId+firstSeq], accountId', ops: null },
    async upgrade(tx) {
      const rows = (await tx.table('ops').toArray()) as Array<CachedOp & { accountId: string; vaultId: string }>;
      const byVault = new Map<string, OpPageRecord>();
      const pages: OpPageRecord[] = [];
      // Primary-key order: by account, vault, then seq.
      for (const { accountId, vaultId, ...op } of rows) {
        const key = JSON.stringify([accountId, vaultId]);
        let page = byVault.get(key);
        if (!page || page.ops.length >= VAULT_LIMITS.PULL_PAGE_MAX) {
          page = { accountId, vaultId, firstSeq: op.seq, ops: [] };
          byVault.set(key, page);
          pages.push(page);
        }
        page.ops.push(op);
      }
      await tx.table('opPages').bulkAdd(pages);
    },
  },
  {
    // A folder's active children in list order straight from an index, so the file list can show
    // its first rows without reading (and sorting) a 10,000-item folder first. `listKey` is
    // derived on every write (see withListKey); the upgrade fills it in for stored nodes.
    version: 5,
    stores: {
      nodes: '[accountId+id], [accountId+vaultId+parentKey], [accountId+vaultId], accountId, [accountId+vaultId+parentKey+status+listKey]',
    },
    async upgrade(tx) {
      await tx
        .table('nodes')
        .toCollection()
        .modify((record: NodeRecord) => {
          record.listKey = nodeListKey(record);
        });
    },
  },
  // v6: each vault's members as GET /vaults/{id}/members last answered (src/storage/memberStore.ts).
  { version: 6, stores: { members: '[accountId+membershipId], [accountId+vaultId], accountId' } },
  // v7: chat messages of private vaults with their reactions (MemoRecord), listed in chat order.
  { version: 7, stores: { memos: '[accountId+memoId], [accountId+vaultId+order], [accountId+vaultId], accountId' } },
  // v8: note drafts (src/storage/noteDraftStore.ts): the Yjs documents this device keeps drafts in
  // (by IndexedDB name, so log out deletes them) and the pulled note.draft updates.
  {
    version: 8,
    stores: {
      noteDrafts: '[accountId+docName], accountId',
      noteDraftUpdates: '[accountId+opId], [accountId+noteId+baseVersionId], accountId',
    },
  },
  // Notifications (docs/SYNC_SPEC.md R31): the cache the page and the unread dots read, and the
  // read / delete actions taken offline, sent in order when online.
  {
    version: 9,
    stores: {
      notifications: '[accountId+id], [accountId+createdAt], accountId',
      notificationActions: '[accountId+actionId], accountId',
    },
  },
  // v10: the on-device search index, one record per account (src/search/searchStore.ts).
  { version: 10, stores: { searchIndex: 'accountId' } },
  // v11: the user's storage transactions (docs/SYNC_SPEC.md R38-R39, src/storage/storageTxStore.ts)
  // and GET /storage as last answered.
  {
    version: 11,
    stores: {
      storageTxs: '[accountId+id], [accountId+createdAt], [accountId+versionId], accountId',
      storageUsage: 'accountId',
    },
  },
  // v12: opened thumbnails of file versions (docs/SYNC_SPEC.md R79, src/storage/thumbnailStore.ts).
  { version: 12, stores: { thumbnails: '[accountId+versionId], [accountId+vaultId], accountId' } },
  // v13: operations the server accepted that no pull has brought back yet (SYNC_SPEC R123,
  // AcceptedOpRecord), so a rebuild in between keeps what they made.
  { version: 13, stores: { acceptedOps: '[accountId+opId], [accountId+vaultId+seq], accountId' } },
];

/** Declares the schema versions up to `upToVersion` on `db` (tests open older versions with it). */
export function declareSchema(db: Dexie, upToVersion = Number.POSITIVE_INFINITY): void {
  for (const { version, stores, upgrade } of SCHEMA_VERSIONS) {
    if (version > upToVersion) break;
    const declared = db.version(version).stores(stores);
    if (upgrade) declared.upgrade(upgrade);
  }
}

export class CairnDb extends Dexie {
  wallets!: EntityTable<WalletRecord, 'accountId'>;
  accounts!: EntityTable<AccountRecord, 'id'>;
  vaults!: Table<VaultRecord, [string, string]>;
  nodes!: Table<NodeRecord, [string, string]>;
  versions!: Table<VersionRecord, [string, string]>;
  outbox!: Table<OutboxRecord, [string, string]>;
  uploads!: Table<UploadRecord, [string, string]>;
  uploadFiles!: Table<UploadFileRecord, [string, string]>;
  opPages!: Table<OpPageRecord, [string, string, number]>;
  members!: Table<MemberRecord, [string, string]>;
  noteDrafts!: Table<NoteDraftRecord, [string, string]>;
  noteDraftUpdates!: Table<NoteDraftUpdateRecord, [string, string]>;
  searchIndex!: EntityTable<SearchIndexRecord, 'accountId'>;
  notifications!: Table<NotificationRecord, [string, string]>;
  notificationActions!: Table<NotificationActionRecord, [string, string]>;
  memos!: Table<MemoRecord, [string, string]>;
  storageTxs!: Table<StorageTxRecord, [string, string]>;
  storageUsage!: EntityTable<StorageUsageRecord, 'accountId'>;
  thumbnails!: Table<ThumbnailRecord, [string, string]>;
  acceptedOps!: Table<AcceptedOpRecord, [string, string]>;

  /** `options.indexedDB` / `options.IDBKeyRange` let tests use a fresh fake-indexeddb. */
  constructor(options?: DexieOptions) {
    super(DB_NAME, options);
    declareSchema(this);
    this.use(NODE_LIST_KEY_MIDDLEWARE);
  }
}

let appDb: CairnDb | undefined;

/** The app's database, opened on first use. */
export function getDb(): CairnDb {
  appDb ??= new CairnDb();
  return appDb;
}
