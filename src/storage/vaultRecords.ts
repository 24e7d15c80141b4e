/**
 * The decrypted projections of vaults that the UI reads (Dexie tables added in schema v2).
 * Written only by src/sync (pulls, the outbox's optimistic writes, rebuilds); read by screens
 * through the hooks of src/storage/vaultStore.ts. Every record carries `accountId` so log out
 * wipes it.
 */
import type { OpenedFields } from '../../workers/crypto/CryptoApi';
import type { VaultLogState } from '../domain/vaultLog';
import type { ChunkSize, FileVersion, NodeKind, NodeStatus, OperationType, Role, VaultStatus } from '../protocol/vaults';

export interface VaultRecord {
  accountId: string;
  vaultId: string;
  /** Decrypted; '' until the vault's first operation is pulled. */
  name: string;
  description: string;
  tags: string[];
  /** Serialised rich text (plain text for now). */
  terms: string;
  isPublic: boolean;
  isCloud: boolean;
  status: VaultStatus;
  role: Role;
  membershipStatus: 'ACCEPTED' | 'PENDING' | 'INVITED' | 'REJECTED' | 'REVOKED';
  ownerAddress: string;
  size: number;
  createdAt: number;
  updatedAt: number;
  /** Last seq pulled and applied. */
  cursor: number;
  /** Last seq the server announced. */
  headSeq: number;
  /**
   * This member's vault key ring as the server holds it: sealed to the account's X25519 key.
   * Kept so a reload while offline can still open the vault's keys (docs/SYNC_SPEC.md R13).
   */
  sealedKeys?: string | null;
  /** The signed-in user's membership id (member.leave names it); absent before GET /vaults answered. */
  membershipId?: string;
  /** Airdrop memberships end then (ms); null otherwise. */
  membershipExpiresAt?: number | null;
  /** An airdrop membership's upload allowance in bytes (0: no uploads); null otherwise. */
  membershipStorageAllowance?: number | null;
  /** Keys in the vault's ring as GET /vaults last said (0 for public vaults). */
  keyCount?: number;
  /** A member left and nobody has rotated the key yet (VaultSummary.needsKeyRotation). */
  needsKeyRotation?: boolean;
  /** 'Available offline' is on: every file's chunks are kept on this device (src/sync/offlineFiles.ts). */
  keepOffline?: boolean;
  /** True while the vault's creation waits in the outbox: shown as '(Creating...)'. */
  isPending: boolean;
  /** The last rejection of an operation on the vault itself (vault.*), shown until dismissed. */
  rejection?: { opId: string; type: OperationType; code: string; message: string } | null;
  /**
   * Changes with every write of this vault's projection (src/storage/vaultProjection.ts), so a
   * pull holding the projection in memory knows whether it may go on from its copy. Absent
   * before the first write.
   */
  projectionStamp?: string;
  /**
   * The client's judge of the vault's log up to `cursor` (src/domain/vaultLog.ts, SYNC_SPEC R50):
   * members and roles as the verified log says, the rings it handed out, and the first problem
   * found. Saved with the cursor; absent before the first pull.
   */
  log?: VaultLogState;
  /**
   * Set when the membership ended and this device dropped the vault's data (wipeVaultData): the
   * record is then only a tombstone. Cleared if the user is a member again (docs/SYNC_SPEC.md R56).
   */
  droppedAt?: number;
}

export interface NodeRecord {
  accountId: string;
  vaultId: string;
  /** Folder or file (stack) id. */
  id: string;
  kind: NodeKind;
  /** null: the vault root. */
  parentId: string | null;
  /** `parentId ?? ''`, the indexed form (IndexedDB cannot index null). Kept in step by src/sync. */
  parentKey: string;
  /** Order within a folder listing; set by the storage layer on every write (nodeListKey.ts). */
  listKey?: string;
  name: string;
  status: NodeStatus;
  /** Files: latest version's plaintext size; folders: total of active descendants. */
  size: number;
  /** Files: latest version's MIME type. */
  mimeType: string;
  /** Files: number of versions; folders: 0. */
  versionCount: number;
  latestVersionId: string | null;
  createdAt: number;
  updatedAt: number;
  /** Ids of outbox operations not yet accepted that touched this node. */
  pendingOpIds: string[];
  /** The last rejection of an operation on this node, shown on the item until dismissed. */
  rejection: { opId: string; type: OperationType; code: string; message: string } | null;
}

