import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PING_INTERVAL_MS, PING_TIMEOUT_MS, RECONNECT_BASE_MS, RECONNECT_MAX_MS, RealtimeConnection, reconnectDelay, type SocketLike } from './realtime';

class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readonly sent: string[] = [];
  closedWith: number | undefined;
  send(data: string): void {
    this.sent.push(data);
  }
  close(code?: number): void {
    this.closedWith = code;
    this.readyState = 3;
    this.onclose?.();
  }
  serverSays(message: unknown): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.();
  }
}

function setUp(options: { online?: () => boolean; random?: () => number } = {}) {
  const sockets: FakeSocket[] = [];
  const pokes: [string, number][] = [];
  const states: string[] = [];
  const notifications: unknown[] = [];
  const storageTxs: unknown[] = [];
  const balances: [string, number][] = [];
  const webhookLogs: unknown[] = [];
  let opens = 0;
  const connection = new RealtimeConnection({
    url: 'ws://cairn.test/api/ws',
    openSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    onPoke: (vaultId, seq) => pokes.push([vaultId, seq]),
    onNotification: (notification) => notifications.push(notification),
    onStorageTransaction: (transaction) => storageTxs.push(transaction),
    onTokenBalance: (balance, headSeq) => balances.push([balance, headSeq]),
    onWebhookLog: (log) => webhookLogs.push(log),
    onOpen: () => (opens += 1),
    onState: (state) => states.push(state),
    random: options.random ?? (() => 1),
    ...(options.online ? { isOnline: options.online } : {}),
  });
  return { connection, sockets, pokes, states, notifications, storageTxs, balances, webhookLogs, opens: () => opens };
}

