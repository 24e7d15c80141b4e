/**
 * What every sync module works with: the database, the API, the crypto worker and the transfer
 * pool (all ports, so tests pass an in-memory server and a fake worker), plus the signed-in
 * account. SyncClient builds one per session.
 */
import type { VaultCryptoApi, VaultKeySharingApi } from '../../workers/crypto/CryptoApi';
import type { TransferApi } from '../../workers/transfer/TransferApi';
import type { ApiClient } from '../platform/apiClient';
import type { CairnDb } from '../storage/db';

/** The part of the transfer pool sync uses (src/platform/transferClient.ts createTransferPool). */
/** `cacheChunk` is absent where offline copies are not possible. */
export type TransferPort = Pick<TransferApi, 'sealChunk' | 'putChunk' | 'downloadChunk' | 'hashChunk'> & Partial<Pick<TransferApi, 'cacheChunk' | 'clearSpool' | 'dropSpooled' | 'putChunks'>>;

/** The signed-in user as sync needs it (a subset of AccountUser). */
export interface SyncUser {
  id: string;
  publicSigningKey: string;
  address: string;
}

export interface SyncPorts {
  db: CairnDb;
  api: ApiClient;
  /**
   * Only the vault half of the crypto worker is used. Sharing (members, rotations, resealing) is
   * optional so fakes of the port need not implement it; member actions then fail clearly.
   */
  crypto: VaultCryptoApi & Partial<VaultKeySharingApi>;
  /** Null until the transfer pool exists: uploads and downloads then fail with a clear error. */
  transfer: TransferPort | null;
  /** Defaults to Date.now. */
  now?: () => number;
  /** Defaults to crypto.randomUUID (matches the protocol's Id pattern). */
  newId?: () => string;
  /** Where skipped operations and retried failures are reported; defaults to console.warn. */
  log?: (message: string, detail?: unknown) => void;
}

export interface SyncContext extends Required<Omit<SyncPorts, 'transfer'>> {
  transfer: TransferPort | null;
  accountId: string;
  user: SyncUser;
  /** Asks the client to push (and then pull) soon; set by SyncClient. */
  requestPush: () => void;
  /** Asks the upload queue to look for work; set by SyncClient. */
  requestUploads: () => void;
}

/** A new operation, folder, file, version, blob or upload id: generated once, reused on retries. */
export function defaultNewId(): string {
  return globalThis.crypto.randomUUID();
}

/** The API path of one stored chunk (relative to the API base, as apiClient paths are). */
export function chunkPath(vaultId: string, blobId: string, index: number): string {
  return `/vaults/${encodeURIComponent(vaultId)}/blobs/${encodeURIComponent(blobId)}/chunks/${index}`;
}

/**
 * A map of this session's own bookkeeping by vault id, one per sync context: a new session (a new
 * sign-in, a new crypto worker) starts empty, and the map goes with the context when sync stops.
 */
export function perSessionMap<V>(): (ctx: SyncContext) => Map<string, V> {
  const maps = new WeakMap<SyncContext, Map<string, V>>();
  return (ctx) => {
    let map = maps.get(ctx);
    if (!map) maps.set(ctx, (map = new Map()));
    return map;
  };
}
