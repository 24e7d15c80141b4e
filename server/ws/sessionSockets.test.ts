/**
 * Issue 18 (trust): a socket lives no longer than the session that opened it. Logout, a password
 * change, recovery, account deletion and expiry close it (1008 'Session ended'), so it hears no
 * further pokes or notifications.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { RecoverRegisterResponse, SessionResult } from '../../src/protocol/auth';
import type { ServerMessage } from '../../src/protocol/ws';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { changePassword, expectStatus, logInSession, newSession } from '../testing/flows';
import { latestMailTo } from '../testing/mailbox';
import { hashToken } from '../services/tokens';
import { TestUser } from '../testing/TestUser';
import { connectSocket, type TestSocket } from '../testing/wsClient';
import { sweepSessions } from './registerSocketRoute';

interface OpenSocket extends TestSocket {
  closed: Promise<{ code: number; reason: string }>;
}

/** What a signed-in device would hear next: a notification-like message for the user. */
const PROBE: ServerMessage = { type: 'pong', id: 'after-the-session' };

describeEachDatabase('sockets end with their session', (env) => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function start(): Promise<{ api: ApiClient; base: string }> {
    app = await env.buildApp();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return { api: new ApiClient(app), base: `ws://127.0.0.1:${address.port}/api/ws` };
  }

  async function open(base: string, token: string): Promise<OpenSocket> {
    const client = connectSocket(`${base}?token=${token}`);
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      client.socket.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString('utf8') })),
    );
    await client.opened;
    await client.nextCount(1);
    return { ...client, closed };
  }

  /** True when the socket still answers a ping. */
  async function answers(client: OpenSocket, id: string): Promise<boolean> {
    client.socket.send(JSON.stringify({ type: 'ping', id }));
    return client.waitFor((m) => m.type === 'pong' && m.id === id, 2_000).then(
      () => true,
      () => false,
    );
  }

  it('[R57] logout closes the socket of that session only', async () => {
    const { api, base } = await start();
    const user = await TestUser.create();
    const first = await newSession(api, env.dataDir, user);
    const second = await logInSession(api, user);
    const loggedOut = await open(base, first.token);
    const other = await open(base, second.token);

    expectStatus(await api.post('/api/auth/logout', undefined, { token: first.token }), 200);
    expect(await loggedOut.closed).toEqual({ code: 1008, reason: 'Session ended' });
    app!.socketHub.sendToUser(first.user.id, PROBE);
    await other.waitFor((m) => m.type === 'pong' && m.id === PROBE.id);
    expect(loggedOut.messages.some((m) => m.type === 'pong')).toBe(false);
    expect(await answers(other, 'still')).toBe(true);
    other.socket.close();
  });

  it("[R57] a password change closes the account's other sockets and keeps the changer's", async () => {
    const { api, base } = await start();
    const user = await TestUser.create();
    const changer = await newSession(api, env.dataDir, user);
    const elsewhere = await logInSession(api, user, true);
    const mine = await open(base, changer.token);
    const theirs = await open(base, elsewhere.token);

    expectStatus(await changePassword(api, user, changer.token, 'a brand new password 42'), 200);
    expect(await theirs.closed).toEqual({ code: 1008, reason: 'Session ended' });
    expect(await answers(mine, 'kept')).toBe(true);
    mine.socket.close();
  });

  it('[R57] recovery closes every socket of the account', async () => {
    const { api, base } = await start();
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const socket = await open(base, session.token);

    expectStatus(await api.post('/api/auth/recover/start', { email: user.email }), 200);
    const link = latestMailTo(env.dataDir, user.email)?.links.find((l) => l.includes('/recover/backup-phrase?'));
    const code = new URL(link ?? 'http://x/').searchParams.get('code') ?? '';
    const newPassword = 'recovered password 77';
    const registration = user.startRegistration(newPassword);
    const register = await api.post('/api/auth/recover/register', { email: user.email, code, registrationRequest: registration.registrationRequest });
    expectStatus(register, 200);
    const { registrationResponse, challenge } = RecoverRegisterResponse.parse(register.body);
    const { registrationRecord, exportKey } = user.finishRegistration(registration.state, registrationResponse, newPassword);
    const encBackupPhrase = await user.sealPhrase(exportKey);
    const signature = await user.sign({ purpose: 'recover', email: user.email, challenge, registrationRecord, encBackupPhrase });
    const finish = await api.post('/api/auth/recover/finish', {
      email: user.email,
      code,
      challenge,
      registrationRecord,
      encBackupPhrase,
      keepSignedIn: false,
      signature,
    });
    expectStatus(finish, 200);
    expect(await socket.closed).toEqual({ code: 1008, reason: 'Session ended' });
    // The new session's socket works.
    const fresh = await open(base, SessionResult.parse(finish.body).token);
    expect(await answers(fresh, 'new')).toBe(true);
    fresh.socket.close();
  });

  it('[R57] deleting the account closes its sockets', async () => {
    const { api, base } = await start();
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const socket = await open(base, session.token);
    const signedAt = env.clock.now();
    const signature = await user.sign({ purpose: 'delete-account', userId: session.user.id, signedAt });
    expectStatus(await api.request('DELETE', '/api/account', { signedAt, signature }, { token: session.token }), 200);
    expect(await socket.closed).toEqual({ code: 1008, reason: 'Session ended' });
  });

  it('[R57] an expired session hears nothing more: its socket is closed instead', async () => {
    const { api, base } = await start();
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const socket = await open(base, session.token);
    env.clock.advance(24 * 60 * 60 * 1000 + 1);
    app!.socketHub.sendToUser(session.user.id, PROBE);
    expect(await socket.closed).toEqual({ code: 1008, reason: 'Session ended' });
    expect(socket.messages.some((m) => m.type === 'pong')).toBe(false);
  });

  it('[R57] the sweep closes a socket whose session another process ended', async () => {
    const { api, base } = await start();
    const user = await TestUser.create();
    const ended = await newSession(api, env.dataDir, user);
    const kept = await logInSession(api, user);
    const gone = await open(base, ended.token);
    const stays = await open(base, kept.token);
    // Another server process on the same database logs the first session out.
    await env.db.deleteFrom('sessions').where('token_hash', '=', hashToken(ended.token)).execute();

    await sweepSessions(app!.socketHub, app!.services, app!);
    expect(await gone.closed).toEqual({ code: 1008, reason: 'Session ended' });
    expect(await answers(stays, 'swept')).toBe(true);
    stays.socket.close();
  });
});
