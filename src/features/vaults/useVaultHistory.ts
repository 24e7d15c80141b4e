import { useCallback, useEffect, useState } from 'react';
import { FINAL_STORAGE_TX_STATUSES, type VaultHistoryItem, VaultHistoryPage } from '../../protocol/arweave';
import { getApiClient } from '../../platform/apiClient';

/** How often an open view asks again while a run is on its way (statuses are not pushed). */
const REFRESH_MS = 5_000;

export interface VaultHistoryState {
  /** Runs in seq order, the pages loaded so far; null until the first answer. */
  items: VaultHistoryItem[] | null;
  /** Operations after the last run wait for one (R84: a burst settles into one item). */
  isWaiting: boolean;
  hasMore: boolean;
  /** The last request failed (offline, or no longer a member). */
  hasFailed: boolean;
  loadMore: () => void;
}

function isSettled(page: VaultHistoryPage, items: VaultHistoryItem[]): boolean {
  return page.historySeq >= page.headSeq && items.every((item) => FINAL_STORAGE_TX_STATUSES.includes(item.status));
}

/**
 * A permanent vault's history runs on the network (GET /vaults/{id}/history-items, SYNC_SPEC
 * R84), read from the server while the view is open: the first page, then every REFRESH_MS until
 * every run is final and no operation waits for one. `isActive` false fetches nothing (a cloud
 * vault, a closed drawer).
 */
export function useVaultHistory(vaultId: string, isActive: boolean): VaultHistoryState {
  const [pages, setPages] = useState<VaultHistoryPage[]>([]);
  const [hasFailed, setFailed] = useState(false);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    setPages([]);
  }, [vaultId]);

  useEffect(() => {
    if (!isActive) return;
    let isCurrent = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    getApiClient()
      .get(`/vaults/${encodeURIComponent(vaultId)}/history-items`, VaultHistoryPage)
      .then(
        (first) => {
          if (!isCurrent) return;
          setFailed(false);
          // The first page is asked again; pages loaded after it are kept until asked again.
          setPages((current) => [first, ...current.slice(1)]);
          if (!isSettled(first, first.items)) timer = setTimeout(() => setTick((n) => n + 1), REFRESH_MS);
        },
        () => {
          if (!isCurrent) return;
          setFailed(true);
          timer = setTimeout(() => setTick((n) => n + 1), REFRESH_MS);
        },
      );
    return () => {
      isCurrent = false;
      if (timer) clearTimeout(timer);
    };
  }, [vaultId, isActive, tick]);

  const last = pages.at(-1);
  const loadMore = useCallback(() => {
    if (!last || last.nextAfter === null) return;
    getApiClient()
      .get(`/vaults/${encodeURIComponent(vaultId)}/history-items?after=${last.nextAfter}`, VaultHistoryPage)
      .then(
        (page) => setPages((current) => (current.at(-1) === last ? [...current, page] : current)),
        () => setFailed(true),
      );
  }, [last, vaultId]);

  const first = pages[0];
  return {
    items: first ? pages.flatMap((page) => page.items) : null,
    isWaiting: first ? first.historySeq < first.headSeq : false,
    hasMore: last?.nextAfter != null,
    hasFailed,
    loadMore,
  };
}
