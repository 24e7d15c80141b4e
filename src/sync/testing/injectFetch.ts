/**
 * fetch over Fastify's app.inject for sync tests against the REAL server (no sockets): the
 * apiClient's and the transfer worker's requests reach the routes in-process, carrying the
 * device's bearer token.
 */
import type { FastifyInstance } from 'fastify';

export function injectFetch(app: () => FastifyInstance, token: () => string): typeof fetch {
  const doFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    headers.authorization = `Bearer ${token()}`;
    let payload: string | Buffer | undefined;
    const body = init.body;
    if (typeof body === 'string') payload = body;
    else if (body instanceof ArrayBuffer) payload = Buffer.from(body);
    else if (ArrayBuffer.isView(body)) payload = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    else if (body instanceof Blob) payload = Buffer.from(await body.arrayBuffer());
    const response = await app().inject({
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
  };
  return doFetch as typeof fetch;
}
