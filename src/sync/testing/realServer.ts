/**
 * The real server for client tests: buildApp on a temp SQLite DATA_DIR with one signed-in user,
 * and `fetch` routed to it through Fastify's `app.inject` with the session's bearer token (what
 * the sync client, its api client and the transfer pool use). Wrap the fetch to take a device
 * offline or lose answers.
 */
import type { FastifyInstance } from 'fastify';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll } from 'vitest';
import { createCryptoApi } from '../../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../../workers/transfer/createTransferApi';
import { createApiClient, type FetchLike } from '../../platform/apiClient';
import { CairnDb } from '../../storage/db';
import { setCurrentSync } from '../currentSync';
import { SyncClient } from '../SyncClient';
import { ApiClient as ServerTestClient } from '../../../server/testing/ApiClient';
import { TestEnv } from '../../../server/testing/databases';
import { newSession } from '../../../server/testing/flows';
import { TestUser } from '../../../server/testing/TestUser';

async function payloadOf(body: RequestInit['body']): Promise<string | Buffer | undefined> {
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof Blob) return Buffer.from(await body.arrayBuffer());
  return undefined;
}

/**
 * `app` and `token` are read on every request, so a test may sign in, or start the server again,
 * after making the fetch.
 */
export function injectFetch(app: () => FastifyInstance, token: () => string): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    headers.authorization = `Bearer ${token()}`;
    const payload = await payloadOf(init.body);
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
  }) as typeof fetch;
}

export class SignedInServer {
  app!: FastifyInstance;
  user!: TestUser;
  token = '';
  userId = '';

  /** `env`: a database the caller has set up (describeEachDatabase's), or a SQLite one of its own. */
  constructor(
    readonly env = new TestEnv('sqlite'),
    private readonly ownsEnv = true,
  ) {}

  /** The signed-in user as the sync client knows it. */
  get me(): { id: string; publicSigningKey: string; address: string } {
    return { id: this.userId, publicSigningKey: this.user.publicSigningKey, address: this.user.address };
  }

  /** A device's way to the server, signed in as the user. */
  fetch(): typeof fetch {
    return injectFetch(() => this.app, () => this.token);
  }

  /**
   * A new device of the user, signed in and started, and the current sync client: its own
   * IndexedDB, the user's wallet, and object ids `{prefix}-000001`, ... (ids are global on the
   * server, so each device of a test file needs its own prefix).
   */
  async startDevice(prefix: string, wrap: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch = (fetch) => fetch): Promise<{ db: CairnDb; client: SyncClient }> {
    const crypto = createCryptoApi();
    await crypto.loadPendingWallet(this.user.phrase.split(' '));
    await crypto.activatePendingWallet();
    const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
    let nextId = 0;
    const client = new SyncClient(
      {
        db,
        crypto,
        api: createApiClient({ fetch: wrap(this.fetch()) as FetchLike }),
        transfer: createTransferApi({ fetch: wrap(this.fetch()) }),
        log: () => {},
        newId: () => `${prefix}-${(nextId += 1).toString(36).padStart(6, '0')}`,
      },
      { pollIntervalMs: 0 },
    );
    client.start(this.userId, this.me);
    setCurrentSync(client);
    return { db, client };
  }

  async setUp(): Promise<void> {
    if (this.ownsEnv) await this.env.setUp();
    this.app = await this.env.buildApp();
    this.user = await TestUser.create();
    const session = await newSession(new ServerTestClient(this.app), this.env.dataDir, this.user);
    this.token = session.token;
    this.userId = session.user.id;
  }
}

/**
 * A SignedInServer set up before the file's (or the describe block's) tests and torn down after
 * them (`beforeTearDown` first); on `env` when given (describeEachDatabase's, which it tears down).
 */
export function signedInServer(beforeTearDown: () => void, env?: TestEnv): SignedInServer {
  const server = env ? new SignedInServer(env, false) : new SignedInServer();
  beforeAll(() => server.setUp(), 60_000);
  afterAll(async () => {
    beforeTearDown();
    if (!env) await server.env.tearDown();
  });
  return server;
}
