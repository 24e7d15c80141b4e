import { useSyncExternalStore } from 'react';
import { ServerConfig } from '../protocol/auth';
import { type ApiClient, getApiClient } from '../platform/apiClient';

/** Spec: the client reads the server's flags at start and every 60 s. */
export const CONFIG_POLL_MS = 60_000;
/** Route guards wait at most this long for the first answer (then assume no maintenance). */
export const FIRST_CONFIG_WAIT_MS = 3_000;

export interface ServerConfigSnapshot {
  /** null until the first answer; kept when a later poll fails. */
  config: ServerConfig | null;
  /** The first poll has finished, with or without an answer. */
  isLoaded: boolean;
}

export interface ServerConfigStore {
  getSnapshot(): ServerConfigSnapshot;
  subscribe(listener: () => void): () => void;
  /** Starts polling; idempotent. */
  start(): void;
  /** Polls now (e.g. from the maintenance page's retry). */
  refresh(): Promise<void>;
  /** The snapshot after the first poll, or after `timeoutMs` if the server is slow. */
  whenLoaded(timeoutMs?: number): Promise<ServerConfigSnapshot>;
}

export function createServerConfigStore(api: ApiClient, pollMs = CONFIG_POLL_MS): ServerConfigStore {
  let snapshot: ServerConfigSnapshot = { config: null, isLoaded: false };
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let first: Promise<void> | undefined;

  function set(next: ServerConfigSnapshot): void {
    const same =
      next.isLoaded === snapshot.isLoaded && JSON.stringify(next.config) === JSON.stringify(snapshot.config);
    if (same) return;
    snapshot = next;
    for (const listener of listeners) listener();
  }

  async function refresh(): Promise<void> {
    try {
      set({ config: await api.get('/config', ServerConfig), isLoaded: true });
    } catch {
      // Offline or a failing server: keep the last known flags.
      set({ ...snapshot, isLoaded: true });
    }
  }

  function start(): void {
    if (timer !== undefined) return;
    first = refresh();
    timer = setInterval(() => void refresh(), pollMs);
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start,
    refresh,
    async whenLoaded(timeoutMs = FIRST_CONFIG_WAIT_MS) {
      start();
      await Promise.race([first, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
      return snapshot;
    },
  };
}

export const serverConfigStore = createServerConfigStore(getApiClient());

export interface ServerFlags {
  config: ServerConfig | null;
  isLoaded: boolean;
  isMaintenance: boolean;
  /** New vault buttons and other writes are disabled. */
  isReadOnly: boolean;
  /** Shows the serious-issue notice bar. */
  hasSeriousIssue: boolean;
  sunsetBannerUrl: string | null;
}

/** The server's flags, polled every 60 s. */
export function useServerConfig(): ServerFlags {
  const { config, isLoaded } = useSyncExternalStore(serverConfigStore.subscribe, serverConfigStore.getSnapshot);
  return {
    config,
    isLoaded,
    isMaintenance: config?.maintenance ?? false,
    isReadOnly: config?.readOnly ?? false,
    hasSeriousIssue: config?.seriousIssue ?? false,
    sunsetBannerUrl: config?.sunsetBannerUrl ?? null,
  };
}
