import { ClientMessage, type ServerMessage } from '../../src/protocol/ws';
import { PROTOCOL_VERSION } from '../../src/protocol/version';
import { type Clock, systemClock } from '../services/Clock';

/** The close code and reason of a socket whose session ended (logout, password change, expiry...). */
export const SESSION_ENDED_CLOSE = { code: 1008, reason: 'Session ended' } as const;

/** One open client socket, already authenticated. Adapters wrap `ws` (production) or memory (tests). */
export interface ClientConnection {
  readonly userId: string;
  /** The hash of the session token that opened it: the socket ends with that session. */
  readonly sessionHash?: string;
  /** When that session expires (ms); nothing is sent past it. */
  readonly expiresAt?: number;
  send(message: ServerMessage): void;
  /** Sends a message already serialised (one JSON text for many sockets). */
  sendText?(text: string): void;
  close(code?: number, reason?: string): void;
}

/**
 * The realtime layer behind /api/ws. Transport-free, so the same hub runs over real sockets and
 * in-memory connections. Vault pokes reach it through server/realtime (PostgreSQL LISTEN/NOTIFY
 * when several processes share one database).
 */
export interface SocketHub {
  /** Registers a connection, sends `hello`, and returns the handlers for its frames and its end. */
  open(connection: ClientConnection): { receive(data: string): void; close(): void };
  sendToUser(userId: string, message: ServerMessage): void;
  /** Sends one message to every socket of `userIds`, serialised once. */
  sendToUsers(userIds: Iterable<string>, message: ServerMessage): void;
  /** True while at least one socket is open in this process. */
  hasConnections(): boolean;
  /** Open sockets in this process (the metrics' gauge). */
  connectionCount(): number;
  /** Closes every connection (shutdown). */
  closeAll(): void;
  /** Closes the sockets opened with any of these sessions (they ended). */
  closeSessions(sessionHashes: Iterable<string>): void;
  /** Closes the sockets whose session has expired; returns the session hashes still open. */
  closeExpired(): string[];
}

/** The single-process hub: connections kept in memory by user. */
export class LocalSocketHub implements SocketHub {
  private readonly byUser = new Map<string, Set<ClientConnection>>();

  constructor(private readonly clock: Clock = systemClock) {}

  open(connection: ClientConnection): { receive(data: string): void; close(): void } {
    let set = this.byUser.get(connection.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(connection.userId, set);
    }
    set.add(connection);
    connection.send({ type: 'hello', protocolVersion: PROTOCOL_VERSION });
    return {
      receive: (data) => this.receive(connection, data),
      close: () => this.forget(connection),
    };
  }

  sendToUser(userId: string, message: ServerMessage): void {
    for (const connection of this.liveOf(userId)) connection.send(message);
  }

  sendToUsers(userIds: Iterable<string>, message: ServerMessage): void {
    let text: string | null = null;
    for (const userId of userIds) {
      for (const connection of this.liveOf(userId)) {
        if (connection.sendText) connection.sendText((text ??= JSON.stringify(message)));
        else connection.send(message);
      }
    }
  }

  closeSessions(sessionHashes: Iterable<string>): void {
    const ended = new Set(sessionHashes);
    if (ended.size === 0) return;
    for (const set of [...this.byUser.values()]) {
      for (const connection of [...set]) {
        if (connection.sessionHash !== undefined && ended.has(connection.sessionHash)) this.end(connection);
      }
    }
  }

  closeExpired(): string[] {
    const open = new Set<string>();
    for (const userId of [...this.byUser.keys()]) {
      for (const connection of this.liveOf(userId)) if (connection.sessionHash !== undefined) open.add(connection.sessionHash);
    }
    return [...open];
  }

  hasConnections(): boolean {
    return this.byUser.size > 0;
  }

  connectionCount(): number {
    let count = 0;
    for (const set of this.byUser.values()) count += set.size;
    return count;
  }

  closeAll(): void {
    for (const set of this.byUser.values()) for (const connection of set) connection.close(1001, 'Server shutting down');
    this.byUser.clear();
  }

  /**
   * The user's connections whose session has not expired. An expired one is closed here rather
   * than sent to: an expiry is noticed by no request, and a poke or a notification must not reach
   * a session that has ended.
   */
  private liveOf(userId: string): ClientConnection[] {
    const set = this.byUser.get(userId);
    if (!set) return [];
    const now = this.clock.now();
    const live: ClientConnection[] = [];
    for (const connection of [...set]) {
      if (connection.expiresAt !== undefined && connection.expiresAt <= now) this.end(connection);
      else live.push(connection);
    }
    return live;
  }

  private end(connection: ClientConnection): void {
    this.forget(connection);
    connection.close(SESSION_ENDED_CLOSE.code, SESSION_ENDED_CLOSE.reason);
  }

  private forget(connection: ClientConnection): void {
    const current = this.byUser.get(connection.userId);
    current?.delete(connection);
    if (current?.size === 0) this.byUser.delete(connection.userId);
  }

  private receive(connection: ClientConnection, data: string): void {
    if (connection.expiresAt !== undefined && connection.expiresAt <= this.clock.now()) {
      this.end(connection);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      connection.send(badRequest('The message is not valid JSON'));
      return;
    }
    const message = ClientMessage.safeParse(json);
    if (!message.success) {
      connection.send(badRequest('Unknown or malformed message'));
      return;
    }
    switch (message.data.type) {
      case 'ping':
        connection.send({ type: 'pong', id: message.data.id });
        break;
    }
  }
}

function badRequest(message: string): ServerMessage {
  return { type: 'error', error: { code: 'BAD_REQUEST', message } };
}
