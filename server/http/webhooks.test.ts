/**
 * Webhooks (issue 24; spec 002 sections 3-9): the URL rules and the server-side request forgery
 * refusal, one webhook per account and only its owner's, deliveries to a real local HTTPS receiver
 * signed the Standard Webhooks way and holding no name, retries each logged, redirects not
 * followed, the log paged by nextToken to its end and pushed live, and DELETE stopping deliveries.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewWebhook, type WebhookLog, WebhookList, WebhookLogPage, WebhookPayload } from '../../src/protocol/developers';
import { ApiClient, type ApiResponse } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { startHttpsReceiver, type HttpsReceiver, type ReceivedRequest } from '../testing/httpsReceiver';
import { addMember } from '../testing/members';
import { clear, expectAccepted, makeFile, newId, sealed, VaultActor } from '../testing/vaults';
import { connectSocket } from '../testing/wsClient';
import { WEBHOOK_ADDRESS_REFUSED } from '../webhooks/webhookTarget';

/** Retries come fast in tests; production waits 5 s, 30 s, 2 min and 10 min. */
const RETRY_DELAYS_MS = [150, 150, 150, 150];

/** Verifies a delivery as a receiver would, with the secret alone (Standard Webhooks). */
function signatureVerifies(secret: string, request: ReceivedRequest): boolean {
  const id = String(request.headers['webhook-id']);
  const timestamp = String(request.headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64');
  return String(request.headers['webhook-signature'])
    .split(' ')
    .some((entry) => entry === `v1,${expected}`);
}

describeEachDatabase('webhooks (issue 24)', (env) => {
  let app: FastifyInstance;
  let api: ApiClient;
  /** An app with the default settings: no address allowed but public ones. */
  let strictApi: ApiClient;
  let receiver: HttpsReceiver;
  let wsUrl: string;

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    app = await env.buildApp({
      config: { webhookAllowedAddresses: ['127.0.0.1'] },
      webhooks: { ca: receiver.ca, retryDelaysMs: RETRY_DELAYS_MS, pollMs: 100, timeoutMs: 3_000 },
    });
    api = new ApiClient(app);
    // Its dispatcher stays off: it would refuse the test receiver's deliveries queued by `app`.
    strictApi = new ApiClient(await env.buildApp({ webhooks: { start: false } }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('not listening');
    wsUrl = `ws://127.0.0.1:${address.port}/api/ws`;
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  /** A new user with a webhook to `path` on the receiver; its secret. */
  async function withWebhook(path: string): Promise<{ actor: VaultActor; secret: string; webhookId: string }> {
    const actor = await VaultActor.create(env, api);
    const response = await api.post('/api/webhooks', { url: `${receiver.origin}${path}` }, { token: actor.token });
    expectStatus(response, 200);
    const created = NewWebhook.parse(response.body);
    return { actor, secret: created.secret, webhookId: created.webhook.id };
  }

  function requestsTo(path: string): ReceivedRequest[] {
    return receiver.requests.filter((request) => request.url === path);
  }

  async function waitForRequestsTo(path: string, count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (requestsTo(path).length < count) {
      if (Date.now() > deadline) throw new Error(`${requestsTo(path).length} of ${count} requests to ${path}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return requestsTo(path);
  }

  async function logPage(actor: VaultActor, query = ''): Promise<WebhookLogPage> {
    const response = await api.get(`/api/webhooks/logs${query}`, { token: actor.token });
    expectStatus(response, 200);
    return WebhookLogPage.parse(response.body);
  }

  async function waitForLog(actor: VaultActor, count: number): Promise<WebhookLog[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { items } = await logPage(actor, '?limit=50');
      if (items.length >= count) return items;
      if (Date.now() > deadline) throw new Error(`${items.length} of ${count} log entries`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async function uploadFile(actor: VaultActor, vaultId: string, name: ReturnType<typeof clear>, isPublic: boolean): Promise<{ fileId: string; versionId: string; blobId: string }> {
    const version = await actor.upload(vaultId, makeFile(300, { isPublic }), { isPublic });
    const fileId = newId();
    expectAccepted(await actor.apply(vaultId, fileId, { type: 'file.create', parentId: null, name, version }));
    return { fileId, versionId: version.versionId, blobId: version.blobId };
  }

  describe('the URL rules', () => {
    it('refuses http://, too short and invalid URLs', async () => {
      const actor = await VaultActor.create(env, api);
      for (const url of ['http://hooks.example.com/cairn', 'https://', 'https:/x', 'ftp://hooks.example.com']) {
        expectError(await api.post('/api/webhooks', { url }, { token: actor.token }), 400, 'VALIDATION_FAILED');
      }
      expectError(await api.post('/api/webhooks', {}, { token: actor.token }), 400, 'VALIDATION_FAILED');
      expect(WebhookList.parse((await api.get('/api/webhooks', { token: actor.token })).body).items).toEqual([]);
    });

    it('with the default settings, refuses loopback, private and metadata addresses with a clear message', async () => {
      const actor = await VaultActor.create(env, strictApi);
      for (const url of [`${receiver.origin}/hook`, 'https://localhost/hook', 'https://10.0.0.7/hook', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/hook', 'https://[::ffff:127.0.0.1]/hook']) {
        const response = await strictApi.post('/api/webhooks', { url }, { token: actor.token });
        expectError(response, 400, 'VALIDATION_FAILED');
        expect(JSON.stringify(response.body)).toContain(WEBHOOK_ADDRESS_REFUSED);
      }
      expect(WebhookList.parse((await strictApi.get('/api/webhooks', { token: actor.token })).body).items).toEqual([]);
    });

    it('allows an address WEBHOOK_ALLOWED_ADDRESSES lists; one webhook per account; its secret shown once', async () => {
      const { actor, secret, webhookId } = await withWebhook('/rules');
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
      const list = await api.get('/api/webhooks', { token: actor.token });
      expect(WebhookList.parse(list.body).items).toEqual([{ id: webhookId, url: `${receiver.origin}/rules`, createdAt: expect.any(Number) }]);
      expect(list.raw).not.toContain(secret.slice(6));
      const second = await api.post('/api/webhooks', { url: `${receiver.origin}/other` }, { token: actor.token });
      expectError(second, 409, 'CONFLICT');
      expect(JSON.stringify(second.body)).toContain('already configured');
    });
  });

  it("another user neither sees nor removes someone's webhook or log", async () => {
    const { actor, webhookId } = await withWebhook('/private');
    await app.services.webhooks.emit([actor.userId], 'webhook.test', {});
    await waitForLog(actor, 1);
    const stranger = await VaultActor.create(env, api);
    expect(WebhookList.parse((await api.get('/api/webhooks', { token: stranger.token })).body).items).toEqual([]);
    expect((await logPage(stranger)).items).toEqual([]);
    expectError(await api.request('DELETE', `/api/webhooks/${webhookId}`, undefined, { token: stranger.token }), 404, 'NOT_FOUND');
    expect(WebhookList.parse((await api.get('/api/webhooks', { token: actor.token })).body).items).toHaveLength(1);
    expectError(await api.request('DELETE', `/api/webhooks/${webhookId}`), 401, 'UNAUTHENTICATED');
  });

  it('an upload into a private vault is delivered signed, with ids only, logged, and pushed live', async () => {
    const { actor, secret, webhookId } = await withWebhook('/private-upload');
    const socket = connectSocket(`${wsUrl}?token=${actor.token}`);
    await socket.opened;
    const vaultId = await actor.createVault();
    const name = sealed();
    const { fileId, versionId, blobId } = await uploadFile(actor, vaultId, name, false);

    const [request] = await waitForRequestsTo('/private-upload', 1);
    if (!request) throw new Error('no delivery');
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(String(request.headers['webhook-id'])).toMatch(/^msg_/);
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(signatureVerifies(secret, request)).toBe(true);
    expect(signatureVerifies(`whsec_${crypto.randomBytes(24).toString('base64')}`, request)).toBe(false);
    const payload = WebhookPayload.parse(JSON.parse(request.body));
    expect(payload).toEqual({
      type: 'file.uploaded',
      timestamp: expect.any(String),
      data: { vaultId, fileId, versionId, blobId, operationId: expect.any(String) },
    });
    // Nothing of the private vault in clear, nor even its sealed name.
    expect(request.body).not.toContain(name.c);

    const live = await socket.waitFor((message) => message.type === 'webhookLog');
    socket.socket.close();
    const [entry] = await waitForLog(actor, 1);
    expect(entry).toEqual({
      id: expect.any(String),
      webhookId,
      deliveryStatus: true,
      event: 'file.uploaded',
      createdAt: expect.any(Number),
      url: `${receiver.origin}/private-upload`,
      attempt: 1,
      requestBody: request.body,
      responseBody: 'ok',
      responseStatusCode: 200,
    });
    expect(live).toEqual({ type: 'webhookLog', log: entry });
  });

  it("a public vault's upload carries no name either", async () => {
    const { actor } = await withWebhook('/public-upload');
    const vaultId = await actor.createVault({ isPublic: true });
    await uploadFile(actor, vaultId, clear('quarterly-report.pdf'), true);
    const [request] = await waitForRequestsTo('/public-upload', 1);
    expect(request?.body).not.toContain('quarterly-report');
    expect(request?.body).not.toContain('Public vault');
  });

  it('someone accepting an invitation is member.joined for the owner', async () => {
    const { actor: owner } = await withWebhook('/joined');
    const member = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isPublic: true });
    const membershipId = await addMember(owner, vaultId, member, 'VIEWER', null);
    const requests = await waitForRequestsTo('/joined', 1);
    const joined = requests.map((request) => WebhookPayload.parse(JSON.parse(request.body))).find((payload) => payload.type === 'member.joined');
    expect(joined?.data).toEqual({ vaultId, membershipId });
  });

  it('a permanent upload reaching COMMITTED is storage.transaction.committed for its uploader', async () => {
    const { actor } = await withWebhook('/committed');
    const transaction = {
      id: newId(),
      vaultId: newId(),
      fileId: newId(),
      versionId: newId(),
      dataItemId: 'a'.repeat(43),
      txId: 'b'.repeat(43),
      size: 10,
      reward: '1',
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    };
    // The relay's change notice (app.ts wires ArweaveRelay's onChange here): only COMMITTED counts.
    await app.services.webhooks.storageTransactionChanged({ ...transaction, status: 'BUNDLED' }, actor.userId);
    await app.services.webhooks.storageTransactionChanged({ ...transaction, status: 'COMMITTED' }, actor.userId);
    const [request] = await waitForRequestsTo('/committed', 1);
    expect(WebhookPayload.parse(JSON.parse(request?.body ?? '')).data).toEqual({
      transactionId: transaction.id,
      vaultId: transaction.vaultId,
      fileId: transaction.fileId,
      versionId: transaction.versionId,
      dataItemId: transaction.dataItemId,
      arweaveTxId: transaction.txId,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requestsTo('/committed')).toHaveLength(1);
  });

  it('a receiver answering 500 gets the same event retried, each attempt logged, five in all', async () => {
    receiver.answer = (request) => (request.url === '/failing' ? { status: 500, body: 'receiver broke' } : { status: 200, body: 'ok' });
    const { actor } = await withWebhook('/failing');
    await app.services.webhooks.emit([actor.userId], 'webhook.test', {});
    const requests = await waitForRequestsTo('/failing', 5);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
    const log = await waitForLog(actor, 5);
    expect(log.map((entry) => [entry.attempt, entry.deliveryStatus, entry.responseStatusCode, entry.responseBody])).toEqual([
      [5, false, 500, 'receiver broke'],
      [4, false, 500, 'receiver broke'],
      [3, false, 500, 'receiver broke'],
      [2, false, 500, 'receiver broke'],
      [1, false, 500, 'receiver broke'],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(requestsTo('/failing')).toHaveLength(5);
  });

  it('a redirect is not followed: logged as failed, and retried at the webhook URL only', async () => {
    let redirected = false;
    receiver.answer = (request) => {
      if (request.url !== '/moved') return { status: 200, body: 'ok' };
      if (redirected) return { status: 204 };
      redirected = true;
      return { status: 302, headers: { location: '/elsewhere' } };
    };
    const { actor } = await withWebhook('/moved');
    await app.services.webhooks.emit([actor.userId], 'webhook.test', {});
    await waitForRequestsTo('/moved', 2);
    const log = await waitForLog(actor, 2);
    expect(log.map((entry) => [entry.attempt, entry.deliveryStatus, entry.responseStatusCode])).toEqual([
      [2, true, 204],
      [1, false, 302],
    ]);
    expect(requestsTo('/elsewhere')).toEqual([]);
  });

  it('the log pages 10 by 10 to its end with nextToken, newest first, entries logged meanwhile neither repeated nor skipped', async () => {
    const { actor } = await withWebhook('/paged');
    for (let i = 0; i < 25; i += 1) await app.services.webhooks.emit([actor.userId], 'webhook.test', { n: i });
    await waitForRequestsTo('/paged', 25);
    await waitForLog(actor, 25);

    const first = await logPage(actor);
    expect(first.items).toHaveLength(10);
    if (!first.nextToken) throw new Error('no next page');
    // A new delivery while the user reads the first page.
    await app.services.webhooks.emit([actor.userId], 'webhook.test', { n: 25 });
    await waitForLog(actor, 26);
    const second = await logPage(actor, `?nextToken=${encodeURIComponent(first.nextToken)}`);
    expect(second.items).toHaveLength(10);
    if (!second.nextToken) throw new Error('no third page');
    const third = await logPage(actor, `?limit=10&nextToken=${encodeURIComponent(second.nextToken)}`);
    expect(third.items).toHaveLength(5);
    expect(third.nextToken).toBeNull();

    const paged = [...first.items, ...second.items, ...third.items];
    expect(new Set(paged.map((entry) => entry.id)).size).toBe(25);
    const numbers = paged.map((entry) => WebhookPayload.parse(JSON.parse(entry.requestBody)).data.n);
    expect(new Set(numbers)).toEqual(new Set(Array.from({ length: 25 }, (_, i) => i)));
    const times = paged.map((entry) => entry.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expectError(await api.get('/api/webhooks/logs?nextToken=garbage', { token: actor.token }), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/api/webhooks/logs?limit=0', { token: actor.token }), 400, 'VALIDATION_FAILED');
  });

  it('a delivery queued by a process that stopped is sent by another (the queue is rows)', async () => {
    const { actor } = await withWebhook('/restart');
    const stopped = await env.buildApp({ config: { webhookAllowedAddresses: ['127.0.0.1'] }, webhooks: { start: false, ca: receiver.ca } });
    await stopped.services.webhooks.emit([actor.userId], 'webhook.test', { queuedBy: 'stopped' });
    await stopped.close();
    const [request] = await waitForRequestsTo('/restart', 1);
    expect(WebhookPayload.parse(JSON.parse(request?.body ?? '')).data).toEqual({ queuedBy: 'stopped' });
    expect((await waitForLog(actor, 1))[0]?.deliveryStatus).toBe(true);
  });

  it('DELETE stops deliveries: retries waiting are dropped, and the account may configure another', async () => {
    receiver.answer = (request) => (request.url === '/removed' ? { status: 503, body: 'down' } : { status: 200, body: 'ok' });
    const { actor, webhookId } = await withWebhook('/removed');
    await app.services.webhooks.emit([actor.userId], 'webhook.test', {});
    await waitForRequestsTo('/removed', 1);
    const removed: ApiResponse = await api.request('DELETE', `/api/webhooks/${webhookId}`, undefined, { token: actor.token });
    expectStatus(removed, 200);
    expect(removed.body).toEqual({ ok: true });
    const seen = requestsTo('/removed').length;
    await app.services.webhooks.emit([actor.userId], 'webhook.test', {});
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(requestsTo('/removed')).toHaveLength(seen);
    expect(seen).toBeLessThanOrEqual(2);
    expect(WebhookList.parse((await api.get('/api/webhooks', { token: actor.token })).body).items).toEqual([]);
    expect((await logPage(actor)).items).toEqual([]);
    expectError(await api.request('DELETE', `/api/webhooks/${webhookId}`, undefined, { token: actor.token }), 404, 'NOT_FOUND');
    expectStatus(await api.post('/api/webhooks', { url: `${receiver.origin}/again` }, { token: actor.token }), 200);
  });
});
