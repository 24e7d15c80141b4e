/**
 * GET /api/metrics (docs/operations.md, Health and metrics): Prometheus text for a scraper that
 * holds METRICS_TOKEN; without the setting the route does not exist.
 */
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { ApiClient, errorCode } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import type { OperationBody } from '../../src/protocol/vaults';
import { suiteGateway } from '../testing/arlocal';
import { expectAccepted, makeFile, newId, sealed, VaultActor } from '../testing/vaults';
import { connectSocket } from '../testing/wsClient';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of the sample `name{labels}` in a Prometheus text answer, or null when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value) && Object.keys(found).length === Object.keys(labels).length) return Number(match[3]);
  }
  return null;
}

async function scrape(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
}

describeEachDatabase('metrics', (env) => {
  it('is 404 without METRICS_TOKEN, even to a request that sends a token', async () => {
    const api = new ApiClient(await env.buildApp());
    const headerSets: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}` }];
    for (const headers of headerSets) {
      const response = await api.get('/api/metrics', { headers });
      expect(response.status).toBe(404);
      expect(errorCode(response)).toBe('NOT_FOUND');
    }
  });

  it('is 401 with no token or a wrong one, and shows nothing', async () => {
    const api = new ApiClient(await env.buildApp({ config: { metricsToken: TOKEN } }));
    const headerSets: Record<string, string>[] = [{}, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Bearer ${TOKEN.slice(0, -1)}` }, { authorization: TOKEN }];
    for (const headers of headerSets) {
      const response = await api.get('/api/metrics', { headers });
      expect(response.status).toBe(401);
      expect(errorCode(response)).toBe('UNAUTHENTICATED');
      expect(response.raw).not.toContain('cairn_');
    }
  });

  it('counts requests by route pattern (no ids), accepted operations and stored chunk bytes', async () => {
    const app = await env.buildApp({ config: { metricsToken: TOKEN } });
    const api = new ApiClient(app);
    const health = { method: 'GET', route: '/api/health', status: '200' };
    const before = sample(await scrape(app), 'cairn_http_requests_total', health) ?? 0;
    await api.get('/api/health');
    await api.get('/api/health');
    expect(sample(await scrape(app), 'cairn_http_requests_total', health)).toBe(before + 2);

    const actor = await VaultActor.create(env, api);
    const opsBefore = sample(await scrape(app), 'cairn_operations_accepted_total') ?? 0;
    const vaultId = await actor.createVault();
    const file = makeFile(3_000);
    await actor.upload(vaultId, file);
    expect((await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: actor.token })).status).toBe(200);
    await api.get(`/api/no-such-route/${vaultId}`);

    const text = await scrape(app);
    expect(sample(text, 'cairn_operations_accepted_total')).toBe(opsBefore + 1);
    expect(sample(text, 'cairn_blob_bytes_stored_total')).toBe(file.storedSize);
    expect(sample(text, 'cairn_http_requests_total', { method: 'GET', route: '/api/vaults/:vaultId/ops', status: '200' })).toBe(1);
    expect(sample(text, 'cairn_http_requests_total', { method: 'PUT', route: '/api/vaults/:vaultId/blobs/:blobId/chunks/:index', status: '200' })).toBe(file.chunks.length);
    expect(sample(text, 'cairn_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(text, 'cairn_http_request_duration_seconds_count', { method: 'GET', route: '/api/vaults/:vaultId/ops', status: '200' })).toBe(1);
    // No id (nor the e-mail, nor a token) ever becomes a label.
    expect(text).not.toContain(vaultId);
    expect(text).not.toContain(actor.userId);
    expect(text).not.toContain(actor.token);
    // The relay queue and the posted bundles are there, at 0 with nothing permanent.
    expect(sample(text, 'cairn_storage_transactions', { status: 'SCHEDULED' })).toBe(0);
    expect(sample(text, 'cairn_relay_bundles_posted_total')).toBe(0);
    // The process figures come with the metrics.
    expect(sample(text, 'process_cpu_user_seconds_total')).not.toBeNull();
  });

  it('shows open WebSocket connections rising when a socket opens and falling when it closes', async () => {
    const app = await env.buildApp({ config: { metricsToken: TOKEN } });
    const actor = await VaultActor.create(env, new ApiClient(app));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const sockets = async () => sample(await scrape(app), 'cairn_websocket_connections');
    expect(await sockets()).toBe(0);

    const first = connectSocket(`ws://127.0.0.1:${address.port}/api/ws?token=${actor.token}`);
    const second = connectSocket(`ws://127.0.0.1:${address.port}/api/ws?token=${actor.token}`);
    await Promise.all([first.nextCount(1), second.nextCount(1)]);
    expect(await sockets()).toBe(2);

    first.socket.close();
    // The server hears the close after the client does: wait for it, not for a time.
    await expect.poll(sockets).toBe(1);
    second.socket.close();
    await expect.poll(sockets).toBe(0);
    await app.close();
  });
});

describeEachDatabase('relay metrics', (env) => {
  const suite = suiteGateway('cairn-metrics-');

  it('shows the relay queue by status and counts the bundles posted', async () => {
    const app = await env.buildApp({
      config: { metricsToken: TOKEN },
      arweave: { gatewayUrl: suite.gateway.url, wallet: suite.wallet, startRelay: false, relayOptions: { historySettleMs: 3_600_000 } },
    });
    const actor = await VaultActor.create(env, new ApiClient(app));
    const vaultId = await actor.createVault({ isCloud: false });
    const version = await actor.upload(vaultId, makeFile(2_000));
    const body: OperationBody = { type: 'file.create', parentId: null, name: sealed(), version };
    expectAccepted(await actor.apply(vaultId, newId(), body));

    let text = await scrape(app);
    expect(sample(text, 'cairn_storage_transactions', { status: 'SCHEDULED' })).toBe(1);
    expect(sample(text, 'cairn_relay_bundles_posted_total')).toBe(0);

    await app.arweaveRelay!.runOnce(['bundle', 'post']);
    text = await scrape(app);
    expect(sample(text, 'cairn_storage_transactions', { status: 'SCHEDULED' })).toBe(0);
    expect(sample(text, 'cairn_storage_transactions', { status: 'PENDING' })).toBe(1);
    expect(sample(text, 'cairn_relay_bundles_posted_total')).toBe(1);
  });
});
