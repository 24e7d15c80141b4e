import type { SearchDoc, SearchHit, SearchPage, SearchSnapshot } from './searchIndex';

export type { SearchDoc, SearchDocType, SearchHit, SearchPage, SearchSnapshot } from './searchIndex';

/** One batch of index changes: documents to add or replace, ids to drop. */
export interface SearchChanges {
  put: SearchDoc[];
  remove: string[];
}

/** What the search worker (workers/search/search.worker.ts) offers the page, through Comlink. */
export interface SearchApi {
  /** Starts from a saved snapshot, or empty with null. */
  load(snapshot: SearchSnapshot | null): Promise<void>;
  apply(changes: SearchChanges): Promise<void>;
  /** The indexed documents of one vault (without text), for diffing a changed vault. */
  docsOfVault(vaultId: string): Promise<SearchHit[]>;
  getDoc(id: string): Promise<SearchHit | undefined>;
  search(term: string, offset: number, limit: number): Promise<SearchPage>;
  suggest(term: string, limit: number): Promise<SearchHit[]>;
  exportSnapshot(): Promise<SearchSnapshot>;
}
