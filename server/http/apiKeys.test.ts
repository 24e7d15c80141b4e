/**
 * Issue 24: the account's API key (spec 002 sections 3, 4 and 9; docs/decisions.md, "The developer
 * API (issue 24): API keys"). Generate and Rotate, the server keeps only its hash, a key calls the
 * allowlisted routes only, every request counts against the period's limit, and the OpenAPI
 * document describes the routes from their schemas and marks what a key may call.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { API_KEY_LIMIT_MESSAGE, ApiKey, ApiKeyInfo, NewApiKey } from '../../src/protocol/developers';
import { CHUNK_BATCH_CONTENT_TYPE, VaultListResponse } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { airdropMember } from '../testing/members';
import { expectAccepted, makeFile, newId, sealed, VaultActor } from '../testing/vaults';
import { API_KEY_REFUSAL, API_KEY_ROUTES } from './apiKeyRoutes';

const DAY_MS = 24 * 60 * 60 * 1000;

describeEachDatabase('API keys', (env) => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function generate(actor: VaultActor): Promise<NewApiKey> {
    const response = await actor.api.request('PUT', '/api/api-keys', undefined, { token: actor.token });
    expectStatus(response, 200);
    return NewApiKey.parse(response.body);
  }

  async function infoOf(actor: VaultActor): Promise<ApiKeyInfo> {
    const response = await actor.api.get('/api/api-keys', { token: actor.token });
    expectStatus(response, 200);
    return ApiKeyInfo.parse(response.body);
  }

  /** The same account, calling with its API key instead of its session. */
  function withKey(actor: VaultActor, key: string): VaultActor {
    return new VaultActor(actor.api, actor.user, key, actor.userId);
  }

  it('generates a key shown once: the info shows its hint and usage, the database only its hash', async () => {
    app = await env.buildApp();
    const owner = await VaultActor.create(env, new ApiClient(app));
    expect(await infoOf(owner)).toMatchObject({ exists: false, hint: null, createdAt: null, used: 0, total: 0, usagePlan: { limit: 100, period: 'month' } });

    const { key, info } = await generate(owner);
    expect(ApiKey.safeParse(key).success).toBe(true);
    expect(key.startsWith('cairn_')).toBe(true);
    expect(info).toMatchObject({ exists: true, hint: key.slice(-4), used: 0, total: 0 });

    const again = await owner.api.get('/api/api-keys', { token: owner.token });
    expect(again.raw).not.toContain(key.slice(6, 20));
    expect(ApiKeyInfo.parse(again.body)).toMatchObject({ exists: true, hint: key.slice(-4) });
    // The period is the current UTC month: it ends on the first of the next one.
    const now = new Date(env.clock.now());
    expect(info.periodEndsAt).toBe(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

    const rows = await env.db.selectFrom('api_keys').selectAll().where('user_id', '=', owner.userId).execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(6));
    expect(rows[0]?.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lets a key list vaults, push signed operations and move chunks, counting each request', async () => {
    app = await env.buildApp();
    const owner = await VaultActor.create(env, new ApiClient(app));
    const vaultId = await owner.createVault();
    const { key } = await generate(owner);
    const script = withKey(owner, key);

    const listed = await script.api.get('/api/vaults', { token: key });
    expectStatus(listed, 200);
    expect(VaultListResponse.parse(listed.body).vaults.map((v) => v.vaultId)).toEqual([vaultId]);

    // An upload as the command line makes one: chunks with the key, the operation signed by the
    // user's own device keys (the key does not sign anything).
    const file = makeFile(1000);
    const version = await script.upload(vaultId, file);
    expectAccepted(await script.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version }));
    const chunk = await script.getChunk(vaultId, version.blobId, 0);
    expect(chunk.statusCode).toBe(200);
    expect(Buffer.compare(chunk.rawPayload, file.chunks[0] ?? Buffer.alloc(0))).toBe(0);
    expectStatus(await script.api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: key }), 200);

    // An operation signed by someone else is still refused, key or not.
    const stranger = await VaultActor.create(env, owner.api);
    const forged = await stranger.sign(vaultId, vaultId, { type: 'vault.rename', name: sealed() });
    const pushed = await script.push(forged);
    expect(pushed[0]?.status).toBe('rejected');

    // list, announce, 1 chunk PUT, the operation, chunk GET, ops GET, the forged push: 7.
    expect(await infoOf(owner)).toMatchObject({ used: 7, total: 7 });
  });

  it('refuses a key on every other route with 403 before reading its input, and counts it', async () => {
    app = await env.buildApp();
    const owner = await VaultActor.create(env, new ApiClient(app));
    const { key } = await generate(owner);
    const api = owner.api;

    // A key can neither see nor rotate itself, nor touch the session's or account's settings.
    for (const [method, url] of [
      ['GET', '/api/api-keys'],
      ['PUT', '/api/api-keys'],
      ['GET', '/api/account/sessions'],
      ['POST', '/api/auth/logout'],
      ['GET', '/api/referrals'],
    ] as const) {
      const response = await api.request(method, url, undefined, { token: key });
      expectError(response, 403, 'FORBIDDEN');
      expect(response.body).toMatchObject({ error: { message: API_KEY_REFUSAL } });
    }
    // An invalid body would be 400 for a session: the key is refused first.
    expectError(await api.request('POST', '/api/referrals', { emails: 'not a list' }, { token: key }), 403, 'FORBIDDEN');
    expectError(await api.request('POST', '/api/referrals', { emails: 'not a list' }, { token: owner.token }), 400, 'VALIDATION_FAILED');
    // Sockets belong to sessions.
    expectError(await api.get('/api/ws', { token: key }), 403, 'FORBIDDEN');
    // The session still works, and logout with the key did not end it.
    expect(await infoOf(owner)).toMatchObject({ used: 7, total: 7 });
  });

  it('answers 401 to a wrong key and to a rotated one at once; the new key works', async () => {
    app = await env.buildApp();
    const owner = await VaultActor.create(env, new ApiClient(app));
    const first = await generate(owner);
    expectStatus(await owner.api.get('/api/vaults', { token: first.key }), 200);

    const wrong = `cairn_${'A'.repeat(43)}`;
    expectError(await owner.api.get('/api/vaults', { token: wrong }), 401, 'UNAUTHENTICATED');
    // A key sent as a cookie is not a session.
    expectError(await owner.api.get('/api/vaults', { cookie: first.key }), 401, 'UNAUTHENTICATED');

    const second = await generate(owner);
    expect(second.key).not.toBe(first.key);
    expect(second.info.hint).toBe(second.key.slice(-4));
    expectError(await owner.api.get('/api/vaults', { token: first.key }), 401, 'UNAUTHENTICATED');
    expectStatus(await owner.api.get('/api/vaults', { token: second.key }), 200);
    // Usage is the account's: rotating does not reset it.
    expect(await infoOf(owner)).toMatchObject({ used: 2, total: 2 });
    expect(await env.db.selectFrom('api_keys').select('user_id').where('user_id', '=', owner.userId).execute()).toHaveLength(1);
  });

  it('answers 429 with the message past API_KEY_REQUEST_LIMIT, until the next period', async () => {
    app = await env.buildApp({ config: { apiKeys: { limit: 3, period: 'day' } } });
    const owner = await VaultActor.create(env, new ApiClient(app));
    const { key, info } = await generate(owner);
    expect(info.usagePlan).toEqual({ limit: 3, period: 'day' });
    for (let i = 0; i < 3; i += 1) expectStatus(await owner.api.get('/api/vaults', { token: key }), 200);

    const refused = await owner.api.get('/api/vaults', { token: key });
    expectError(refused, 429, 'RATE_LIMITED');
    expect(refused.body).toMatchObject({ error: { message: API_KEY_LIMIT_MESSAGE } });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(DAY_MS / 1000);
    // The session is not limited; the refused request was not counted.
    expect(await infoOf(owner)).toMatchObject({ used: 3, total: 3 });

    env.clock.advance(DAY_MS);
    expectStatus(await owner.api.get('/api/vaults', { token: key }), 200);
    // A day later the session has ended (BROWSER_SESSION_MS); the key goes on, in a new period.
    const next = await owner.api.get('/api/vaults', { token: key });
    expectStatus(next, 200);
    const row = await env.db.selectFrom('api_keys').select(['used', 'total']).where('user_id', '=', owner.userId).executeTakeFirstOrThrow();
    expect([Number(row.used), Number(row.total)]).toEqual([2, 5]);
  });

  it('does not let a passwordless (airdrop) session make or read a key', async () => {
    app = await env.buildApp();
    const owner = await VaultActor.create(env, new ApiClient(app));
    const vaultId = await owner.createVault();
    const guest = await airdropMember(owner, vaultId, { role: 'VIEWER', storageAllowance: 0, expiresAt: env.clock.now() + DAY_MS });
    expectError(await guest.api.request('PUT', '/api/api-keys', undefined, { token: guest.token }), 403, 'FORBIDDEN');
    expectError(await guest.api.get('/api/api-keys', { token: guest.token }), 403, 'FORBIDDEN');
    expect(await env.db.selectFrom('api_keys').select('user_id').where('user_id', '=', guest.userId).execute()).toEqual([]);
  });

  it('serves an OpenAPI 3.1 document from the routes’ schemas, marking what a key may call', async () => {
    app = await env.buildApp();
    const api = new ApiClient(app);
    const response = await api.get('/api/openapi.json');
    expectStatus(response, 200);
    const doc = JSON.parse(response.raw) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string; security: object[]; 'x-cairn-api-key'?: boolean; parameters: { name: string; in: string; required: boolean }[]; requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'session']);

    const vaults = doc.paths['/api/vaults']?.get;
    expect(vaults?.['x-cairn-api-key']).toBe(true);
    expect(vaults?.security).toEqual([{ session: [] }, { apiKey: [] }]);
    const rotate = doc.paths['/api/api-keys']?.put;
    expect(rotate?.security).toEqual([{ session: [] }]);
    expect(rotate?.['x-cairn-api-key']).toBeUndefined();
    expect(doc.paths['/api/api-keys']?.get).toBeDefined();
    // Bodies and parameters come from the zod schemas the routes validate with.
    expect(Object.keys(doc.paths['/api/vaults/ops']?.post?.requestBody?.content['application/json']?.schema.properties ?? {})).toContain('ops');
    expect(doc.paths['/api/vaults/{vaultId}/ops']?.get?.parameters).toContainEqual(expect.objectContaining({ name: 'vaultId', in: 'path', required: true }));
    // The chunk PUT takes bytes, which no JSON schema describes: the document still builds.
    expect(Object.keys(doc.paths['/api/vaults/{vaultId}/blobs/{blobId}/chunks/{index}']?.put?.requestBody?.content ?? {})).toEqual(['application/octet-stream']);
    // So does the batch of small chunks (a manifest line, then bytes).
    expect(Object.keys(doc.paths['/api/vaults/{vaultId}/blobs/chunks']?.post?.requestBody?.content ?? {})).toEqual([CHUNK_BATCH_CONTENT_TYPE]);
    expect(doc.paths['/api/openapi.json']?.get?.security).toEqual([]);
    const operationIds = Object.values(doc.paths).flatMap((operations) => Object.values(operations).map((operation) => operation.operationId));
    expect(new Set(operationIds).size).toBe(operationIds.length);

    const marked = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation['x-cairn-api-key'] === true)
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
    );
    expect(marked.sort()).toEqual([...API_KEY_ROUTES].sort());
  });
});
