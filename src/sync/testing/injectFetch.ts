/**
 * `fetch` routed to a real server through Fastify's `app.inject`, carrying a session's bearer
 * token: what the sync client, its api client and the transfer pool use in tests that run
 * against buildApp. Wrap it to take a device offline or lose answers.
 */
import type { FastifyInstance } from 'fastify';

async function payloadOf(body: RequestInit['body']): Promise<string | Buffer | undefined> {
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof Blob) return Buffer.from(await body.arrayBuffer());
  return undefined;
}

/** `token` is read on every request, so a test may sign in after making the fetch. */
export function injectFetch(app: FastifyInstance, token: () => string): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    headers.authorization = `Bearer ${token()}`;
    const payload = await payloadOf(init.body);
    const response = await app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: String(input),
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    const outHeaders = new Headers();
    for (const [key, value] of Object.entries(response.headers)) {
      if (value !== undefined) outHeaders.set(key, Array.isArray(value) ? value.join(', ') : String(value));
    }
    const isEmpty = response.statusCode === 204 || response.statusCode === 304;
    return new Response(isEmpty ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers: outHeaders });
  }) as typeof fetch;
}
