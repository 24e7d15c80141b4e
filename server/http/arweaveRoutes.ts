/**
 * Permanent storage routes (spec 000 section 7; docs/SYNC_SPEC.md R34-R37):
 * - GET /config/arweave (public): gateway and viewer URLs from configuration;
 * - GET /storage/transactions: the caller's own storage transactions, newest first, 20 a page;
 * - GET /vaults/{vaultId}/history-items: a permanent vault's history runs (R84), for its members;
 * - GET /vaults/{vaultId}/nfts/chain: where the vault's NFTs and collections are on the network
 *   (R140), for its members;
 * - GET /arweave/tx/{txId}: import by network transaction id. Streams the item's bytes from the
 *   gateway as `application/octet-stream` (sandboxed, an attachment, never sniffed), with its
 *   Content-Type and File-Name tags in `x-cairn-content-type` and a URI-encoded
 *   `x-cairn-file-name`, 404 when the gateway lacks it. Authenticated, so the server is no open
 *   proxy. Bytes from the network must never run as Cairn: an item tagged text/javascript served
 *   with that type from this origin would pass the app's `script-src 'self'` (SYNC_SPEC R54).
 * - GET /arweave/items?vaultId=&item=&blobId=&after=: the Cairn items this server's gateway lists
 *   for a vault (R96), for 'Restore a vault from the network': the app reads the network through
 *   this server's configured gateway only, never a URL the user types (no SSRF), with a budget of
 *   NETWORK_ITEMS_PER_MINUTE requests a minute per account.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { importedMimeType } from '../../src/domain/importTxRules';
import {
  ARWEAVE_CONTENT_TYPE_HEADER,
  ARWEAVE_FILE_NAME_HEADER,
  ArweaveConfig,
  ArweaveTxParams,
  NETWORK_ITEMS_PAGE_SIZE,
  NetworkItem,
  NetworkItemsPage,
  NetworkItemsQuery,
  StorageTransactionsQuery,
  VaultHistoryPage,
  VaultHistoryParams,
  VaultHistoryQuery,
} from '../../src/protocol/arweave';
import { ApiError } from '../../src/protocol/errors';
import { ITEMS_GRAPHQL_QUERY, itemTagFilter } from '../../src/protocol/vaultHistory';
import { NftChainParams } from '../../src/protocol/nfts';
import type { NftChainService } from '../arweave/nftItems';
import type { StorageTransactionService } from '../arweave/StorageTransactionService';
import type { VaultHistoryService } from '../arweave/VaultHistoryService';
import { createMinuteBudget } from './minuteBudget';
import type { RateCounters } from './rateCounters';
import type { DefineRoute } from './route';

export interface ArweaveRouteDeps {
  transactions: StorageTransactionService;
  history: VaultHistoryService;
  nfts: NftChainService;
  /** What GET /config/arweave publishes; null when no gateway is configured (permanent storage is off). */
  config: ArweaveConfig | null;
  /** The gateway the server reads from, which may be one it does not publish (the embedded arlocal). */
  gatewayUrl: string | null;
  /** Where the per-account search budget is counted; default this process (issue 20). */
  rateCounters?: RateCounters;
}

/**
 * R96: how many item searches one account may make a minute. A restore makes one per 100 history
 * items and one per file version; a user cannot make the server hammer its gateway.
 */
export const NETWORK_ITEMS_PER_MINUTE = 600;

export function registerArweaveRoutes(route: DefineRoute, deps: ArweaveRouteDeps, clock: () => number = Date.now): void {
  const spend = createMinuteBudget(NETWORK_ITEMS_PER_MINUTE, 'Too many searches of the network: wait a minute and try again', clock, deps.rateCounters && { counters: deps.rateCounters, name: 'network-items' });

  route({
    method: 'GET',
    url: '/api/config/arweave',
    auth: 'none',
    handler: async () => {
      if (!deps.config) throw new ApiError('NOT_FOUND', 'Permanent storage is not configured on this server');
      return ArweaveConfig.parse(deps.config);
    },
  });

  route({
    method: 'GET',
    url: '/api/storage/transactions',
    query: StorageTransactionsQuery,
    auth: 'required',
    handler: async ({ query, caller }) => deps.transactions.list(caller.user.id, query),
  });

  route({
    method: 'GET',
    url: '/api/vaults/:vaultId/history-items',
    params: VaultHistoryParams,
    query: VaultHistoryQuery,
    auth: 'required',
    handler: async ({ params, query, caller }) => VaultHistoryPage.parse(await deps.history.list(caller.user.id, params.vaultId, query)),
  });

  route({
    method: 'GET',
    url: '/api/vaults/:vaultId/nfts/chain',
    params: NftChainParams,
    auth: 'required',
    handler: async ({ params, caller }) => deps.nfts.forMember(caller.user.id, params.vaultId),
  });

  route({
    method: 'GET',
    url: '/api/arweave/items',
    query: NetworkItemsQuery,
    auth: 'required',
    handler: async ({ query, caller }) => {
      const gateway = requireGateway(deps.gatewayUrl);
      await spend(caller.user.id);
      const page = await searchItems(gateway, query);
      // A gateway only the server can reach is not named (R54): the page says "this server's gateway".
      return NetworkItemsPage.parse({ ...page, gateway: deps.config?.gatewayUrl ?? "this server's gateway" });
    },
  });

  route({
    method: 'GET',
    url: '/api/arweave/tx/:txId',
    params: ArweaveTxParams,
    auth: 'required',
    handler: async ({ params, reply }) => {
      const gateway = requireGateway(deps.gatewayUrl);
      const tags = await fetchTags(gateway, params.txId);
      const data = await fetch(new URL(`/${params.txId}`, gateway));
      if (data.status === 404 || (data.ok && tags === null)) throw new ApiError('NOT_FOUND', 'No transaction with this id on the network');
      if (!data.ok || !data.body) throw new ApiError('INTERNAL', `The Arweave gateway answered ${data.status}`);
      const fileName = tags?.get('File-Name');
      // The item's own type travels beside the bytes, reduced to a bare type/subtype (so no tag
      // can put a line break or a parameter into the header); the bytes are opaque here.
      reply.header(ARWEAVE_CONTENT_TYPE_HEADER, importedMimeType(tags?.get('Content-Type') ?? null));
      if (fileName) reply.header(ARWEAVE_FILE_NAME_HEADER, encodeURIComponent(fileName));
      const length = data.headers.get('content-length');
      if (length) reply.header('content-length', length);
      // Served bytes are never rendered or run by the browser from this origin, even opened directly.
      reply.header('content-type', 'application/octet-stream');
      reply.header('content-security-policy', "sandbox; default-src 'none'");
      reply.header('content-disposition', 'attachment');
      reply.header('x-content-type-options', 'nosniff');
      return reply.send(Readable.fromWeb(data.body as WebReadableStream));
    },
  });
}

