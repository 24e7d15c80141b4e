import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../protocol/errors';
import { PROTOCOL_VERSION } from '../protocol/version';
import { createApiClient, type FetchLike, InvalidResponseError, NetworkError, REQUEST_TIMEOUT_MS } from './apiClient';

const Thing = z.object({ id: z.string() });

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function recordingFetch(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    return answer(url, init);
  };
  return { fetch, calls };
}

describe('apiClient', () => {
  it('sends JSON under /api with the protocol header, same-origin credentials and a timeout signal', async () => {
    const { fetch, calls } = recordingFetch(() => json(200, { id: 'a' }));
    const api = createApiClient({ fetch });
    await expect(api.post('/things', { name: 'x' }, Thing)).resolves.toEqual({ id: 'a' });
    const [call] = calls;
    expect(call?.url).toBe('/api/things');
    expect(call?.init.method).toBe('POST');
    expect(call?.init.credentials).toBe('same-origin');
    expect(call?.init.body).toBe('{"name":"x"}');
    const headers = call?.init.headers as Record<string, string>;
    expect(headers['x-cairn-protocol']).toBe(String(PROTOCOL_VERSION));
    expect(headers['content-type']).toBe('application/json');
    expect(call?.init.signal).toBeInstanceOf(AbortSignal);
    expect(REQUEST_TIMEOUT_MS).toBe(50_000);
  });

  it('sends no body and no content type when there is no body', async () => {
    const { fetch, calls } = recordingFetch(() => json(200, { id: 'a' }));
    await createApiClient({ fetch }).get('/things/a', Thing);
    expect(calls[0]?.init.body).toBeUndefined();
    expect((calls[0]?.init.headers as Record<string, string>)['content-type']).toBeUndefined();
  });

  it("rejects with the server's typed error", async () => {
    const { fetch } = recordingFetch(() =>
      json(403, { error: { code: 'USER_NOT_CONFIRMED', message: 'Verify your e-mail first' } }),
    );
    const error = await createApiClient({ fetch }).post('/auth/login/finish', {}, Thing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'USER_NOT_CONFIRMED', status: 403, message: 'Verify your e-mail first' });
  });

  it('tells onErrorAnswer of each error answer, the very error the caller gets, and nothing else', async () => {
    const seen: ApiError[] = [];
    const { fetch } = recordingFetch((url) =>
      url.endsWith('/gone') ? json(401, { error: { code: 'UNAUTHENTICATED', message: 'Please log in.' } }) : json(200, { id: 'a' }),
    );
    const api = createApiClient({ fetch, onErrorAnswer: (error) => seen.push(error) });
    await api.get('/fine', Thing);
    const error = await api.get('/gone', Thing).catch((e: unknown) => e);
    expect(seen).toEqual([error]);
    expect(seen[0]).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });

  it('keeps validation details', async () => {
    const details = [{ path: 'email', message: 'Invalid e-mail address' }];
    const { fetch } = recordingFetch(() => json(400, { error: { code: 'VALIDATION_FAILED', message: 'Bad', details } }));
    const error = await createApiClient({ fetch }).post('/x', {}, Thing).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details });
  });

  it('rebuilds a code from the status when the error body is not ours', async () => {
    const { fetch } = recordingFetch(() => new Response('<html>Bad gateway</html>', { status: 429 }));
    const error = await createApiClient({ fetch }).get('/x', Thing).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429 });

    const unknownCode = recordingFetch(() => json(500, { error: { code: 'NOPE', message: 'x' } }));
    const other = await createApiClient({ fetch: unknownCode.fetch }).get('/x', Thing).catch((e: unknown) => e);
    expect(other).toMatchObject({ code: 'INTERNAL', status: 500 });
  });

  it('turns a failed fetch into an offline NetworkError', async () => {
    const api = createApiClient({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = await api.get('/x', Thing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: 'offline' });
  });

  it('turns the timeout into a timeout NetworkError', async () => {
    const api = createApiClient({
      timeoutMs: 10,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    });
    const error = await api.get('/x', Thing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ kind: 'timeout' });
  });

  it('rejects an answer that does not match the schema', async () => {
    const { fetch } = recordingFetch(() => json(200, { name: 'no id' }));
    await expect(createApiClient({ fetch }).get('/x', Thing)).rejects.toBeInstanceOf(InvalidResponseError);
    const notJson = recordingFetch(() => new Response('not json', { status: 200 }));
    await expect(createApiClient({ fetch: notJson.fetch }).get('/x', Thing)).rejects.toBeInstanceOf(InvalidResponseError);
  });
});
