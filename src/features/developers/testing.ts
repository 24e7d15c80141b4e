/**
 * A stand-in for the developer API's server end in unit tests (the server's routes are tested on
 * their own): answers at the fetch port of the app's real client, in the shapes of
 * src/protocol/developers.ts, and records what was asked.
 */
import { createApiClient, type ApiClient, type FetchLike } from '../../platform/apiClient';
import type { WebhookLog } from '../../protocol/developers';

export function webhookLog(n: number, change: Partial<WebhookLog> = {}): WebhookLog {
  return {
    id: `log-${String(n).padStart(3, '0')}`,
    webhookId: 'hook-1',
    deliveryStatus: true,
    event: 'file.uploaded',
    createdAt: Date.UTC(2026, 10, 28, 12, 0, 0) - n * 1000,
    url: 'https://receiver.example/hook',
    attempt: 1,
    requestBody: `{"type":"file.uploaded","data":{"fileId":"f${n}"}}`,
    responseBody: 'ok',
    responseStatusCode: 200,
    ...change,
  };
}

export interface FakeDeveloperServer {
  api: ApiClient;
  /** Each request's method and path with its query. */
  requests: string[];
  /** The log, newest first; a test may add to it. */
  logs: WebhookLog[];
  /** Set to answer the next log page request with this status and error message. */
  failNext: { status: number; message: string } | null;
  /** While true, every request fails as if the server could not be reached. */
  isOffline: boolean;
}

/** Pages of `logs` by `limit`, the token being the offset of the next page. */
export function fakeDeveloperServer(logs: WebhookLog[]): FakeDeveloperServer {
  const server: FakeDeveloperServer = { api: undefined as unknown as ApiClient, requests: [], logs, failNext: null, isOffline: false };
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(input, 'https://cairn.test');
    server.requests.push(`${init.method} ${url.pathname}${url.search}`);
    if (server.isOffline) throw new TypeError('Failed to fetch');
    if (server.failNext) {
      const { status, message } = server.failNext;
      server.failNext = null;
      return Response.json({ error: { code: 'INTERNAL', message } }, { status });
    }
    if (url.pathname === '/api/webhooks/logs') {
      const limit = Number(url.searchParams.get('limit'));
      const start = Number(url.searchParams.get('nextToken') ?? '0');
      const items = server.logs.slice(start, start + limit);
      const next = start + limit < server.logs.length ? String(start + limit) : null;
      return Response.json({ items, nextToken: next });
    }
    return Response.json({ error: { code: 'NOT_FOUND', message: 'Not found' } }, { status: 404 });
  };
  server.api = createApiClient({ fetch });
  return server;
}
