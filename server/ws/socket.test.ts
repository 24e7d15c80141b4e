import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../src/protocol/version';
import { ServerMessage } from '../../src/protocol/ws';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { newSession } from '../testing/flows';
import { TestUser } from '../testing/TestUser';

/** The part of the `ws` client used here (`ws` ships with @fastify/websocket; no @types/ws installed). */
interface WsClient {
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'unexpected-response', listener: (req: unknown, res: { statusCode: number }) => void): void;
  on(event: 'open' | 'close' | 'error', listener: (...args: unknown[]) => void): void;
  send(data: string | Buffer): void;
  close(): void;
}
type WsConstructor = new (url: string, options?: { headers?: Record<string, string> }) => WsClient;
const WebSocket: WsConstructor = createRequire(import.meta.url)('ws');

/** Opens a socket and collects parsed server messages. */
function connect(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  const messages: ServerMessage[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data: Buffer) => {
    messages.push(ServerMessage.parse(JSON.parse(data.toString('utf8'))));
    waiters.splice(0).forEach((wake) => wake());
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve());
    socket.on('error', (error) => reject(error));
    socket.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  const nextCount = async (count: number) => {
    while (messages.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return messages.slice(0, count);
  };
  return { socket, messages, opened, nextCount };
}

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
