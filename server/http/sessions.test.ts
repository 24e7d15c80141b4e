/**
 * Issue 26: Account > Security lists the account's signed-in sessions and ends one or all others
 * (SYNC_SPEC R80). A user sees and ends only their own; an ended session's requests answer 401
 * and its sockets close (R57); airdrop sessions cannot reach these routes (R59).
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { EndOtherSessionsResponse, SessionListResponse } from '../../src/protocol/sessions';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus, logInSession, newSession } from '../testing/flows';
import { airdropMember } from '../testing/members';
import { TestUser } from '../testing/TestUser';
import { VaultActor } from '../testing/vaults';
import { connectSocket } from '../testing/wsClient';

const LINUX_CHROMIUM = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describeEachDatabase('signed-in sessions', (env) => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function listAs(api: ApiClient, token: string, userAgent = LINUX_CHROMIUM) {
    const response = await api.get('/api/account/sessions', { token, headers: { 'user-agent': userAgent } });
    expectStatus(response, 200);
    return SessionListResponse.parse(response.body).sessions;
  }

  it('[R80] lists the account’s sessions with their device, the current one first and marked', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const laptop = await newSession(api, env.dataDir, user);
    const phone = await logInSession(api, user, true);
    expectStatus(await api.get('/api/account', { token: phone.token, headers: { 'user-agent': IPHONE_SAFARI } }), 200);

    const sessions = await listAs(api, laptop.token);
    expect(sessions.map((s) => [s.device, s.isCurrent, s.persistent])).toEqual([
      ['Chromium on Linux', true, false],
      ['Safari on iPhone', false, true],
    ]);
    for (const session of sessions) {
      expect(session.lastSeenAt).toBeGreaterThanOrEqual(session.createdAt);
      // The public id is neither the bearer token nor its stored hash.
      expect([laptop.token, phone.token]).not.toContain(session.id);
    }
    const stored = await env.db.selectFrom('sessions').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).not.toEqual(expect.arrayContaining([sessions[0]?.id]));
  });

  it('[R80] ends one session: its requests answer 401 and its socket closes; the caller’s goes on', async () => {
    app = await env.buildApp();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const api = new ApiClient(app);
    const user = await TestUser.create();
    const mine = await newSession(api, env.dataDir, user);
    const other = await logInSession(api, user);
    expectStatus(await api.get('/api/account', { token: other.token, headers: { 'user-agent': IPHONE_SAFARI } }), 200);
    const socket = connectSocket(`ws://127.0.0.1:${address.port}/api/ws?token=${other.token}`);
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.socket.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString('utf8') })),
    );
    await socket.opened;

    const target = (await listAs(api, mine.token)).find((s) => !s.isCurrent);
    expect(target?.device).toBe('Safari on iPhone');
    expectStatus(await api.request('DELETE', `/api/account/sessions/${target?.id}`, undefined, { token: mine.token }), 200);

    expect(await closed).toEqual({ code: 1008, reason: 'Session ended' });
    expectError(await api.get('/api/account', { token: other.token }), 401, 'UNAUTHENTICATED');
    expectStatus(await api.get('/api/account', { token: mine.token }), 200);
    expect((await listAs(api, mine.token)).map((s) => s.isCurrent)).toEqual([true]);
    // Ending it again: it is gone.
    expectError(await api.request('DELETE', `/api/account/sessions/${target?.id}`, undefined, { token: mine.token }), 404, 'NOT_FOUND');
  });

  it('[R80] a user can neither see nor end another account’s sessions', async () => {
    const api = new ApiClient(await env.buildApp());
    const alice = await newSession(api, env.dataDir, await TestUser.create());
    const bob = await newSession(api, env.dataDir, await TestUser.create());
    const bobsId = (await listAs(api, bob.token))[0]?.id;

    const alices = await listAs(api, alice.token);
    expect(alices.map((s) => s.id)).not.toContain(bobsId);
    expectError(await api.request('DELETE', `/api/account/sessions/${bobsId}`, undefined, { token: alice.token }), 404, 'NOT_FOUND');
    expectStatus(await api.get('/api/account', { token: bob.token }), 200);
    // Alice's 'Log out other devices' ends none of Bob's.
    const ended = await api.post('/api/account/sessions/end-others', undefined, { token: alice.token });
    expect(EndOtherSessionsResponse.parse(ended.body).ended).toBe(0);
    expectStatus(await api.get('/api/account', { token: bob.token }), 200);
    // A malformed id is a validation error, not a look-up.
    expectError(await api.request('DELETE', '/api/account/sessions/not-an-id', undefined, { token: alice.token }), 400, 'VALIDATION_FAILED');
    expectError(await api.get('/api/account/sessions'), 401, 'UNAUTHENTICATED');
  });

  it('[R80] Log out other devices ends every other session of the account and keeps this one', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const mine = await newSession(api, env.dataDir, user);
    const second = await logInSession(api, user, true);
    const third = await logInSession(api, user);

    const ended = await api.post('/api/account/sessions/end-others', undefined, { token: mine.token });
    expectStatus(ended, 200);
    expect(EndOtherSessionsResponse.parse(ended.body).ended).toBe(2);
    expectError(await api.get('/api/account', { token: second.token }), 401, 'UNAUTHENTICATED');
    expectError(await api.get('/api/account', { token: third.token }), 401, 'UNAUTHENTICATED');
    expect((await listAs(api, mine.token)).length).toBe(1);
  });

  it('[R59] [R80] an airdrop session cannot list or end sessions', async () => {
    const api = new ApiClient(await env.buildApp({ config: { authRateLimit: 1_000_000 } }));
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault();
    const guest = await airdropMember(owner, vaultId, { role: 'VIEWER', storageAllowance: 0, expiresAt: env.clock.now() + 60 * 60 * 1000 });
    const ownerSession = (await listAs(api, owner.token))[0]?.id;

    expectError(await api.get('/api/account/sessions', { token: guest.token }), 403, 'FORBIDDEN');
    expectError(await api.post('/api/account/sessions/end-others', undefined, { token: guest.token }), 403, 'FORBIDDEN');
    expectError(await api.request('DELETE', `/api/account/sessions/${ownerSession}`, undefined, { token: guest.token }), 403, 'FORBIDDEN');
    expectStatus(await api.get('/api/account', { token: owner.token }), 200);
  });
  it('[R80] ending sessions is rate-limited per address: guessing session ids stops at the limit', async () => {
    const api = new ApiClient(await env.buildApp({ config: { authRateLimit: 3 } }));
    const user = await TestUser.create();
    const mine = await newSession(api, env.dataDir, user);
    const answers: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const guess = `s${String(attempt).padStart(21, '0')}`;
      answers.push((await api.request('DELETE', `/api/account/sessions/${guess}`, undefined, { token: mine.token })).status);
    }
    expect(answers).toEqual([404, 404, 404, 429, 429]);
    const endOthers: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) endOthers.push((await api.post('/api/account/sessions/end-others', undefined, { token: mine.token })).status);
    expect(endOthers).toEqual([200, 200, 200, 429]);
  });
});