interface GraphQlItemsAnswer {
  data?: {
    transactions?: {
      pageInfo?: { hasNextPage?: boolean };
      edges?: {
        cursor?: unknown;
        node?: { id?: unknown; owner?: { address?: unknown }; tags?: unknown; data?: { size?: unknown } | null; block?: { height?: unknown } | null };
      }[];
    };
  };
}

function requireGateway(gatewayUrl: string | null | undefined): string {
  if (!gatewayUrl) throw new ApiError('NOT_FOUND', 'Permanent storage is not configured on this server');
  return gatewayUrl;
}

/** One page of R84/R85 items of `query.vaultId`; the tags filtered on are fixed here, only ids are the caller's. */
async function searchItems(gateway: string, query: NetworkItemsQuery): Promise<{ items: NetworkItem[]; cursor: string | null }> {
  const tags = itemTagFilter(query.vaultId, query.item, query.blobId);
  let response: Response;
  try {
    response = await fetch(new URL('/graphql', gateway), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: ITEMS_GRAPHQL_QUERY, variables: { tags, first: NETWORK_ITEMS_PAGE_SIZE, after: query.after ?? null } }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    throw new ApiError('INTERNAL', 'The Arweave gateway is unreachable');
  }
  if (!response.ok) throw new ApiError('INTERNAL', `The Arweave gateway answered ${response.status}`);
  const body = (await response.json().catch(() => null)) as GraphQlItemsAnswer | null;
  const edges = body?.data?.transactions?.edges;
  if (!Array.isArray(edges)) throw new ApiError('INTERNAL', 'The Arweave gateway answered with something that is not a list of items');
  const items: NetworkItem[] = [];
  for (const edge of edges) {
    const node = edge.node;
    const size = node?.data?.size;
    const height = node?.block?.height;
    // Whatever does not look like an item is left out: the reader judges the rest anyway.
    const parsed = NetworkItem.safeParse({
      id: node?.id,
      owner: node?.owner?.address,
      tags: node?.tags,
      size: typeof size === 'string' || typeof size === 'number' ? (Number.isSafeInteger(Number(size)) ? Number(size) : null) : null,
      // R98: a pending item (no block yet) is read after every mined one.
      height: typeof height === 'number' && Number.isSafeInteger(height) && height >= 0 ? height : null,
    });
    if (parsed.success) items.push(parsed.data);
  }
  const last = edges.at(-1)?.cursor;
  const hasNext = body?.data?.transactions?.pageInfo?.hasNextPage === true && typeof last === 'string' && last.length > 0 && last.length <= 200;
  return { items, cursor: hasNext ? (last as string) : null };
}

/** The item's tags by GraphQL (works for bundled data items and plain transactions), or null if unknown. */
async function fetchTags(gateway: string, txId: string): Promise<Map<string, string> | null> {
  const query = 'query($id: ID!) { transaction(id: $id) { id tags { name value } } }';
  let response: Response;
  try {
    response = await fetch(new URL('/graphql', gateway), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables: { id: txId } }),
    });
  } catch {
    throw new ApiError('INTERNAL', 'The Arweave gateway is unreachable');
  }
  if (!response.ok) throw new ApiError('INTERNAL', `The Arweave gateway answered ${response.status}`);
  const body = (await response.json()) as { data?: { transaction?: { tags?: { name: string; value: string }[] } | null } };
  const tx = body.data?.transaction;
  if (!tx) return null;
  return new Map((tx.tags ?? []).map((t) => [t.name, t.value]));
}
