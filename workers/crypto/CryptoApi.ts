/**
 * The crypto worker's contract. `createCryptoApi.ts` implements it (tested directly in Node);
 * `crypto.worker.ts` only exposes it with Comlink; the UI reaches it through
 * `src/platform/cryptoClient.ts`. Every libsodium, WebCrypto, BIP39, SLIP-0010 and OPAQUE
 * operation of the app runs here so the UI thread never blocks on crypto.
 *
 * Secrets (password-derived export keys, the phrase, private keys) stay inside the worker: calls
 * hand back opaque handles and public values. The only exceptions are the explicit reveal calls
 * (`revealPhrase`, `exportPrivateKeys`) that the user asks for on screen, and the airdrop wallet's
 * entropy (`createAirdropWallet`), which goes into the link the owner shares.
 */

import type { FieldName, Operation, SequencedOperation, SealedField, UnsignedOperation } from '../../src/protocol/vaults';

/**
 * Vault keys and sealed fields (DESIGN.md section 3). Key rings stay in the worker, under their
 * vault id, once created or opened; the UI only ever sees sealed or opened values.
 */
export interface VaultCryptoApi {
  /** A new ring with key 0 for `vaultId`, held in the worker; answers it sealed to the active wallet's X25519 key. */
  createVaultKeys(vaultId: string): Promise<{ sealedKeys: string }>;
  /**
   * Opens a ring sealed to the active wallet; throws Error('BAD_VAULT_KEYS'), and
   * Error('KEY_RING_REPLACED') when it disagrees with the held ring on a key both have (the held
   * ring is kept). Its keys open content at once; keys beyond those already trusted seal only
   * after `confirmVaultKeys` (SYNC_SPEC R51).
   */
  openVaultKeys(vaultId: string, sealedKeys: string): Promise<{ keyCount: number }>;
  /**
   * The client's judge of the vault's log found `sealedKeys` (this member's copy of the ring)
   * handed out by an allowed operation with `keyCount` keys: the worker holds that very ring (a
   * refused rotation of its own gives way to it; Error('KEY_RING_REPLACED') as openVaultKeys) and
   * that many of its keys may now seal. Answers how many may, and how many keys it holds.
   */
  confirmVaultKeys(vaultId: string, sealedKeys: string, keyCount: number): Promise<{ trustedCount: number; keyCount: number }>;
  /** Wipes and forgets the vault's ring (the membership ended, SYNC_SPEC R56). */
  forgetVaultKeys(vaultId: string): Promise<void>;
  hasVaultKeys(vaultId: string): Promise<boolean>;
  /**
   * Seals each given field under the newest trusted key of the vault's ring; Error('NO_VAULT_KEYS')
   * without a ring, Error('UNVERIFIED_VAULT_KEYS') while none of its keys is trusted.
   */
  sealFields(vaultId: string, objectId: string, fields: Partial<Record<FieldName, string>>): Promise<Partial<Record<FieldName, SealedField>>>;
  /**
   * Signs with the active wallet: `operationSigningPayload(op)` from src/protocol/vaults.ts.
   * Throws Error('WRONG_AUTHOR') unless `op.author` is the active wallet's public signing key.
   */
  signOperation(op: UnsignedOperation): Promise<Operation>;
  /**
   * Verifies and opens a page of pulled operations of one vault (private: with its ring;
   * public: clear fields pass through). One round trip per page; the answer holds one entry per
   * operation, in the order given, and does not echo the operations back (the caller has them).
   */
  openOperations(vaultId: string, ops: SequencedOperation[]): Promise<OpenedOperation[]>;
  /**
   * A fresh random AES-256-GCM file key for a new file version: returned raw (for the transfer
   * workers, which encrypt and decrypt chunks) and sealed under the vault key as the version's
   * `fileKey` field (object id = versionId).
   */
  createFileKey(vaultId: string, versionId: string): Promise<{ rawKey: ArrayBuffer; sealed: SealedField }>;
  /** Opens a version's sealed file key for downloading; throws Error('BAD_FILE_KEY'). */
  openFileKey(vaultId: string, versionId: string, sealed: SealedField): Promise<ArrayBuffer>;
}

/**
 * Sharing and rotating a held ring (invitations, revocations). Separate from VaultCryptoApi so
 * fakes of the sync layer's crypto port need not implement it.
 */
