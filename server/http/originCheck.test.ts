/**
 * Issue 18 (trust): a request from a page on another site is refused before it changes anything,
 * WebSocket handshakes included; requests without an Origin (curl, API clients) keep working.
 */
import { expect, it } from 'vitest';
import { SessionResponse } from '../../src/protocol/auth';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus, newSession } from '../testing/flows';
import { TestUser } from '../testing/TestUser';
import { connectSocket } from '../testing/wsClient';

const OWN = 'http://cairn.test';
const EVIL = 'https://evil.example';

describeEachDatabase('origin check', (env) => {
  it('refuses state-changing requests from another origin and changes nothing', async () => {
    const app = await env.buildApp();
    const api = new ApiClient(app);
    const session = await newSession(api, env.dataDir, await TestUser.create());
    const from = (origin: string) => ({ token: session.token, headers: { origin } });

    // A body-less POST with the cookie, as a cross-site form or fetch would send it.
    const logout = await api.request('POST', '/api/auth/logout', undefined, { cookie: session.token, headers: { origin: EVIL } });
    expectError(logout, 403, 'FORBIDDEN');
    expectError(await api.request('PATCH', '/api/account/attributes', { mode: 'dark' }, from(EVIL)), 403, 'FORBIDDEN');
    expectError(await api.request('PATCH', '/api/account/attributes', { mode: 'dark' }, from('null')), 403, 'FORBIDDEN');
    // Same host, other scheme or port: another origin.
    expectError(await api.request('PATCH', '/api/account/attributes', { mode: 'dark' }, from('https://cairn.test')), 403, 'FORBIDDEN');
    expectError(await api.request('PATCH', '/api/account/attributes', { mode: 'dark' }, from('http://cairn.test:8080')), 403, 'FORBIDDEN');
    expectError(await api.request('DELETE', '/api/account', { signedAt: 1, signature: 'x' }, from(EVIL)), 403, 'FORBIDDEN');
    expectError(await api.request('POST', '/api/auth/login/start', { email: 'a@example.com', startLoginRequest: 'x' }, { headers: { origin: EVIL } }), 403, 'FORBIDDEN');
    // Whatever address the server was reached at, a page of another site names its own host.
    expectError(await api.request('PATCH', '/api/account/attributes', { mode: 'dark' }, { token: session.token, headers: { origin: EVIL, host: '127.0.0.1:8080' } }), 403, 'FORBIDDEN');

    // Nothing changed: the session lives and the mode is the default.
    const account = await api.get('/api/account', { token: session.token });
    expectStatus(account, 200);
    expect(SessionResponse.parse(account.body).user.mode).toBe('auto');

    // Reads from anywhere, the app's own origin, and clients that send no Origin all work.
    expectStatus(await api.request('GET', '/api/account', undefined, from(EVIL)), 200);
    expectStatus(await api.request('PATCH', '/api/account/attributes', { mode: 'dark' }, from(OWN)), 200);
    expectStatus(await api.request('PATCH', '/api/account/attributes', { mode: 'light' }, { token: session.token }), 200);
    // The app opened at another address of this server (127.0.0.1, a LAN address) is the app.
    expectStatus(await api.request('PATCH', '/api/account/attributes', { mode: 'dark' }, { token: session.token, headers: { origin: 'http://127.0.0.1:8080', host: '127.0.0.1:8080' } }), 200);
    expectStatus(await api.request('POST', '/api/auth/logout', undefined, { cookie: session.token, headers: { origin: OWN } }), 200);
  });

  it('[R57] refuses a WebSocket handshake from another origin', async () => {
    const app = await env.buildApp();
    const { token } = await newSession(new ApiClient(app), env.dataDir, await TestUser.create());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const url = `ws://127.0.0.1:${address.port}/api/ws`;
    try {
      await expect(connectSocket(url, { cookie: `cairn_session=${token}`, origin: EVIL }).opened).rejects.toThrow('HTTP 403');
      await expect(connectSocket(`${url}?token=${token}`, { origin: EVIL }).opened).rejects.toThrow('HTTP 403');
      const allowed: Record<string, string>[] = [{ cookie: `cairn_session=${token}`, origin: OWN }, { cookie: `cairn_session=${token}` }];
      for (const headers of allowed) {
        const client = connectSocket(url, headers);
        await client.opened;
        expect((await client.nextCount(1))[0]?.type).toBe('hello');
        client.socket.close();
      }
    } finally {
      await app.close();
    }
  });
});
