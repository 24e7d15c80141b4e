/**
 * The command line as a Cairn device: the app's own crypto API (what the crypto worker runs),
 * transfer API (chunk sealing, upload and checked download), SyncClient and IndexedDB schema
 * (over fake-indexeddb, in memory for the one command), so what `cairn` uploads is the same
 * chunks and signed operations the browser makes, and the reverse. Requests carry the API key as
 * `Authorization: Bearer`, as a session token travels.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { CryptoApi } from '../workers/crypto/CryptoApi';
import { createCryptoApi } from '../workers/crypto/createCryptoApi';
import { createTransferApi } from '../workers/transfer/createTransferApi';
import { isValidPhrase, normalisePhrase } from '../src/crypto/phrase';
import { ApiError } from '../src/protocol/errors';
import { SessionResponse } from '../src/protocol/auth';
import type { AccountUser } from '../src/protocol/auth';
import { createApiClient, NetworkError, type ApiClient, type FetchLike } from '../src/platform/apiClient';
import { CairnDb } from '../src/storage/db';
import { setCurrentSync } from '../src/sync/currentSync';
import { SyncClient } from '../src/sync/SyncClient';
import type { SyncContext } from '../src/sync/SyncContext';
import { CliError, KEY_REFUSED_MESSAGE, WRONG_ACCOUNT_PHRASE_MESSAGE } from './CliError';

export interface ServerAccess {
  server: string;
  apiKey: string;
  /** The network; tests wrap it to cut it midway. */
  fetch: typeof fetch;
  /** Aborted (Ctrl-C): every later request fails as on a lost network. */
  signal?: AbortSignal;
}

/** `fetch` to `server` with the key: paths ('/api/...') are made absolute, the key added to every request. */
export function serverFetch(access: ServerAccess): typeof fetch {
  const base = access.server.replace(/\/+$/, '');
  return ((input: string | URL | Request, init: RequestInit = {}) => {
    if (access.signal?.aborted) return Promise.reject(new TypeError('Failed to fetch'));
    const url = typeof input === 'string' && input.startsWith('/') ? `${base}${input}` : input;
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${access.apiKey}`);
    return access.fetch(url, { ...init, headers });
  }) as typeof fetch;
}

/** A failure of a request, as one line a user can act on. */
export function toCliError(error: unknown, server: string): unknown {
  if (error instanceof ApiError) {
    if (error.status === 401) return new CliError('KEY_REFUSED', KEY_REFUSED_MESSAGE);
    if (error.status === 429) return new CliError('RATE_LIMITED', error.message);
    if (error.status === 403) return new CliError('NOT_MEMBER', error.message);
  }
  if (error instanceof NetworkError) return new CliError('UNREACHABLE', `The server at ${server} could not be reached (offline?).`);
  return error;
}

/** The account the key belongs to (GET /api/account). */
export async function fetchAccount(api: ApiClient, server: string): Promise<AccountUser> {
  try {
    return (await api.get('/account', SessionResponse)).user;
  } catch (error) {
    throw toCliError(error, server);
  }
}

/** The wallet of `phrase`, active in a fresh crypto API, checked to be `account`'s. */
export async function openWallet(phrase: string, account: AccountUser): Promise<CryptoApi> {
  const words = normalisePhrase(phrase);
  if (!isValidPhrase(words)) throw new CliError('WRONG_PHRASE', 'This is not a valid recovery phrase: enter the 12 words Cairn gave you, in order.');
  const crypto = createCryptoApi();
  const wallet = await crypto.loadPendingWallet(words.split(' '));
  if (wallet.address !== account.address) {
    await crypto.clearPendingWallet();
    throw new CliError('WRONG_PHRASE', WRONG_ACCOUNT_PHRASE_MESSAGE);
  }
  await crypto.activatePendingWallet();
  return crypto;
}

export interface CliDevice {
  account: AccountUser;
  db: CairnDb;
  client: SyncClient;
  ctx: SyncContext;
  /** The last thing sync logged as going wrong (the reason a stalled upload gives). */
  lastProblem(): unknown;
  close(): void;
}

/**
 * Signs in as the key's account with `phrase`, starts the app's sync on a fresh in-memory
 * IndexedDB and pulls every vault once: vault names, folders and files are then readable through
 * src/storage as in the app.
 */
export async function openDevice(access: ServerAccess, phrase: string): Promise<CliDevice> {
  const fetchToServer = serverFetch(access);
  const api = createApiClient({ fetch: fetchToServer as FetchLike });
  const account = await fetchAccount(api, access.server);
  const crypto = await openWallet(phrase, account);
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  let problem: unknown = null;
  const client = new SyncClient(
    {
      db,
      api,
      crypto,
      // No Cache Storage in Node: downloads are not kept, every chunk is fetched and checked.
      transfer: createTransferApi({ fetch: fetchToServer, caches: null }),
      log: (_message, detail) => {
        problem = detail ?? _message;
      },
    },
    { pollIntervalMs: 0 },
  );
  client.start(account.id, { id: account.id, publicSigningKey: account.publicSigningKey, address: account.address });
  setCurrentSync(client);
  const close = () => {
    client.stop();
    setCurrentSync(null);
  };
  try {
    if (!(await client.syncAndConfirm())) throw toCliError(problem, access.server) ?? new CliError('UNREACHABLE', `Could not read the vaults from ${access.server}.`);
    await client.idle();
  } catch (error) {
    close();
    if (error instanceof CliError) throw error;
    throw toCliError(error, access.server);
  }
  return { account, db, client, ctx: client.context, lastProblem: () => problem, close };
}
