import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../src/protocol/version';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { newSession } from '../testing/flows';
import { TestUser } from '../testing/TestUser';
import { connectSocket as connect } from '../testing/wsClient';

describeEachDatabase('websocket', (env) => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function listen(): Promise<{ base: string; token: string }> {
    app = await env.buildApp();
    const { token } = await newSession(new ApiClient(app), env.dataDir, await TestUser.create());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return { base: `ws://127.0.0.1:${address.port}/api/ws`, token };
  }

  it('says hello, answers ping, and rejects a malformed message without closing', async () => {
    const { base, token } = await listen();
    const client = connect(`${base}?token=${token}`);
    await client.opened;
    expect((await client.nextCount(1))[0]).toEqual({ type: 'hello', protocolVersion: PROTOCOL_VERSION });
    client.socket.send('{"type":"ping","id":"p1"}');
    client.socket.send('{not json');
    client.socket.send('{"type":"subscribe","vault":"x"}');
    client.socket.send(Buffer.from([0, 1, 2]));
    client.socket.send('{"type":"ping","id":"p2"}');
    const messages = await client.nextCount(6);
    expect(messages.slice(1)).toEqual([
      { type: 'pong', id: 'p1' },
      { type: 'error', error: { code: 'BAD_REQUEST', message: expect.any(String) } },
      { type: 'error', error: { code: 'BAD_REQUEST', message: expect.any(String) } },
      { type: 'error', error: { code: 'BAD_REQUEST', message: expect.any(String) } },
      { type: 'pong', id: 'p2' },
    ]);
    client.socket.close();
  });

  it('authenticates by cookie and refuses a socket without a session', async () => {
    const { base, token } = await listen();
    const byCookie = connect(base, { cookie: `cairn_session=${token}` });
    await byCookie.opened;
    expect((await byCookie.nextCount(1))[0]?.type).toBe('hello');
    byCookie.socket.close();

    await expect(connect(base).opened).rejects.toThrow('HTTP 401');
    await expect(connect(`${base}?token=${'x'.repeat(43)}`).opened).rejects.toThrow('HTTP 401');
  });
});
