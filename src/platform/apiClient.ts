/**
 * The one way the browser talks JSON to the server's `/api` (spec 000 section 7: 50 s timeout).
 * Every answer is validated against its protocol schema; every failure is typed:
 * `ApiError` (the server's `{ error }` body, or one rebuilt from the status), `NetworkError`
 * (offline, refused, timed out) or `InvalidResponseError` (an answer that fails its schema).
 */
import type { z } from 'zod';
import { ApiError, type ErrorCode, parseErrorBody } from '../protocol/errors';
import { PROTOCOL_VERSION } from '../protocol/version';

export const REQUEST_TIMEOUT_MS = 50_000;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** The request never got an HTTP answer: offline, DNS/connection failure, or the 50 s timeout. */
export class NetworkError extends Error {
  readonly kind: 'offline' | 'timeout';
  constructor(kind: 'offline' | 'timeout', options?: { cause?: unknown }) {
    super(kind === 'timeout' ? 'The server took too long to answer.' : 'The server could not be reached.', options);
    this.name = 'NetworkError';
    this.kind = kind;
  }
}

/** The server answered 2xx with a body that does not match the protocol schema. */
export class InvalidResponseError extends Error {
  readonly path: string;
  constructor(path: string, options?: { cause?: unknown }) {
    super(`Unexpected answer from the server for ${path}`, options);
    this.name = 'InvalidResponseError';
    this.path = path;
  }
}

export interface ApiClientOptions {
  /** Defaults to the global fetch; tests pass a fake. */
  fetch?: FetchLike;
  /** Defaults to `/api`. */
  baseUrl?: string;
  timeoutMs?: number;
  /**
   * Told of every error answer (an `ApiError`) just before it is thrown, whoever made the request:
   * the account service watches them for a session that ended under the open app.
   */
  onErrorAnswer?: (error: ApiError) => void;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiClient {
  get<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>>;
  post<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.infer<S>>;
  put<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.infer<S>>;
  patch<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.infer<S>>;
  delete<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.infer<S>>;
}

/** The code a status stands for when an error answer has no readable `{ error }` body. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 410:
      return 'EXPIRED';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 422:
      return 'UNPROCESSABLE';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'MAINTENANCE';
    default:
      return 'INTERNAL';
  }
}

/** Builds the ApiError for a non-2xx answer from its (possibly non-JSON) body text. */
export function errorFromResponse(status: number, bodyText: string): ApiError {
  let body: unknown;
  try {
    body = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    body = undefined;
  }
  const parsed = parseErrorBody(body);
  if (parsed) return new ApiError(parsed.code, parsed.message, parsed.details);
  return new ApiError(codeForStatus(status), `Request failed with status ${status}`);
}

function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = options.baseUrl ?? '/api';
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  // Read the global lazily so a test or polyfill installed after import is honoured.
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));

  async function request<S extends z.ZodType>(method: Method, path: string, body: unknown, schema: S): Promise<z.infer<S>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-cairn-protocol': String(PROTOCOL_VERSION),
    };
    const init: RequestInit = {
      method,
      headers,
      credentials: 'same-origin',
      signal: AbortSignal.timeout(timeoutMs),
    };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }

    let response: Response;
    let text: string;
    try {
      response = await doFetch(`${baseUrl}${path}`, init);
      text = await response.text();
    } catch (error) {
      throw new NetworkError(isTimeout(error) ? 'timeout' : 'offline', { cause: error });
    }

    if (!response.ok) {
      const error = errorFromResponse(response.status, text);
      options.onErrorAnswer?.(error);
      throw error;
    }

    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch (error) {
      throw new InvalidResponseError(path, { cause: error });
    }
    const result = schema.safeParse(json);
    if (!result.success) throw new InvalidResponseError(path, { cause: result.error });
    return result.data;
  }

  return {
    get: (path, schema) => request('GET', path, undefined, schema),
    post: (path, body, schema) => request('POST', path, body, schema),
    put: (path, body, schema) => request('PUT', path, body, schema),
    patch: (path, body, schema) => request('PATCH', path, body, schema),
    delete: (path, body, schema) => request('DELETE', path, body, schema),
  };
}

let sharedClient: ApiClient | undefined;
const errorWatchers = new Set<(error: ApiError) => void>();

/** The app's client over the browser's fetch. */
export function getApiClient(): ApiClient {
  sharedClient ??= createApiClient({
    onErrorAnswer: (error) => {
      for (const watcher of errorWatchers) watcher(error);
    },
  });
  return sharedClient;
}

/** Watches the error answers of the app's client (see `onErrorAnswer`). Returns the unsubscribe function. */
export function watchApiErrors(watcher: (error: ApiError) => void): () => void {
  errorWatchers.add(watcher);
  return () => errorWatchers.delete(watcher);
}
