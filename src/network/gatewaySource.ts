/**
 * A gateway as the reader's source of items (docs/SYNC_SPEC.md R86): its GraphQL
 * (`POST {gateway}/graphql`, every page of `transactions(tags: …)`) finds the items, and
 * `GET {gateway}/{id}` reads one's data. Nothing a gateway answers is believed beyond the bytes:
 * the reader checks them against the signed operations.
 */
import { z } from 'zod';
import { HISTORY_RUN_MAX_BYTES as RUN_MAX_BYTES, ITEMS_GRAPHQL_QUERY, itemTagFilter } from '../protocol/vaultHistory';
import { decimalTag, readAtMost } from './historyFormat';
import { RestoreError, type FileItem, type HistoryItem, type VaultItemSource } from './restoreReader';

const PAGE_SIZE = 100;

const GraphQlPage = z.object({
  data: z.object({
    transactions: z.object({
      pageInfo: z.object({ hasNextPage: z.boolean() }),
      edges: z.array(
        z.object({
          cursor: z.string(),
          node: z.object({
            id: z.string(),
            owner: z.object({ address: z.string() }),
            tags: z.array(z.object({ name: z.string(), value: z.string() })),
            data: z.object({ size: z.union([z.string(), z.number()]) }).nullish(),
            block: z.object({ height: z.number().int().nonnegative() }).nullish(),
          }),
        }),
      ),
    }),
  }),
});
type GraphQlNode = z.infer<typeof GraphQlPage>['data']['transactions']['edges'][number]['node'];

/** The data size the gateway lists for an item; NaN when it does not say. */
function itemSize(node: GraphQlNode): number {
  return node.data?.size !== undefined ? Number(node.data.size) : NaN;
}

export function gatewaySource(gateway: string, fetchImpl: typeof fetch = fetch): VaultItemSource {
  const base = gateway.replace(/\/+$/, '');
  const label = `the gateway ${base}`;

  async function request(url: string, init?: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await fetchImpl(url, init);
    } catch (error) {
      throw new RestoreError('UNREACHABLE', `Could not reach ${label}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}.`);
    }
    return response;
  }

  async function* query(tags: { name: string; values: string[] }[]): AsyncGenerator<GraphQlNode> {
    let after: string | null = null;
    for (;;) {
      const response = await request(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: ITEMS_GRAPHQL_QUERY, variables: { tags, first: PAGE_SIZE, after } }),
      });
      if (!response.ok) throw new RestoreError('UNREACHABLE', `${label} answered ${response.status} to a search of its items.`);
      const page = GraphQlPage.safeParse(await response.json().catch(() => null));
      if (!page.success) throw new RestoreError('UNREACHABLE', `${label} answered a search of its items with something that is not a list of items.`);
      const { edges, pageInfo } = page.data.data.transactions;
      for (const edge of edges) yield edge.node;
      if (!pageInfo.hasNextPage || edges.length === 0) return;
      after = edges.at(-1)!.cursor;
    }
  }

  async function openData(id: string): Promise<Response> {
    const response = await request(`${base}/${encodeURIComponent(id)}`);
    if (!response.ok || !response.body) throw new Error(`${label} answered ${response.status} for item ${id}`);
    return response;
  }

  return {
    label,
    async *historyItems(vaultId: string): AsyncGenerator<HistoryItem> {
      const tags = itemTagFilter(vaultId, 'vault-history');
      const seen = new Set<string>();
      for await (const node of query(tags)) {
        const seqFrom = decimalTag(node.tags, 'Seq-From');
        const seqTo = decimalTag(node.tags, 'Seq-To');
        if (seen.has(node.id) || seqFrom === null || seqTo === null || seqTo < seqFrom) continue;
        seen.add(node.id);
        yield {
          id: node.id,
          owner: node.owner.address,
          height: node.block?.height ?? null,
          seqFrom,
          seqTo,
          async read() {
            // Anyone can post a huge item with these tags: no more than a run may hold is read.
            if (itemSize(node) > RUN_MAX_BYTES) return new Uint8Array(0);
            try {
              return (await readAtMost(await openData(node.id), RUN_MAX_BYTES)) ?? new Uint8Array(0);
            } catch (error) {
              // An item the gateway lists but cannot serve is one nobody can read: ignored like a bad one.
              if (error instanceof RestoreError) throw error;
              return new Uint8Array(0);
            }
          },
        };
      }
    },
    async *fileItems(vaultId: string, blobId: string): AsyncGenerator<FileItem> {
      const tags = itemTagFilter(vaultId, 'file-version', blobId);
      for await (const node of query(tags)) {
        const size = itemSize(node);
        yield {
          id: node.id,
          size: Number.isSafeInteger(size) ? size : null,
          async open() {
            const body = (await openData(node.id)).body!;
            return body as unknown as AsyncIterable<Uint8Array>;
          },
        };
      }
    },
  };
}
