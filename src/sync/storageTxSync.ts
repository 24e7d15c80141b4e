/**
 * Keeps the device's storage transactions in step with the server (docs/SYNC_SPEC.md R38-R39):
 * the first page is loaded on start and whenever the realtime socket (re)opens, older pages on
 * 'Load more transactions...', and a `storageTransaction` socket message upserts one. Every merge
 * goes through mergeStorageTransactions (newer updatedAt wins). A transaction that turns REJECTED
 * in the cache raises `onRejected` once; any change tells listeners (the storage page refreshes
 * its figures about 2.5 s later, spec 000 section 9).
 */
import { useSyncExternalStore } from 'react';
import { type ApiClient, NetworkError } from '../platform/apiClient';
import { ArweaveConfig, type StorageTransaction, StorageTransactionPage } from '../protocol/arweave';
import { StorageResponse } from '../protocol/vaults';
import type { CairnDb } from '../storage/db';
import { mergeStorageTransactions, saveStorageUsage, type StorageTxChange } from '../storage/storageTxStore';

/** Spec 000 section 9: storage transactions 20 a page. */
export const STORAGE_TX_PAGE = 20;

export interface StorageTxSyncOptions {
  onRejected?: (transaction: StorageTransaction) => void;
  now?: () => number;
  log?: (message: string, detail?: unknown) => void;
}

export class StorageTxSync {
  private stopped = false;
  /** The server's token for the page after those loaded; null: everything is loaded. */
  private nextToken: string | null = null;
  private loadedFirst = false;
  private loadingMore: Promise<void> | null = null;

  constructor(
    private readonly db: CairnDb,
    private readonly api: ApiClient,
    private readonly accountId: string,
    private readonly options: StorageTxSyncOptions = {},
  ) {}

  stop(): void {
    this.stopped = true;
  }

  get hasMore(): boolean {
    return !this.loadedFirst || this.nextToken !== null;
  }

  /** Loads the newest page (news since the last look). Never throws. */
  async refresh(): Promise<void> {
    try {
      const page = await this.api.get(`/storage/transactions?limit=${STORAGE_TX_PAGE}`, StorageTransactionPage);
      if (this.stopped) return;
      // Only the first load sets the token; later refreshes bring news, the older pages stay.
      if (!this.loadedFirst) this.nextToken = page.nextToken;
      this.loadedFirst = true;
      await this.apply(page.items);
    } catch (error) {
      if (!(error instanceof NetworkError)) this.log('The storage transactions could not be loaded', error);
    } finally {
      if (!this.stopped) setLoadAttempted(true);
      emit();
    }
  }

  /** The next older page. Resolves false when offline or nothing is left. */
  async loadMore(): Promise<boolean> {
    if (!this.loadedFirst) {
      await this.refresh();
      return this.loadedFirst;
    }
    if (this.nextToken === null) return false;
    this.loadingMore ??= (async () => {
      try {
        const token = this.nextToken!;
        const page = await this.api.get(`/storage/transactions?limit=${STORAGE_TX_PAGE}&nextToken=${encodeURIComponent(token)}`, StorageTransactionPage);
        if (this.stopped) return;
        this.nextToken = page.nextToken;
        await this.apply(page.items);
      } catch (error) {
        if (!(error instanceof NetworkError)) this.log('More storage transactions could not be loaded', error);
      } finally {
        this.loadingMore = null;
        emit();
      }
    })();
    await this.loadingMore;
    return true;
  }

  /** A `storageTransaction` message from the socket. */
  async receive(transaction: StorageTransaction): Promise<void> {
    if (!this.stopped) await this.apply([transaction]);
  }

  /** GET /storage into the cache; false when it could not be fetched (offline). */
  async refreshUsage(): Promise<boolean> {
    try {
      const usage = await this.api.get('/storage', StorageResponse);
      if (this.stopped) return false;
      await saveStorageUsage(this.db, this.accountId, usage, (this.options.now ?? Date.now)());
      return true;
    } catch (error) {
      if (!(error instanceof NetworkError)) this.log('The storage figures could not be loaded', error);
      return false;
    }
  }

  private async apply(items: readonly StorageTransaction[]): Promise<StorageTxChange[]> {
    const changes = await mergeStorageTransactions(this.db, this.accountId, items);
    if (this.stopped) return changes;
    for (const change of changes) {
      if (change.transaction.status === 'REJECTED' && change.previousStatus !== null && change.previousStatus !== 'REJECTED') {
        (this.options.onRejected ?? announceRejected)(change.transaction);
      }
    }
    if (changes.length) for (const listener of changeListeners) listener(changes);
    return changes;
  }

  private log(message: string, detail?: unknown): void {
    (this.options.log ?? ((m, d) => console.warn(m, d ?? '')))(message, detail);
  }
}

let current: StorageTxSync | null = null;
let loadAttempted = false;
const stateListeners = new Set<() => void>();
const changeListeners = new Set<(changes: StorageTxChange[]) => void>();
let stateVersion = 0;

function emit(): void {
  stateVersion += 1;
  for (const listener of stateListeners) listener();
}

function setLoadAttempted(value: boolean): void {
  if (loadAttempted === value) return;
  loadAttempted = value;
  emit();
}

export function setCurrentStorageTxSync(sync: StorageTxSync | null): void {
  current?.stop();
  current = sync;
  loadAttempted = false;
  emit();
}

export function currentStorageTxSync(): StorageTxSync | null {
  return current;
}

const rejectedListeners = new Set<(transaction: StorageTransaction) => void>();

function announceRejected(transaction: StorageTransaction): void {
  for (const listener of rejectedListeners) listener(transaction);
}

/** A transaction turned REJECTED (the app shell shows 'A file failed to upload to the blockchain.'). */
export function onStorageTxRejected(listener: (transaction: StorageTransaction) => void): () => void {
  rejectedListeners.add(listener);
  return () => rejectedListeners.delete(listener);
}

/** Called with what changed whenever a merge wrote something (the storage page's delayed refresh). */
export function onStorageTxChange(listener: (changes: StorageTxChange[]) => void): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** Whether the first load was tried (an empty cache means "none" only then), whether more pages exist, and the session's sync. */
export function useStorageTxState(): { loadAttempted: boolean; hasMore: boolean; sync: StorageTxSync | null } {
  useSyncExternalStore(
    (listener) => {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    () => stateVersion,
    () => stateVersion,
  );
  return { loadAttempted, hasMore: current?.hasMore ?? false, sync: current };
}

/** Gateway and viewer hosts (GET /config/arweave), fetched once per page load. */
let config: ArweaveConfig | null = null;
let configLoading: Promise<void> | null = null;
const configListeners = new Set<() => void>();

export function loadArweaveConfig(api: ApiClient): Promise<void> {
  configLoading ??= api
    .get('/config/arweave', ArweaveConfig)
    .then((value) => {
      config = value;
      for (const listener of configListeners) listener();
    })
    .catch(() => {
      configLoading = null;
    });
  return configLoading;
}

export function useArweaveConfig(): ArweaveConfig | null {
  return useSyncExternalStore(
    (listener) => {
      configListeners.add(listener);
      return () => configListeners.delete(listener);
    },
    () => config,
    () => config,
  );
}