describe('realtime connection (SYNC_SPEC R3, R5)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('R3: opens on hello, then hands pokes over; malformed frames are ignored', () => {
    const { connection, sockets, pokes, states, opens } = setUp();
    connection.start();
    expect(states).toEqual(['connecting']);
    sockets[0]!.serverSays({ type: 'hello', protocolVersion: 1 });
    expect(states).toEqual(['connecting', 'open']);
    expect(opens()).toBe(1);
    sockets[0]!.serverSays({ type: 'poke', vaultId: 'v1', seq: 7 });
    sockets[0]!.serverSays('{not json');
    sockets[0]!.serverSays({ type: 'poke', vaultId: 'v1', seq: -1 });
    sockets[0]!.serverSays({ type: 'surprise' });
    expect(pokes).toEqual([['v1', 7]]);
    connection.stop();
    expect(states.at(-1)).toBe('closed');
  });

  it('R31: hands a notification message over; a malformed one is ignored', () => {
    const { connection, sockets, notifications } = setUp();
    connection.start();
    sockets[0]!.serverSays({ type: 'hello', protocolVersion: 1 });
    const notification = {
      id: 'n1',
      event: 'STACK_CREATE',
      objectType: 'stack',
      objectId: 'f1',
      vaultId: 'v1',
      fromEmail: 'ann@example.com',
      status: 'UNREAD',
      createdAt: 1,
      count: 2,
      priority: 'NORMAL',
    };
    sockets[0]!.serverSays({ type: 'notification', notification });
    sockets[0]!.serverSays({ type: 'notification', notification: { ...notification, event: 'NOT_AN_EVENT' } });
    expect(notifications).toEqual([notification]);
    connection.stop();
  });

  it('R38: hands a storage transaction message over; a malformed one is ignored', () => {
    const { connection, sockets, storageTxs } = setUp();
    connection.start();
    sockets[0]!.serverSays({ type: 'hello', protocolVersion: 1 });
    const transaction = {
      id: 't1',
      vaultId: 'v1',
      fileId: 'f1',
      versionId: 'ver1',
      dataItemId: null,
      txId: null,
      size: 10,
      reward: null,
      status: 'SCHEDULED',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    sockets[0]!.serverSays({ type: 'storageTransaction', transaction });
    sockets[0]!.serverSays({ type: 'storageTransaction', transaction: { ...transaction, status: 'LOST' } });
    expect(storageTxs).toEqual([transaction]);
    connection.stop();
  });

  it('hands a webhookLog message over (issue 24); a malformed one (an event of no such name) is ignored', () => {
    const { connection, sockets, webhookLogs } = setUp();
    connection.start();
    sockets[0]!.serverSays({ type: 'hello', protocolVersion: 1 });
    const log = {
      id: 'log-1',
      webhookId: 'hook-1',
      deliveryStatus: true,
      event: 'file.uploaded',
      createdAt: 1,
      url: 'https://receiver.example/hook',
      attempt: 1,
      requestBody: '{}',
      responseBody: 'ok',
      responseStatusCode: 200,
    };
    sockets[0]!.serverSays({ type: 'webhookLog', log });
    sockets[0]!.serverSays({ type: 'webhookLog', log: { ...log, event: 'FILE_UPLOADED' } });
    expect(webhookLogs).toEqual([log]);
    connection.stop();
  });

  it('[R109] hands a tokenBalance message over; a malformed one (a float, a negative seq) is ignored', () => {
    const { connection, sockets, balances } = setUp();
    connection.start();
    sockets[0]!.serverSays({ type: 'hello', protocolVersion: 1 });
    sockets[0]!.serverSays({ type: 'tokenBalance', balance: '1250000', headSeq: 4 });
    sockets[0]!.serverSays({ type: 'tokenBalance', balance: '1.5', headSeq: 5 });
    sockets[0]!.serverSays({ type: 'tokenBalance', balance: '7', headSeq: -1 });
    expect(balances).toEqual([['1250000', 4]]);
    connection.stop();
  });

  it('R5: reconnects with exponential backoff and jitter, capped, and resets after a hello', () => {
    expect(reconnectDelay(0, () => 0)).toBe(RECONNECT_BASE_MS / 2);
    expect(reconnectDelay(0, () => 1)).toBe(RECONNECT_BASE_MS);
    expect(reconnectDelay(3, () => 1)).toBe(8 * RECONNECT_BASE_MS);
    expect(reconnectDelay(50, () => 1)).toBe(RECONNECT_MAX_MS);
    expect(reconnectDelay(50, () => 0)).toBe(RECONNECT_MAX_MS / 2);

    const { connection, sockets, opens } = setUp();
    connection.start();
    sockets[0]!.drop();
    vi.advanceTimersByTime(RECONNECT_BASE_MS - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop();
    vi.advanceTimersByTime(2 * RECONNECT_BASE_MS - 1);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    // A successful hello resets the backoff, and the sync client catches up on what it missed.
    sockets[2]!.serverSays({ type: 'hello', protocolVersion: 1 });
    expect(opens()).toBe(1);
    sockets[2]!.drop();
    vi.advanceTimersByTime(RECONNECT_BASE_MS);
    expect(sockets).toHaveLength(4);
    sockets[3]!.serverSays({ type: 'hello', protocolVersion: 1 });
    expect(opens()).toBe(2);
    connection.stop();
    vi.advanceTimersByTime(RECONNECT_MAX_MS * 2);
    expect(sockets).toHaveLength(4);
  });

  it('R5: a link that stops answering pings is closed and reconnected', () => {
    const { connection, sockets } = setUp();
    connection.start();
    sockets[0]!.serverSays({ type: 'hello', protocolVersion: 1 });
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(JSON.parse(sockets[0]!.sent[0]!)).toMatchObject({ type: 'ping' });
    sockets[0]!.serverSays({ type: 'pong', id: 'p1' });
    vi.advanceTimersByTime(PING_TIMEOUT_MS);
    expect(sockets[0]!.closedWith).toBeUndefined();
    vi.advanceTimersByTime(PING_INTERVAL_MS - PING_TIMEOUT_MS);
    vi.advanceTimersByTime(PING_TIMEOUT_MS);
    expect(sockets[0]!.closedWith).toBe(4001);
    vi.advanceTimersByTime(RECONNECT_BASE_MS);
    expect(sockets).toHaveLength(2);
    connection.stop();
  });

  it('R5: does not dial while offline, and dials at once when back online', () => {
    let online = false;
    const { connection, sockets, states } = setUp({ online: () => online });
    connection.start();
    vi.advanceTimersByTime(RECONNECT_MAX_MS * 3);
    expect(sockets).toHaveLength(0);
    expect(states).toEqual([]);
    online = true;
    connection.reconnectNow();
    expect(sockets).toHaveLength(1);
    connection.stop();
  });
});
