import type { SearchApi } from './SearchApi';
import { SearchIndex } from './searchIndex';

/** The search worker's API over one in-memory SearchIndex (tests call it directly, no worker). */
export function createSearchApi(): SearchApi {
  let index = SearchIndex.create();
  return {
    async load(snapshot) {
      index = snapshot ? SearchIndex.fromSnapshot(snapshot) : SearchIndex.create();
    },
    async apply({ put, remove }) {
      for (const id of remove) index.remove(id);
      for (const doc of put) index.put(doc);
    },
    async docsOfVault(vaultId) {
      return index.docsOfVault(vaultId);
    },
    async getDoc(id) {
      return index.get(id);
    },
    async search(term, offset, limit) {
      return index.search(term, offset, limit);
    },
    async suggest(term, limit) {
      return index.suggest(term, limit);
    },
    async exportSnapshot() {
      return index.exportSnapshot();
    },
  };
}
