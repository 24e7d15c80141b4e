/**
 * Offline files (docs/SYNC_SPEC.md R15). Stored chunks, still encrypted, are kept in one Cache
 * Storage cache per account: every chunk a download or preview fetched, and every chunk of the
 * vaults marked 'Available offline'. Opening a file offline reads them back, checks each against
 * the hash its uploader signed and decrypts it on the device, as online. Log out deletes the
 * account's cache with the rest of its local data.
 *
 * The cache is the source of truth for what is kept: sizes come from its entries, and the vault a
 * chunk belongs to from its URL (`/api/vaults/{vaultId}/blobs/{blobId}/chunks/{index}`).
 */
import { useSyncExternalStore } from 'react';
import { chunkCacheName } from '../storage/chunkCache';
import { requireSync } from './currentSync';
import type { SyncContext } from './SyncContext';
import { chunkPath } from './SyncContext';
import { API_BASE } from './uploadQueue';

const CONCURRENCY = 4;


function cacheStorage(): CacheStorage | null {
  return typeof caches === 'undefined' ? null : caches;
}

const CHUNK_URL = /\/api\/vaults\/([^/]+)\/blobs\/[^/]+\/chunks\/\d+$/;

export interface OfflineUsage {
  totalBytes: number;
  byVault: Map<string, number>;
}

/** What the account's offline cache holds, in stored bytes, in all and by vault. */
export async function offlineUsage(accountId: string, storage = cacheStorage()): Promise<OfflineUsage> {
  const usage: OfflineUsage = { totalBytes: 0, byVault: new Map() };
  if (!storage || !(await storage.has(chunkCacheName(accountId)))) return usage;
  const cache = await storage.open(chunkCacheName(accountId));
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    const size = Number(response?.headers.get('content-length') ?? 0);
    const vaultId = decodeURIComponent(CHUNK_URL.exec(new URL(request.url).pathname)?.[1] ?? '');
    usage.totalBytes += size;
    if (vaultId) usage.byVault.set(vaultId, (usage.byVault.get(vaultId) ?? 0) + size);
  }
  return usage;
}

/** Deletes the account's offline copies: all of them, or one vault's. */
export async function clearOfflineFiles(accountId: string, vaultId?: string, storage = cacheStorage()): Promise<void> {
  for (const key of [...complete.keys()]) if (key === `${accountId}/${vaultId}` || (!vaultId && key.startsWith(`${accountId}/`))) complete.delete(key);
  if (!storage) return;
  if (!vaultId) {
    await storage.delete(chunkCacheName(accountId));
  } else if (await storage.has(chunkCacheName(accountId))) {
    const cache = await storage.open(chunkCacheName(accountId));
    for (const request of await cache.keys()) {
      if (decodeURIComponent(CHUNK_URL.exec(new URL(request.url).pathname)?.[1] ?? '') === vaultId) await cache.delete(request);
    }
  }
  notify();
}

// --- progress, for the vault menu and the settings page ------------------------------------------

export interface OfflineProgress {
  vaultId: string;
  doneChunks: number;
  totalChunks: number;
  fetchedBytes: number;
  error: string | null;
}

