/**
 * An `inject` over real HTTP, so the API test clients (ApiClient, VaultActor, the flows) can drive
 * a server running in another process: benchmarks and multi-process tests.
 */
import type { FastifyInstance } from 'fastify';

interface InjectOptions {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

export function httpApp(baseUrl: string): FastifyInstance {
  const inject = async (options: InjectOptions) => {
    const response = await fetch(`${baseUrl}${options.url}`, {
      method: options.method,
      headers: options.headers ?? {},
      ...(options.payload !== undefined ? { body: typeof options.payload === 'string' ? options.payload : new Uint8Array(options.payload) } : {}),
    });
    const rawPayload = Buffer.from(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const cookies = response.headers.getSetCookie().map((line) => {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const [name = '', value = ''] = pair.split('=');
      const attribute = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(key.toLowerCase()));
      const maxAge = attribute('max-age=');
      return {
        name,
        value,
        ...(maxAge ? { maxAge: Number(maxAge.split('=')[1]) } : {}),
        httpOnly: attribute('httponly') !== undefined,
        ...(attribute('samesite=') ? { sameSite: attribute('samesite=')!.split('=')[1] } : {}),
        ...(attribute('path=') ? { path: attribute('path=')!.split('=')[1] } : {}),
      };
    });
    return { statusCode: response.status, body: rawPayload.toString('utf8'), rawPayload, headers, cookies };
  };
  return { inject } as unknown as FastifyInstance;
}
