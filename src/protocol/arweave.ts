/**
 * Permanent storage on Arweave (spec 000 sections 3, 4, 7; DESIGN.md section 5; docs/SYNC_SPEC.md
 * R34-R37).
 *
 * Every committed file version of a permanent vault becomes one storage transaction: the relay
 * wraps the stored bytes (ciphertext for private vaults) in an ANS-104 data item signed by the
 * relay wallet, bundles data items into one Arweave transaction and posts it. A row carries no
 * names: a private vault's names are resolved on the device from Dexie by `versionId`.
 *
 * Paths are relative to `/api`.
 */
import { z } from 'zod';
import { Id } from './primitives';

/**
 * SCHEDULED: waiting for the relay. VERIFICATION: being read and checked. BUNDLED: signed into a
 * bundle whose tx id is recorded, not yet accepted by the gateway. PENDING: posted, waiting for
 * confirmation. COMMITTED: confirmed on the network (final). REJECTED: the gateway refused it
 * (final). BLOCKED: cannot be stored (e.g. its bytes are missing; final). REGISTERED: an NFT's or a
 * collection's data item confirmed on the network, where a version's is COMMITTED (SYNC_SPEC R139; final).
 */
export const StorageTxStatus = z.enum(['SCHEDULED', 'VERIFICATION', 'BUNDLED', 'PENDING', 'COMMITTED', 'REJECTED', 'BLOCKED', 'REGISTERED']);
export type StorageTxStatus = z.infer<typeof StorageTxStatus>;

/** Statuses after which a row never changes. */
export const FINAL_STORAGE_TX_STATUSES: readonly StorageTxStatus[] = ['COMMITTED', 'REGISTERED', 'REJECTED', 'BLOCKED'];
/** Statuses of a row confirmed on the network: a version's COMMITTED, an NFT's or collection's REGISTERED (R139). */
export const CONFIRMED_STORAGE_TX_STATUSES: readonly StorageTxStatus[] = ['COMMITTED', 'REGISTERED'];

/** An Arweave transaction or ANS-104 data item id: 32 bytes as base64url, 43 characters. */
export const ArweaveTxId = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Expected a 43-character Arweave transaction id');

export const StorageTransaction = z.object({
  id: Id,
  vaultId: Id,
  fileId: Id,
  versionId: Id,
  /** The ANS-104 data item id of this version, once bundled. */
  dataItemId: ArweaveTxId.nullable(),
  /** The bundle's Arweave transaction id, once bundled. */
  txId: ArweaveTxId.nullable(),
  /** Bytes stored (the stored blob: ciphertext for private vaults). */
  size: z.number().int().nonnegative(),
  /** The bundle's fee in winston (a decimal integer string), once bundled. */
  reward: z.string().regex(/^\d+$/).nullable(),
  status: StorageTxStatus,
  /** ISO 8601 timestamps. */
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StorageTransaction = z.infer<typeof StorageTransaction>;

export const STORAGE_TX_PAGE_SIZE = 20;

/** GET /storage/transactions?limit=20&nextToken=: the caller's own uploads, newest first. */
export const StorageTransactionsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(STORAGE_TX_PAGE_SIZE).default(STORAGE_TX_PAGE_SIZE),
  nextToken: z.string().min(1).max(200).optional(),
});
export type StorageTransactionsQuery = z.infer<typeof StorageTransactionsQuery>;

export const StorageTransactionPage = z.object({
  items: z.array(StorageTransaction),
  nextToken: z.string().nullable(),
});
export type StorageTransactionPage = z.infer<typeof StorageTransactionPage>;

/**
 * GET /config/arweave (public): where the client reads permanent data and links to viewers. A
 * gateway only the server can reach (the embedded arlocal, any loopback address) is never
 * published, nor are its viewers (its admin routes could wipe or mint): the three are null and
 * the app reads an item through GET /arweave/tx/{txId} (SYNC_SPEC R54).
 */
export const ArweaveConfig = z.object({
  /** Base URL of a public Arweave gateway (e.g. https://arweave.net); null: read items through the server. */
  gatewayUrl: z.string().url().nullable(),
  /** A transaction viewer URL template containing `{txId}`; null when there is none to link to. */
  txViewerUrl: z.string().includes('{txId}').nullable(),
  /** The viewer of the relay's wallet / contract; null when there is none to link to. */
  contractViewerUrl: z.string().nullable(),
});
export type ArweaveConfig = z.infer<typeof ArweaveConfig>;

