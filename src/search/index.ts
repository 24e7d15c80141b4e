/**
 * Starting and stopping on-device search with the session (like src/sync/index.ts), and the hooks
 * screens use. Search reads only the local index, so it works offline.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { getSearchWorker } from '../platform/searchClient';
import { getDb } from '../storage/db';
import { getCurrentSync } from '../sync/currentSync';
import { downloadFileVersion } from '../sync/downloadFile';
import type { SearchApi, SearchHit, SearchPage } from '../../workers/search/SearchApi';
import { memoDoc } from './searchDocs';
import { SearchIndexer, type SearchIndexerStatus, type VaultDocSource } from './SearchIndexer';

let current: SearchIndexer | null = null;
let apiFactory: () => SearchApi = getSearchWorker;
const sessionListeners = new Set<() => void>();

/** Tests run the indexer in-process. */
export function setSearchApiFactory(factory: () => SearchApi): void {
  apiFactory = factory;
}

/** A note's latest version as text, through the ordinary download path (verified, decrypted). */
async function fetchNoteText(vaultId: string, fileId: string, versionId: string): Promise<string> {
  const sync = getCurrentSync();
  if (!sync?.isStarted) throw new Error('Sync is not started.');
  return (await downloadFileVersion(sync.context, vaultId, fileId, versionId)).text();
}

/** Chat messages of a private vault: written by the projection, so they stamp the vault record. */
export const chatMessages: VaultDocSource = async (db, accountId, vault) => {
  const memos = await db.memos.where('[accountId+vaultId]').equals([accountId, vault.vaultId]).toArray();
  return memos.map((memo) => memoDoc(vault, memo)).filter((doc) => doc !== null);
};

export function startSearch(accountId: string): void {
  if (current) stopSearch();
  current = new SearchIndexer({ db: getDb(), accountId, api: apiFactory(), fetchNoteText, sources: [chatMessages] });
  void current.start().catch(() => undefined);
  for (const listener of sessionListeners) listener();
}

export function stopSearch(): void {
  current?.stop();
  current = null;
  for (const listener of sessionListeners) listener();
}

export function getCurrentSearch(): SearchIndexer | null {
  return current;
}

/** Search runs for as long as the signed-in shell is shown. */
export function useStartSearch(accountId: string | null): void {
  useEffect(() => {
    if (!accountId) return;
    startSearch(accountId);
    return () => stopSearch();
  }, [accountId]);
}

const idleStatus: SearchIndexerStatus = { revision: 0, progress: null, isReady: false };

function useIndexer(): SearchIndexer | null {
  return useSyncExternalStore(
    (listener) => {
      sessionListeners.add(listener);
      return () => sessionListeners.delete(listener);
    },
    () => current,
  );
}

export function useSearchStatus(): SearchIndexerStatus {
  const indexer = useIndexer();
  return useSyncExternalStore(indexer?.subscribe ?? noSubscribe, indexer?.getStatus ?? (() => idleStatus));
}

const noSubscribe = () => () => undefined;

/** One page of results for `term`; null while the first answer is awaited. */
export function useSearchResults(term: string, offset: number, limit: number): SearchPage | null {
  const indexer = useIndexer();
  const { revision, isReady } = useSearchStatus();
  const [page, setPage] = useState<{ key: string; page: SearchPage } | null>(null);
  const key = `${term}\u0000${offset}\u0000${limit}`;
  useEffect(() => {
    if (!indexer || !isReady) return;
    let isCurrent = true;
    void indexer.api.search(term, offset, limit).then((result) => {
      if (isCurrent) setPage({ key, page: result });
    });
    return () => {
      isCurrent = false;
    };
  }, [indexer, isReady, revision, term, offset, limit, key]);
  return page?.key === key ? page.page : page?.page ?? null;
}

/** Autocomplete suggestions for `term` (from 1 character). */
export function useSuggestions(term: string, limit = 8): SearchHit[] {
  const indexer = useIndexer();
  const { revision, isReady } = useSearchStatus();
  const [hits, setHits] = useState<SearchHit[]>([]);
  useEffect(() => {
    const trimmed = term.trim();
    if (!indexer || !isReady || !trimmed) {
      setHits([]);
      return;
    }
    let isCurrent = true;
    void indexer.api.suggest(trimmed, limit).then((result) => {
      if (isCurrent) setHits(result);
    });
    return () => {
      isCurrent = false;
    };
  }, [indexer, isReady, revision, term, limit]);
  return hits;
}
