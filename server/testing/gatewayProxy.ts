/**
 * The Arweave gateway as one relay reaches it, for tests: a forwarding HTTP proxy in front of a
 * real gateway (arlocal) that records what it forwards (each transaction posted, by id, and each
 * chunk) and can play an outage: from the `cutFrom`-th POST /chunk on it cuts the connection
 * without forwarding, and the `cutAnswerOf`-th is forwarded but its answer cut (stored by the
 * gateway, never acknowledged). One proxy per process in a multi-process test shows which process
 * posted what.
 */
import crypto from 'node:crypto';
import http from 'node:http';

export class GatewayProxy {
  /** The id of every transaction forwarded by POST /tx, in order. */
  readonly postedTxIds: string[] = [];
  /** POST /chunk requests forwarded to the gateway (whatever it answered). */
  postedChunks = 0;
  /** null: no outage. Otherwise the POST /chunk number (from 1) from which connections are cut unforwarded. */
  cutFrom: number | null = null;
  /** null: none. Otherwise the POST /chunk number forwarded whose answer is cut. */
  cutAnswerOf: number | null = null;
  private chunkRequests = 0;
  private readonly stored: { offset: number; sha256: string }[] = [];
  private readonly server = http.createServer((request, response) => void this.handle(request, response));

  constructor(private readonly upstream: string) {}

  get url(): string {
    const address = this.server.address();
    if (!address || typeof address !== 'object') throw new Error('The gateway proxy is not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  start(): Promise<void> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    if (!this.server.listening) return Promise.resolve();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The chunks the gateway accepted (a 2xx answer), in the order it got them. */
  storedChunks(): { offset: number; sha256: string }[] {
    return [...this.stored];
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const pieces: Buffer[] = [];
    for await (const piece of request) pieces.push(piece as Buffer);
    const body = Buffer.concat(pieces);
    const isChunk = request.method === 'POST' && request.url === '/chunk';
    const number = isChunk ? (this.chunkRequests += 1) : 0;
    if (isChunk && this.cutFrom !== null && number >= this.cutFrom && number !== this.cutAnswerOf) {
      request.socket.destroy();
      return;
    }
    const answer = await fetch(`${this.upstream}${request.url}`, {
      method: request.method,
      headers: { 'content-type': String(request.headers['content-type'] ?? 'application/json') },
      ...(request.method === 'POST' ? { body } : {}),
    });
    const answerBody = Buffer.from(await answer.arrayBuffer());
    if (request.method === 'POST' && request.url === '/tx') this.postedTxIds.push((JSON.parse(body.toString()) as { id: string }).id);
    if (isChunk) {
      this.postedChunks += 1;
      if (answer.ok) {
        const chunk = JSON.parse(body.toString()) as { offset: string; chunk: string };
        this.stored.push({ offset: Number(chunk.offset), sha256: crypto.createHash('sha256').update(Buffer.from(chunk.chunk, 'base64url')).digest('hex') });
      }
    }
    if (isChunk && number === this.cutAnswerOf) {
      request.socket.destroy();
      return;
    }
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' });
    response.end(answerBody);
  }
}
