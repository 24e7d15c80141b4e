import * as Comlink from 'comlink';
import type { SearchApi } from '../../workers/search/SearchApi';

let remote: Comlink.Remote<SearchApi> | undefined;

/**
 * The app's one search worker (workers/search/search.worker.ts), started on first use and kept:
 * each session loads its own account's index into it (SearchApi.load), so nothing of one account
 * stays for the next.
 */
export function getSearchWorker(): SearchApi {
  if (!remote) {
    const worker = new Worker(new URL('../../workers/search/search.worker.ts', import.meta.url), { type: 'module', name: 'cairn-search' });
    remote = Comlink.wrap<SearchApi>(worker);
  }
  return remote as unknown as SearchApi;
}
