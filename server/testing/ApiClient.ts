import type { FastifyInstance } from 'fastify';

export interface ApiResponse {
  status: number;
  /** Parsed JSON, or undefined for a non-JSON answer. */
  body: unknown;
  headers: Record<string, string | string[] | number | undefined>;
  /** Set-Cookie values by cookie name. */
  cookies: Record<string, { value: string; maxAge?: number; httpOnly?: boolean; sameSite?: string; path?: string }>;
  raw: string;
}

/**
 * HTTP through `app.inject`, with every request body kept (for the "no secret leaves the device"
 * scan). `app` can be swapped to talk to a rebuilt app.
 */
export class ApiClient {
  readonly sentBodies: string[] = [];
  readonly sentUrls: string[] = [];

  constructor(public app: FastifyInstance) {}

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD',
    url: string,
    body?: unknown,
    options: { token?: string; cookie?: string; headers?: Record<string, string>; rawBody?: string } = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.cookie) headers.cookie = `cairn_session=${options.cookie}`;
    let payload: string | undefined = options.rawBody;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) {
      headers['content-type'] ??= 'application/json';
      this.sentBodies.push(payload);
    }
    this.sentUrls.push(url);
    const response = await this.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
    let json: unknown;
    try {
      json = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    const cookies: ApiResponse['cookies'] = {};
    for (const cookie of response.cookies) {
      cookies[cookie.name] = {
        value: cookie.value,
        ...(cookie.maxAge !== undefined ? { maxAge: cookie.maxAge } : {}),
        ...(cookie.httpOnly !== undefined ? { httpOnly: cookie.httpOnly } : {}),
        ...(typeof cookie.sameSite === 'string' ? { sameSite: cookie.sameSite } : {}),
        ...(cookie.path !== undefined ? { path: cookie.path } : {}),
      };
    }
    return { status: response.statusCode, body: json, headers: response.headers, cookies, raw: response.body };
  }

  get(url: string, options?: { token?: string; cookie?: string; headers?: Record<string, string> }) {
    return this.request('GET', url, undefined, options);
  }

  post(url: string, body?: unknown, options?: { token?: string; cookie?: string }) {
    return this.request('POST', url, body, options);
  }
}

/** `body.error.code` of an error answer, or undefined. */
export function errorCode(response: ApiResponse): string | undefined {
  const body = response.body;
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = body.error;
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