export interface VaultKeySharingApi {
  /**
   * The held ring sealed to another member's X25519 public key (lower-case hex), for an
   * invitation or after a rotation; throws Error('NO_VAULT_KEYS') when no ring is held.
   */
  sealVaultKeysFor(vaultId: string, publicEncryptionKey: string): Promise<{ sealedKeys: string; keyCount: number }>;
  /**
   * Rotation (a member revoked or leaving): adds a fresh newest key to the held ring, which new
   * content then uses. Reseal with `sealVaultKeysFor` to each remaining member (the caller too).
   */
  rotateVaultKeys(vaultId: string): Promise<{ keyCount: number }>;
  /**
   * A queued operation refused with STALE_VAULT_KEY (a rotation happened after it was sealed):
   * the same operation (same id) with every sealed field, the file version's `fileKey` included,
   * opened with its own key number and sealed again under the ring's newest key, with the same
   * associated-data rules (src/crypto/fieldEnvelope.ts). Unsigned: the caller signs it again.
   * Answers null when every sealed field already uses the newest key (nothing to do); throws
   * Error('NO_VAULT_KEYS') without a ring and Error('BAD_FIELD') when a field does not open.
   */
  resealOperation(vaultId: string, op: UnsignedOperation): Promise<UnsignedOperation | null>;
}

/** Public half of a wallet derived from a recovery phrase (DESIGN.md section 2). */
export interface PublicWallet {
  /** base64url(SHA-256(Ed25519 public key)), 43 characters. */
  address: string;
  /** Ed25519 public key at m/44'/472'/0'/0'/0', lower-case hex. */
  publicSigningKey: string;
  /** X25519 public key from the SLIP-0010 seed at m/44'/472'/0'/0'/1', lower-case hex. */
  publicEncryptionKey: string;
}

/** A wallet persisted for 'Keep me signed in' / tab sharing: entropy sealed under a device key. */
export interface StoredWallet {
  /** Non-extractable AES-GCM key; stored in IndexedDB (structured clone), never serialised. */
  deviceKey: CryptoKey;
  /** base64url(iv || AES-GCM(entropy)). Useless without `deviceKey`. */
  sealed: string;
}

/**
 * Errors are `Error`s whose message is a code (it survives Comlink): INVALID_PHRASE, BAD_BACKUP,
 * USER_NOT_INITIALIZED, BAD_STORED_WALLET as documented below, and
 * - HANDLE_EXPIRED: unknown, already used or expired handle (handles are single-use and live
 *   10 minutes, long enough for a second factor between finishLogin and unlockWallet);
 * - BAD_OPAQUE_MESSAGE: a malformed OPAQUE message from the server;
 * - LOCKED: no active wallet; NO_PENDING_WALLET: no pending wallet;
 * - vault keys: BAD_VAULT_KEYS, NO_VAULT_KEYS, BAD_FILE_KEY, WRONG_AUTHOR (see VaultCryptoApi).
 */
/** A sealed field opened on the device; null when it cannot be opened (wrong key, tampering). */
export type OpenedFields = Partial<Record<FieldName, string | null>>;

/** What the worker found in one pulled operation: whether it verifies, and its fields opened. */
export interface OpenedOperation {
  /** The author's signature over the operation checks out. Unverified operations are not applied. */
  isVerified: boolean;
  /** The operation's sealed (or clear) fields, opened; `version.mimeType` appears as `mimeType`. */
  fields: OpenedFields;
}

export interface CryptoApi extends VaultCryptoApi, VaultKeySharingApi {
  /** Resolves once libsodium and OPAQUE are loaded (every call also waits for them itself). */
  ready(): Promise<void>;

  /** A new 12-word English phrase (128-bit entropy), held as the worker's pending wallet. */
  createPendingWallet(): Promise<{ words: string[]; wallet: PublicWallet }>;
  /**
   * Derives the wallet of a typed phrase (words lower-cased, joined by single spaces) and holds it
   * as the pending wallet. Throws Error('INVALID_PHRASE') for a phrase that fails BIP39 checks.
   */
  loadPendingWallet(words: string[]): Promise<PublicWallet>;
  /** The pending wallet's words, or null (e.g. after a reload on the backup-phrase step). */
  getPendingWords(): Promise<string[] | null>;
  clearPendingWallet(): Promise<void>;

  /**
   * A fresh wallet for an airdrop link (spec 001 section 4), not held by the worker: its public
   * keys, and its 16 bytes of phrase entropy as base64url. The entropy is the one secret that
   * leaves the worker on purpose: the owner hands it to the invitee inside the link.
   */
  createAirdropWallet(): Promise<{ wallet: PublicWallet; entropy: string }>;
  /**
   * Derives the wallet of an airdrop link's `wallet` parameter (base64url of 16 bytes of
   * entropy) and holds it as the pending wallet, for the wallet login's signature. Throws
   * Error('INVALID_PHRASE') for anything else.
   */
  loadPendingWalletFromEntropy(entropy: string): Promise<PublicWallet>;

