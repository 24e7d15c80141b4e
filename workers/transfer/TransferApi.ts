/**
 * The transfer workers' contract: reading, encrypting, hashing and sending file chunks, and
 * fetching, verifying and decrypting them, off the UI thread. Several transfer workers run at
 * once (a pool: `createTransferPool` in src/platform/transferClient.ts) so chunks encrypt and travel in parallel, and no
 * whole file is ever held in memory: each call handles one chunk of at most CHUNK_SIZE bytes.
 *
 * Chunk format (src/crypto/fileChunks.ts): AES-256-GCM under the version's file key, nonce =
 * uint64 big-endian chunk index || uint32 big-endian last-chunk flag, associated data = the
 * version header (format version, chunk size, plaintext size, chunk count). Public vaults store
 * the clear bytes (`rawKey` null). Every stored chunk's SHA-256 is its receipt.
 */
export interface ChunkHeader {
  size: number;
  chunkSize: number;
  chunkCount: number;
}

export interface SealChunkRequest {
  file: Blob;
  index: number;
  header: ChunkHeader;
  /** Raw 32-byte file key, or null for a public vault. */
  rawKey: ArrayBuffer | null;
  /** Whose spool folder the sealed chunk waits in (the account id); see clearSpool. */
  spoolScope: string;
  /**
   * The receipt recorded when this chunk was sealed before (a resume): a chunk sealing to any
   * other hash is other plaintext under the same key and nonce, and is dropped in the worker,
   * never spooled or returned (rejects with FILE_CHANGED).
   */
  expectedSha256?: string | null;
  /**
   * Kept in memory, never spooled: a small file's chunk sent with a group of others at once
   * (putChunks), where a file on disk per chunk would cost more than the chunk.
   */
  keepInMemory?: boolean;
}

/** One chunk ready to send: nothing has left the device yet. */
export type HashChunkRequest = Omit<SealChunkRequest, 'spoolScope' | 'expectedSha256'>;

export interface SealedChunk {
  /** The stored bytes (sealed, or clear for a public vault) as a Blob: see putChunk. */
  body: Blob;
  /** The spool file `body` reads from (workers/transfer/chunkSpool.ts), or null for an in-memory Blob. */
  spooled: string | null;
  /** SHA-256 (hex) of the stored bytes: the chunk's upload receipt. */
  sha256: string;
  storedSize: number;
}

export interface PutChunkRequest {
  body: Blob;
  sha256: string;
  /** SealedChunk.spooled: the spool file is removed once the PUT ends, sent or not. */
  spooled?: string | null;
  /** `/api/vaults/{vaultId}/blobs/{blobId}/chunks/{index}` */
  url: string;
}

/** Several small sealed chunks of one vault's uploads, sent in one request. */
export interface PutChunksRequest {
  /** `/api/vaults/{vaultId}/blobs/chunks` */
  url: string;
  chunks: { blobId: string; index: number; sha256: string; body: Blob; spooled?: string | null }[];
}

export interface DownloadChunkRequest {
  index: number;
  header: ChunkHeader;
  rawKey: ArrayBuffer | null;
  url: string;
  /** SHA-256 (hex) the uploader signed for this chunk. */
  expectedSha256: string;
  /**
   * A Cache Storage name (src/sync/offlineFiles.ts): the stored (still encrypted) chunk is read
   * from it when there and kept in it after a fetch, so a file opened once opens offline.
   */
  cacheName?: string;
}

export interface CacheChunkRequest {
  url: string;
  expectedSha256: string;
  cacheName: string;
}

export interface TransferApi {
  /**
   * Reads chunk `index` of `file` and seals it, sending nothing: the caller records the hashes
   * before the bytes leave (DESIGN.md section 3: a key and nonce pair never seals two different
   * plaintexts, so a resumed upload must know what it sealed before). Rejects with
   * Error('FILE_CHANGED') when the file's size no longer matches `header.size` or the slice is
   * short, and Error('FILE_UNREADABLE') when the browser cannot read the file any more (a picked
   * file changed, moved or deleted on disk).
   */
  sealChunk(request: SealChunkRequest): Promise<SealedChunk>;
  /**
   * PUTs a sealed chunk with its `x-chunk-sha256`; the server accepts the same bytes at the same
   * index again, so a retry is harmless. Rejects with Error('UPLOAD_FAILED: <status>') or a
   * network error.
   */
  putChunk(request: PutChunkRequest): Promise<void>;
  /**
   * POSTs several sealed chunks in one body (a manifest line, then their bytes: ChunkBatchManifest
   * in src/protocol/vaults.ts); each is kept as its own PUT would be, so a retry is harmless.
   * Rejects like putChunk; spooled copies are removed once the request ends, sent or not.
   */
  putChunks(request: PutChunksRequest): Promise<void>;
  /**
   * Removes every sealed chunk still waiting in the spool: left by a crash, or sealed ahead of a
   * failure and never sent. Only while no upload is sending (the upload queue's lock).
   */
  clearSpool(scope: string): Promise<void>;
  /** Removes one sealed chunk's spool file (`SealedChunk.spooled`) that will not be sent; quiet when it is gone. */
  dropSpooled(name: string): Promise<void>;
  /**
   * GETs, checks the SHA-256 against `expectedSha256` (Error('CHUNK_TAMPERED') otherwise) and
   * opens the chunk (Error('CHUNK_TAMPERED') when authentication fails). Answers the plaintext,
   * transferred. A non-2xx answer rejects with Error('DOWNLOAD_FAILED: <status>').
   */
  downloadChunk(request: DownloadChunkRequest): Promise<ArrayBuffer>;
  /**
   * Makes sure the stored chunk at `url` is in cache `cacheName` (fetched and checked against
   * `expectedSha256` when missing; nothing is decrypted). Answers its stored size and whether it
   * had to be fetched. Rejects like downloadChunk.
   */
  cacheChunk(request: CacheChunkRequest): Promise<{ size: number; fetched: boolean }>;
  /**
   * SHA-256 (hex) of chunk `index` as sealChunk would store it, keeping nothing: the resume check
   * of DESIGN.md section 3. Sealing is deterministic under the upload's key and nonces, so the
   * hash recorded when a chunk was sent matches only the same plaintext.
   */
  hashChunk(request: HashChunkRequest): Promise<string>;
}
