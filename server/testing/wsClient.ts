/** A WebSocket client for server tests: collects the server's parsed messages in order. */
import WebSocket from 'ws';
import { ServerMessage } from '../../src/protocol/ws';

export interface TestSocket {
  socket: WebSocket;
  messages: ServerMessage[];
  opened: Promise<void>;
  /** The first `count` messages, once that many arrived. */
  nextCount(count: number): Promise<ServerMessage[]>;
  /** The first message (from the start) matching `predicate`; rejects after `timeoutMs`. */
  waitFor(predicate: (message: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
}

export function connectSocket(url: string, headers: Record<string, string> = {}): TestSocket {
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
  const waitFor = async (predicate: (message: ServerMessage) => boolean, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return { socket, messages, opened, nextCount, waitFor };
}