let progress: ReadonlyMap<string, OfflineProgress> = new Map();
let version = 0;
const listeners = new Set<() => void>();
function notify(): void {
  version += 1;
  for (const listener of listeners) listener();
}
function setProgress(next: OfflineProgress | null, vaultId: string): void {
  const copy = new Map(progress);
  if (next) copy.set(vaultId, next);
  else copy.delete(vaultId);
  progress = copy;
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The vaults being made available offline now, by id. */
export function useOfflineProgress(): ReadonlyMap<string, OfflineProgress> {
  return useSyncExternalStore(subscribe, () => progress);
}

/** Changes whenever the offline cache may have changed (a refresh key for usage figures). */
export function useOfflineCacheVersion(): number {
  return useSyncExternalStore(subscribe, () => version);
}

// --- keeping vaults offline ---------------------------------------------------------------------

/** The signed-in session's setVaultAvailableOffline (vault menu, settings). */
export function makeVaultAvailableOffline(vaultId: string, keep: boolean): Promise<void> {
  const { ctx } = requireSync();
  return setVaultAvailableOffline(ctx, vaultId, keep);
}

/** Marks vault `vaultId` to be kept offline (and fetches it now), or stops keeping it (and drops its copies). */
export async function setVaultAvailableOffline(ctx: SyncContext, vaultId: string, keep: boolean): Promise<void> {
  await ctx.db.vaults.update([ctx.accountId, vaultId], { keepOffline: keep });
  if (keep) await refreshOfflineVault(ctx, vaultId);
  else await clearOfflineFiles(ctx.accountId, vaultId);
}

const running = new Map<string, Promise<void>>();
/** Versions whose every chunk is known to be cached, by account/vault: later runs skip them. */
const complete = new Map<string, Set<string>>();

/**
 * Fetches into the cache every chunk of the latest version of every active file in vault
 * `vaultId` that is not there yet. One run per vault at a time; a failed chunk is reported in the
 * progress and retried by the next run (after the next sync).
 */
export function refreshOfflineVault(ctx: SyncContext, vaultId: string): Promise<void> {
  const key = `${ctx.accountId}/${vaultId}`;
  const existing = running.get(key);
  if (existing) return existing;
  const run = fetchVault(ctx, vaultId, key).finally(() => running.delete(key));
  running.set(key, run);
  return run;
}

/** Runs refreshOfflineVault for every vault marked 'Available offline' (after each sync). */
export async function refreshOfflineVaults(ctx: SyncContext): Promise<void> {
  const vaults = await ctx.db.vaults.where('accountId').equals(ctx.accountId).toArray();
  for (const vault of vaults) {
    if (!vault.keepOffline || vault.status === 'DELETED') continue;
    // A failure is in the vault's progress; the next sync tries again.
    await refreshOfflineVault(ctx, vault.vaultId).catch(() => undefined);
  }
}

async function fetchVault(ctx: SyncContext, vaultId: string, key: string): Promise<void> {
  const transfer = ctx.transfer;
  if (!transfer?.cacheChunk || !cacheStorage()) throw new Error('This browser cannot keep files offline.');
  const cacheChunk = transfer.cacheChunk.bind(transfer);
  const { db, accountId } = ctx;
  const nodes = await db.nodes.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray();
  const latest = nodes.filter((n) => n.kind === 'file' && n.status === 'ACTIVE' && n.latestVersionId).map((n) => n.latestVersionId!);
  const done = complete.get(key) ?? new Set<string>();
  complete.set(key, done);
  const todo = latest.filter((id) => !done.has(id));
  const versions = (await db.versions.bulkGet(todo.map((id) => [accountId, id] as [string, string]))).filter((v) => v !== undefined);
  const chunks = versions.flatMap((v) =>
    v.chunkHashes.map((sha256, index) => ({ versionId: v.versionId, url: API_BASE + chunkPath(vaultId, v.blobId, index), sha256 })),
  );
  const failedVersions = new Set<string>();
  const state: OfflineProgress = { vaultId, doneChunks: 0, totalChunks: chunks.length, fetchedBytes: 0, error: null };
  setProgress({ ...state }, vaultId);
  const queue = [...chunks];
  let failure: unknown = null;
  const worker = async () => {
    for (let chunk = queue.shift(); chunk; chunk = queue.shift()) {
      try {
        const result = await cacheChunk({ url: chunk.url, expectedSha256: chunk.sha256, cacheName: chunkCacheName(accountId) });
        if (result.fetched) state.fetchedBytes += result.size;
      } catch (error) {
        failure ??= error;
        failedVersions.add(chunk.versionId);
      }
      state.doneChunks += 1;
      setProgress({ ...state }, vaultId);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, chunks.length) }, worker));
  for (const version of versions) if (!failedVersions.has(version.versionId)) done.add(version.versionId);
  if (failure) {
    ctx.log(`Some files of vault ${vaultId} could not be kept offline`, failure);
    const message = 'Some files could not be made available offline. Cairn tries again after the next sync.';
    setProgress({ ...state, error: message }, vaultId);
    throw new Error(message, { cause: failure });
  }
  setProgress(null, vaultId);
}
