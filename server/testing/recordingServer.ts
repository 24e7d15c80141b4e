/**
 * A local HTTP server that stands in for an outside API (an SMS provider, a webhook): it records
 * every request it gets and answers as the test says, or never (to see a caller's timeout).
 */
import http from 'node:http';

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Answer = { status: number; body?: string; contentType?: string } | 'never';

export class RecordingServer {
  readonly requests: RecordedRequest[] = [];
  /** What the next requests get; change it between requests. */
  answer: Answer = { status: 200, body: '{}', contentType: 'application/json' };
  private readonly server = http.createServer((request, response) => void this.handle(request, response));

  static async start(): Promise<RecordingServer> {
    const server = new RecordingServer();
    await new Promise<void>((resolve) => server.server.listen(0, '127.0.0.1', resolve));
    return server;
  }

  get url(): string {
    const address = this.server.address();
    if (!address || typeof address !== 'object') throw new Error('The recording server is not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  stop(): Promise<void> {
    if (!this.server.listening) return Promise.resolve();
    // Requests left hanging by 'never' would keep close() waiting.
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const pieces: Buffer[] = [];
    for await (const piece of request) pieces.push(piece as Buffer);
    this.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(pieces).toString('utf8') });
    const answer = this.answer;
    if (answer === 'never') return;
    response.writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json' });
    response.end(answer.body ?? '');
  }
}