/** GET /arweave/tx/:txId: import by network transaction id (public permanent vaults). */
export const ArweaveTxParams = z.strictObject({ txId: ArweaveTxId });
/** Response header carrying the file name from the item's File-Name tag (URI-encoded). */
export const ARWEAVE_FILE_NAME_HEADER = 'x-cairn-file-name';
/**
 * Response header carrying the item's type from its Content-Type tag (a bare `type/subtype`, else
 * application/octet-stream). The response itself is always `application/octet-stream`, sandboxed
 * and an attachment: gateway bytes are never served with their own type from Cairn's origin,
 * where a `text/javascript` item would pass `script-src 'self'` (SYNC_SPEC R54).
 */
export const ARWEAVE_CONTENT_TYPE_HEADER = 'x-cairn-content-type';

/**
 * One history run of a permanent vault (SYNC_SPEC R84): the operations `seqFrom..seqTo` in one
 * data item, bundled, posted and polled like a file version (same statuses).
 */
export const VaultHistoryItem = z.object({
  seqFrom: z.number().int().positive(),
  seqTo: z.number().int().positive(),
  status: StorageTxStatus,
  /** The run's ANS-104 data item id, once bundled; the first run's is the vault's "contract". */
  dataItemId: ArweaveTxId.nullable(),
  /** The bundle's Arweave transaction id, once bundled. */
  txId: ArweaveTxId.nullable(),
  /** Bytes of the run's data. */
  size: z.number().int().nonnegative(),
  /** ISO 8601 timestamps. */
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type VaultHistoryItem = z.infer<typeof VaultHistoryItem>;

export const VAULT_HISTORY_PAGE_SIZE = 50;

export const VaultHistoryParams = z.strictObject({ vaultId: Id });

/** GET /vaults/{vaultId}/history-items?limit=&after=: the vault's runs in seq order, after seq `after`. */
export const VaultHistoryQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(VAULT_HISTORY_PAGE_SIZE).default(VAULT_HISTORY_PAGE_SIZE),
  /** The `seqTo` of the last run already shown (0: from the first). */
  after: z.coerce.number().int().nonnegative().default(0),
});
export type VaultHistoryQuery = z.infer<typeof VaultHistoryQuery>;

export const VaultHistoryPage = z.object({
  items: z.array(VaultHistoryItem),
  /** Pass as `after` for the next page; null on the last page. */
  nextAfter: z.number().int().nonnegative().nullable(),
  /** Whether the vault is permanent (a cloud vault has no history on the network: items is empty). */
  isPermanent: z.boolean(),
  /** The vault's newest seq and the last seq put in a run: operations after it wait for a run. */
  headSeq: z.number().int().nonnegative(),
  historySeq: z.number().int().nonnegative(),
});
export type VaultHistoryPage = z.infer<typeof VaultHistoryPage>;

/**
 * GET /arweave/items (R96): one page of the Cairn items this server's gateway lists for a vault,
 * as its GraphQL answers them (nothing in them is believed: the reader judges the bytes, R86).
 * `item` picks R84's history runs or R85's file versions (then `blobId` is required); `after` is
 * the previous page's `cursor`. The bytes of one item come from GET /arweave/tx/{txId}.
 */
export const NETWORK_ITEMS_PAGE_SIZE = 100;
export const NetworkItemsQuery = z
  .strictObject({
    vaultId: Id,
    item: z.enum(['vault-history', 'file-version']),
    blobId: Id.optional(),
    after: z.string().min(1).max(200).regex(/^[A-Za-z0-9_=+/.:-]+$/).optional(),
  })
  .refine((query) => (query.item === 'file-version') === (query.blobId !== undefined), { path: ['blobId'], message: 'A blobId is required for file-version items, and only for them' });
export type NetworkItemsQuery = z.infer<typeof NetworkItemsQuery>;
export const NetworkItem = z.object({
  id: ArweaveTxId,
  /** The address of the wallet that signed the item. */
  owner: z.string().max(100),
  tags: z.array(z.object({ name: z.string().max(1024), value: z.string().max(4096) })).max(100),
  /** Its data size in bytes when the gateway says, else null. */
  size: z.number().int().nonnegative().nullable(),
  /** The height of the block that holds it; null while it is pending (R98: read after every mined one). */
  height: z.number().int().nonnegative().nullable().default(null),
});
export type NetworkItem = z.infer<typeof NetworkItem>;
export const NetworkItemsPage = z.object({
  items: z.array(NetworkItem),
  /** Pass as `after` for the next page; null on the last page. */
  cursor: z.string().nullable(),
  /** The gateway read, for the page's "Reads from {gateway}" (the embedded one: "this server's gateway"). */
  gateway: z.string(),
});
export type NetworkItemsPage = z.infer<typeof NetworkItemsPage>;