  // OPAQUE client (serenity-kit). States stay in the worker under a handle.
  startRegistration(password: string): Promise<{ handle: string; registrationRequest: string }>;
  /**
   * Finishes registration and seals the entropy of the `source` wallet (pending for sign-up and
   * recovery, active for a password change) under the export key.
   * Returns the record for the server and `encBackupPhrase`.
   */
  finishRegistration(
    handle: string,
    registrationResponse: string,
    source: 'pending' | 'active',
  ): Promise<{ registrationRecord: string; encBackupPhrase: string }>;
  startLogin(password: string): Promise<{ handle: string; startLoginRequest: string }>;
  /**
   * Finishes the client side of login. Returns null for a wrong password (the server is then not
   * asked). On success the export key stays in the worker under the same handle, for one
   * `unlockWallet` or `revealPhrase` call.
   */
  finishLogin(handle: string, loginResponse: string): Promise<{ finishLoginRequest: string } | null>;
  /**
   * Opens `encBackupPhrase` with the export key held under `handle`, derives the wallet and makes
   * it the active wallet. Throws Error('BAD_BACKUP') when it cannot be opened and
   * Error('USER_NOT_INITIALIZED') when the derived keys do not match `expected`.
   */
  unlockWallet(handle: string, encBackupPhrase: string, expected: PublicWallet): Promise<PublicWallet>;
  /** Opens `encBackupPhrase` with the export key under `handle` and returns the words. */
  revealPhrase(handle: string, encBackupPhrase: string): Promise<string[]>;
  /** Makes the pending wallet the active one (after sign-up or recovery). */
  activatePendingWallet(): Promise<PublicWallet>;

  /** Seals the active wallet for storage on this device. */
  storeWallet(): Promise<StoredWallet>;
  /** Restores the active wallet from storage; throws Error('BAD_STORED_WALLET'). */
  restoreWallet(stored: StoredWallet): Promise<PublicWallet>;
  /** Active wallet's public half, or null when locked. */
  getWallet(): Promise<PublicWallet | null>;
  /**
   * Active wallet's private keys (lower-case hex, 32 bytes each), for the profile's private key
   * display: the Ed25519 private key (RFC 8032 seed) and the X25519 private key.
   */
  exportPrivateKeys(): Promise<{ signingKey: string; encryptionKey: string }>;
  /** Forgets the active and pending wallets and every handle. */
  lock(): Promise<void>;
  /**
   * 'Restore a vault from the network' (SYNC_SPEC R96): judges the history items the app read
   * (R86) with the active wallet's keys, here since opening the ring needs the private key, and
   * answers what the import and the uploads need. A RestoreError comes back as
   * Error(`RESTORE:{code}:{message}`) (codes of src/network/restoreReader.ts).
   */
  planRestore(vaultId: string, items: RestoreHistoryItem[], label: string): Promise<RestorePlan>;

  /**
   * Ed25519 signature (base64url) by the active wallet — or the pending one when
   * `usePending` — over `canonicalJson(payload)` from src/protocol/canonical.ts.
   */
  signPayload(payload: unknown, usePending?: boolean): Promise<string>;
}

/** A history item the app read through its server (R96), handed to the worker to judge. */
export interface RestoreHistoryItem {
  id: string;
  owner: string;
  /** Its block height, null while pending (R98: the run posted first is preferred). */
  height: number | null;
  seqFrom: number;
  seqTo: number;
  /** At most R84's 2 MiB (the app reads no more). */
  data: Uint8Array;
}

/** What a judged history asks of the restore: the operations to import and the bytes to upload. */
export interface RestorePlan {
  vaultId: string;
  headSeq: number;
  /** Where the verified chain ends (R98): its seq, when that operation was received, items passed over. */
  end: { seq: number; receivedAt: number; passedOver: number };
  /** R98's line on it, shown with the restore's result. */
  endNotice: string;
  /** The vault's opened name ('' when the reader's ring does not open it). */
  name: string;
  isPublic: boolean;
  /** Every accepted operation, seq 1 to headSeq, as signed (R84's entries). */
  ops: SequencedOperation[];
  /** Every version of every file (hidden and deleted files' too), in log order. */
  versions: {
    fileId: string;
    fileName: string;
    versionId: string;
    blobId: string;
    size: number;
    storedSize: number;
    chunkSize: number;
    chunkCount: number;
    chunkHashes: string[];
    isEncrypted: boolean;
  }[];
  counts: { folders: number; files: number; memos: number };
}
