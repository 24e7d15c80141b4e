import { describe, expect, it } from 'vitest';
import { ServerMessage } from '../../src/protocol/ws';
import { PROTOCOL_VERSION } from '../../src/protocol/version';
import { type ClientConnection, LocalSocketHub } from './SocketHub';

/** The in-memory side of a connection: records what the hub sends. */
class MemoryConnection implements ClientConnection {
  readonly sent: ServerMessage[] = [];
  closed: { code?: number; reason?: string } | null = null;
  constructor(readonly userId: string) {}
  send(message: ServerMessage): void {
    this.sent.push(ServerMessage.parse(message));
  }
  close(code?: number, reason?: string): void {
    this.closed = { ...(code !== undefined ? { code } : {}), ...(reason !== undefined ? { reason } : {}) };
  }
}

describe('LocalSocketHub', () => {
  it('greets, answers pings and rejects anything else without closing', () => {
    const hub = new LocalSocketHub();
    const connection = new MemoryConnection('u1');
    const session = hub.open(connection);
    for (const frame of ['{"type":"ping","id":"1"}', 'not json', '{"type":"nope"}', '{"type":"ping"}', '[]', '{"type":"ping","id":"2","x":1}', '']) {
      session.receive(frame);
    }
    session.receive('{"type":"ping","id":"3"}');
    expect(connection.sent.map((m) => m.type)).toEqual(['hello', 'pong', 'error', 'error', 'error', 'error', 'error', 'error', 'pong']);
    expect(connection.sent[0]).toEqual({ type: 'hello', protocolVersion: PROTOCOL_VERSION });
    expect(connection.sent[2]).toMatchObject({ type: 'error', error: { code: 'BAD_REQUEST' } });
    expect(connection.closed).toBeNull();
  });

  it('sends to every connection of a user until they close', () => {
    const hub = new LocalSocketHub();
    const a = new MemoryConnection('u1');
    const b = new MemoryConnection('u1');
    const other = new MemoryConnection('u2');
    const sessionA = hub.open(a);
    hub.open(b);
    hub.open(other);
    sessionA.close();
    hub.sendToUser('u1', { type: 'pong', id: 'x' });
    expect(a.sent).toHaveLength(1);
    expect(b.sent.at(-1)).toEqual({ type: 'pong', id: 'x' });
    expect(other.sent).toHaveLength(1);
    hub.closeAll();
    expect(b.closed).toEqual({ code: 1001, reason: 'Server shutting down' });
  });
});
