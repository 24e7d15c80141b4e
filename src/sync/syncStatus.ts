/**
 * The sync status the chrome shows: 'offline' (the browser says so, or the last cycle could not
 * reach the server), 'syncing' (a push/pull
 * cycle is running), 'error' (cycles keep failing), else 'idle'. A tiny external store so
 * React reads it with useSyncExternalStore and SyncClient writes it without React.
 */
import { useSyncExternalStore } from 'react';

export type SyncStatus = 'offline' | 'syncing' | 'idle' | 'error';

interface Flags {
  isActive: boolean;
  hasError: boolean;
  /**
   * The vault list has been fetched at least once since sync started for this account. Until
   * then an empty local list means "not known yet", not "no vaults".
   */
  hasSynced: boolean;
  /** False while the last sync cycle failed to reach the server at all (no answer). */
  isReachable: boolean;
  /** The realtime socket is open (pokes arrive). */
  isRealtimeOpen: boolean;
}

export function createSyncStatusStore(isOnline: () => boolean = () => typeof navigator === 'undefined' || navigator.onLine !== false) {
  let flags: Flags = { isActive: false, hasError: false, hasSynced: false, isReachable: true, isRealtimeOpen: false };
  let snapshot: SyncStatus = 'idle';
  const listeners = new Set<() => void>();
  const compute = (): SyncStatus =>
    !isOnline() || (!flags.isReachable && !flags.isActive) ? 'offline' : flags.isActive ? 'syncing' : flags.hasError ? 'error' : 'idle';
  return {
    /** Merges flags; `set({})` just re-reads navigator.onLine. */
    set(change: Partial<Flags>): void {
      const before = flags;
      flags = { ...flags, ...change };
      const next = compute();
      if (next === snapshot && before.hasSynced === flags.hasSynced && before.isRealtimeOpen === flags.isRealtimeOpen) return;
      snapshot = next;
      for (const listener of listeners) listener();
    },
    get: (): SyncStatus => snapshot,
    hasSynced: (): boolean => flags.hasSynced,
    isRealtimeOpen: (): boolean => flags.isRealtimeOpen,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

let defaultStore: ReturnType<typeof createSyncStatusStore> | undefined;

export function getDefaultStore(): ReturnType<typeof createSyncStatusStore> {
  defaultStore ??= createSyncStatusStore();
  return defaultStore;
}

/**
 * Calls `listener` each time a sync cycle ends with the server reached (the status turns 'idle').
 * The browser's 'online' event alone
 * is not enough to learn the connection is back: it comes before the server can be reached, or
 * never (the server was down, not the network).
 */
export function onServerAnswering(listener: () => void, store: ReturnType<typeof createSyncStatusStore> = getDefaultStore()): () => void {
  return store.subscribe(() => {
    if (store.get() === 'idle') listener();
  });
}

/** The app's sync status for the chrome (offline badge, spinner, error dot). */
export function useSyncStatus(): SyncStatus {
  const store = getDefaultStore();
  return useSyncExternalStore(store.subscribe, store.get, () => 'idle');
}

/** True once the first sync cycle of the signed-in account fetched the vault list. */
export function useHasSynced(): boolean {
  const store = getDefaultStore();
  return useSyncExternalStore(store.subscribe, store.hasSynced, () => false);
}

/** True while the realtime socket is open. */
export function useRealtimeOpen(): boolean {
  const store = getDefaultStore();
  return useSyncExternalStore(store.subscribe, store.isRealtimeOpen, () => false);
}
