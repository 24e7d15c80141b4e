/**
 * The `listKey` of a node record: its place in a folder listing as an IndexedDB index can order
 * it (folders first, then names in nearly the collator's order; see `approximateNameKey`). The
 * index `[accountId+vaultId+parentKey+status+listKey]` lets a screen read a folder's first rows
 * without reading the whole folder. The exact order is still `nodeComparator`'s: a listing read
 * through this index is re-sorted with it (nearly linear on input already in this order).
 *
 * The key is derived here on every write, so no caller sets or forgets it. Changing its format
 * needs a schema version whose upgrade recomputes it for stored records.
 */
import type { DBCore, DBCoreMutateRequest, Middleware } from 'dexie';
import { approximateNameKey } from '../domain/nodeSort';
import type { NodeRecord } from './vaultRecords';

export function nodeListKey(node: Pick<NodeRecord, 'kind' | 'name'>): string {
  return `${node.kind === 'folder' ? '0' : '1'}${approximateNameKey(typeof node.name === 'string' ? node.name : '')}`;
}

function withListKey<T extends Pick<NodeRecord, 'kind' | 'name'>>(node: T): T {
  return { ...node, listKey: nodeListKey(node) };
}

/**
 * Sets `listKey` on every node that is added or put. Its level (10) puts it above Dexie's own
 * middlewares, so live queries see the key among the changed index keys.
 */
export const NODE_LIST_KEY_MIDDLEWARE: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'nodeListKey',
  level: 10,
  create: (down) => ({
    ...down,
    table: (name) => {
      const table = down.table(name);
      if (name !== 'nodes') return table;
      return {
        ...table,
        mutate: (req: DBCoreMutateRequest) =>
          req.type === 'add' || req.type === 'put' ? table.mutate({ ...req, values: req.values.map(withListKey) }) : table.mutate(req),
      };
    },
  }),
};