export interface VersionRecord extends FileVersion {
  accountId: string;
  vaultId: string;
  fileId: string;
  /** Decrypted MIME type (the `mimeType` field of FileVersion stays sealed here). */
  mimeTypeText: string;
  authorKey: string;
  createdAt: number;
  /** Version number, 1 for the first. */
  number: number;
}

/**
 * One reaction of one member on a memo (spec 000 section 4, Reactions): the last memo.react of
 * that author with that emoji wins (docs/SYNC_SPEC.md R23); removed ones are kept (isAdded false)
 * so an older copy pulled late cannot bring them back.
 */
export interface ReactionEntry {
  /** The emoji, opened from the sealed `reaction` field. */
  emoji: string;
  authorKey: string;
  isAdded: boolean;
  /** The outbox operation that set this entry, until the server accepted it; else null. */
  pendingOpId: string | null;
}

/** A chat message (memo) of a private vault, decrypted (schema v7, src/sync/applyOperation.ts). */
export interface MemoRecord {
  accountId: string;
  vaultId: string;
  memoId: string;
  /** The message in clear; null when it could not be opened (no key for it). */
  text: string | null;
  /** The author's Ed25519 public key (hex): members are found by it (memberStore.ts). */
  authorKey: string;
  /** Server time once pulled; the author's clock while pending. */
  createdAt: number;
  /**
   * Chat order (R22): the memo.create's seq once pulled; before, PENDING_MEMO_ORDER plus the
   * author's clock, so messages still in the outbox come after every pulled one, in queuing order.
   */
  order: number;
  reactions: ReactionEntry[];
  /** Outbox operations not yet accepted that touched this memo (its creation, reactions). */
  pendingOpIds: string[];
  /** The last rejection of an operation on this memo, shown on the message. */
  rejection: { opId: string; type: OperationType; code: string; message: string } | null;
}

/** One operation made on this device, kept until the server accepts or rejects it. */
export interface OutboxRecord {
  accountId: string;
  /** The operation id: the idempotency key of every retry. */
  opId: string;
  vaultId: string;
  /** Signed operation, pushed as is. */
  op: import('../protocol/vaults').Operation;
  /** Order of queuing, for pushing in order. */
  queuedAt: number;
  status: 'pending' | 'rejected';
  error: { code: string; message: string } | null;
  /** Waiting for an upload to finish before it can be pushed. */
  waitsForUploadId: string | null;
  /**
   * The operation's fields in clear, as typed on this device: a rebuild re-applies pending
   * operations without asking the crypto worker to open what this device itself sealed.
   */
  fields: OpenedFields;
}

/**
 * One of this device's operations the server accepted (with its seq) that no pull has brought back
 * yet (SYNC_SPEC R123). Until a pull moves the vault's cursor past `seq`, this record is the only
 * trace of it on the device: the outbox has let it go and the cached pages do not have it, so a
 * rebuild applies it after the cached operations instead of losing what it made (a folder created
 * in the same push that refused its rename would otherwise vanish with its rejection mark).
 */
export interface AcceptedOpRecord {
  accountId: string;
  opId: string;
  vaultId: string;
  /** The seq the server gave it. */
  seq: number;
  op: import('../protocol/vaults').Operation;
  fields: OpenedFields;
}

/**
 * One pulled operation, cached so a vault's projection can be rebuilt without the network
 * (src/sync/rebuild.ts): the signed operation as served plus what the crypto worker opened.
 */
