import { ClientMessage, type ServerMessage } from '../../src/protocol/ws';
import { PROTOCOL_VERSION } from '../../src/protocol/version';

/** One open client socket, already authenticated. Adapters wrap `ws` (production) or memory (tests). */
export interface ClientConnection {
  readonly userId: string;
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
  /** Closes every connection (shutdown). */
  closeAll(): void;
}

/** The single-process hub: connections kept in memory by user. */
export class LocalSocketHub implements SocketHub {
  private readonly byUser = new Map<string, Set<ClientConnection>>();

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
      close: () => {
        const current = this.byUser.get(connection.userId);
        current?.delete(connection);
        if (current?.size === 0) this.byUser.delete(connection.userId);
      },
    };
  }

  sendToUser(userId: string, message: ServerMessage): void {
    for (const connection of this.byUser.get(userId) ?? []) connection.send(message);
  }

  sendToUsers(userIds: Iterable<string>, message: ServerMessage): void {
    let text: string | null = null;
    for (const userId of userIds) {
      for (const connection of this.byUser.get(userId) ?? []) {
        if (connection.sendText) connection.sendText((text ??= JSON.stringify(message)));
        else connection.send(message);
      }
    }
  }

  hasConnections(): boolean {
    return this.byUser.size > 0;
  }

  closeAll(): void {
    for (const set of this.byUser.values()) for (const connection of set) connection.close(1001, 'Server shutting down');
    this.byUser.clear();
  }

  private receive(connection: ClientConnection, data: string): void {
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
