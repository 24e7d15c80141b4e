/**
 * The decrypted projections of vaults that the UI reads (Dexie tables added in schema v2).
 * Written only by src/sync (pulls, the outbox's optimistic writes, rebuilds); read by screens
 * through the hooks of src/storage/vaultStore.ts. Every record carries `accountId` so log out
 * wipes it.
 */
import type { OpenedFields } from '../../workers/crypto/CryptoApi';
import type { FileVersion, NodeKind, NodeStatus, OperationType, Role, VaultStatus } from '../protocol/vaults';

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
  /** True while the vault's creation waits in the outbox: shown as '(Creating...)'. */
  isPending: boolean;
  /** The last rejection of an operation on the vault itself (vault.*), shown until dismissed. */
  rejection?: { opId: string; type: OperationType; code: string; message: string } | null;
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
 * One pulled operation, cached so a vault's projection can be rebuilt without the network
 * (src/sync/rebuild.ts): the signed operation as served plus what the crypto worker opened.
 */
export interface OpRecord {
  accountId: string;
  vaultId: string;
  seq: number;
  receivedAt: number;
  op: import('../protocol/vaults').Operation;
  isVerified: boolean;
  fields: OpenedFields;
}

export type UploadState = 'queued' | 'encrypting' | 'uploading' | 'paused' | 'finalising' | 'done' | 'failed' | 'cancelled';

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
  chunkCount: number;
  /** Hashes of stored chunks by index, filled as chunks are sent. */
  chunkHashes: (string | null)[];
  sentBytes: number;
  state: UploadState;
  error: string | null;
  createdAt: number;
  /** Upload batch (one pick of files), for the progress box's counts. */
  batchId: string;
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