export interface CachedOp {
  seq: number;
  receivedAt: number;
  op: import('../protocol/vaults').Operation;
  /** Signed by its author and accepted by the log's judge (R50): only these are applied and shown. */
  isVerified: boolean;
  fields: OpenedFields;
  /** Why the log's judge refused it (its signature, its author's role...), when it did. */
  refusal?: string;
}

/**
 * The operations one pull transaction applied (those past the cursor, in seq order), cached
 * together: one record per page rather than one per operation, since a first sync of a large
 * vault writes thousands of them and IndexedDB's cost is mostly per record.
 */
export interface OpPageRecord {
  accountId: string;
  vaultId: string;
  /** Seq of `ops[0]`; pages of one vault never overlap (each holds only what its pull applied). */
  firstSeq: number;
  ops: CachedOp[];
}

/**
 * queued -> uploading -> finalising -> done. `paused`: interrupted and waiting for the network or
 * the server; `resuming`: checking the source and which chunks the server holds before going on.
 * `failed` needs the user (Retry); `cancelled` was the user's choice. (`encrypting` is not
 * written any more; records from older versions may hold it and are resumed like `uploading`.)
 */
export type UploadState = 'queued' | 'encrypting' | 'uploading' | 'paused' | 'resuming' | 'finalising' | 'done' | 'failed' | 'cancelled';

/** A file being uploaded: the File itself is kept (IndexedDB stores Blobs) so it can resume. */
export interface UploadRecord {
  accountId: string;
  uploadId: string;
  vaultId: string;
  /** The file (stack) id the version belongs to, and whether this creates the file. */
  fileId: string;
  isNewFile: boolean;
  parentId: string | null;
  name: string;
  versionId: string;
  blobId: string;
  /** The version's file key sealed under the vault key (private vaults): reopened to resume. */
  sealedFileKey: import('../protocol/vaults').SealedField | null;
  /** MIME type of the picked file (the bytes themselves are in UploadFileRecord). */
  fileType: string;
  size: number;
  lastModified: number;
  /**
   * Plaintext bytes per chunk. Absent in records queued before chunks grew to 8 MiB, whose
   * chunks are 4 MiB (`uploadChunkSize` in src/sync/uploadSource.ts).
   */
  chunkSize?: ChunkSize;
  chunkCount: number;
  /**
   * SHA-256 of each sealed chunk by index (its receipt), recorded just before the chunk is first
   * sent: a chunk counts as stored only when the server lists it too. Also the resume check: a
   * chunk sealed again under the same key and nonce hashes the same only from the same plaintext
   * (DESIGN.md section 3). (Records written before this also hold `plainHashes`, now unused.)
   */
  chunkHashes: (string | null)[];
  /** A cancelled upload: false until the server released its reservation (then true). */
  isReleased?: boolean;
  sentBytes: number;
  state: UploadState;
  error: string | null;
  createdAt: number;
  /** When the upload became 'done' (its file operation queued); unset before (and on older records). */
  finishedAt?: number;
  /** Upload batch (one pick of files), for the progress box's counts. */
  batchId: string;
  /**
   * 'nft': the blob of a mint (src/sync/nftMint.ts). Its chunks go up like any file's, but no
   * file operation is queued: once stored, the version is kept in `version` for the mint's own
   * signed operations, and it is no file of the folder tree (not listed, no name taken).
   */
  purpose?: 'nft';
  /** The stored version of a finished 'nft' upload. */
  version?: import('../protocol/vaults').FileVersion;
}

/**
 * The picked file of an upload, kept apart from UploadRecord and written once: progress updates
 * rewrite the small UploadRecord many times, and re-putting a record that holds a Blob makes
 * IndexedDB copy the whole file each time.
 */
export interface UploadFileRecord {
  accountId: string;
  uploadId: string;
  file: Blob;
}
