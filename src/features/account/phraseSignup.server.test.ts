/**
 * Issue 19: 'I already have a recovery phrase' on the sign-up page, through the real account
 * service, the real crypto worker API and the real server (docs/SYNC_SPEC.md R91). The account
 * gets the typed phrase's keys and address, and a later login opens the phrase it wrapped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCryptoApi } from '../../../workers/crypto/createCryptoApi';
import { ApiClient as ServerTestClient } from '../../../server/testing/ApiClient';
import { TestEnv } from '../../../server/testing/databases';
import { verificationLink } from '../../../server/testing/flows';
import { createApiClient, type FetchLike } from '../../platform/apiClient';
import { ApiError } from '../../protocol/errors';
import { injectFetch } from '../../sync/testing/realServer';
import type { FastifyInstance } from 'fastify';
import { createAuthService } from './createAuthService';
import { createSessionStore } from './sessionStore';
import { MemoryStorage, memoryAccounts } from './testing/memoryDevice';

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'.split(' ');
/** DESIGN.md section 2's reference vector. */
const ABANDON_ADDRESS = '654KyaguCVnaojCIaY-ZHqj7KOByyUwCMWi4mJKOhyw';
const ABANDON_SIGNING_KEY = '4dc169ce254e3077194c03865739070de5f89c0b93b6d97cf0f09b9a5a167dfa';
const PASSWORD = 'a long and unusual pass phrase 42';

const env = new TestEnv('sqlite');
let app: FastifyInstance;

beforeAll(async () => {
  await env.setUp();
  app = await env.buildApp();
}, 60_000);

afterAll(async () => {
  await env.tearDown();
});

/** A fresh device: its own crypto worker, session store and account service. */
function device() {
  const crypto = createCryptoApi();
  // The browser keeps the session in an HTTP-only cookie; here the device keeps the bearer token.
  let token = '';
  const inject = injectFetch(() => app, () => token);
  const fetch: FetchLike = async (input, init) => {
    const response = await inject(input, init);
    if (String(input).endsWith('/auth/login/finish') && response.ok) token = String(((await response.clone().json()) as { token?: string }).token ?? '');
    return response;
  };
  const api = createApiClient({ fetch });
  const sessions = createSessionStore({ persistent: new MemoryStorage(), perTab: new MemoryStorage(), channel: null });
  const auth = createAuthService({ api, crypto: () => crypto, accounts: memoryAccounts(), sessions, sleep: async () => undefined, log: () => undefined });
  return { auth, crypto };
}

async function verify(email: string): Promise<void> {
  const link = verificationLink(env.dataDir, email);
  const answer = await new ServerTestClient(app).post('/api/auth/verify-email', { uid: link.uid, code: link.code });
  expect(answer.status).toBe(200);
}

describe('sign-up with an existing recovery phrase (device and server)', () => {
  it('[R91] the account has the typed phrase\'s key and address, and logging in opens that same phrase', async () => {
    const first = device();
    await first.auth.registerAccountWithPhrase('Ada@Example.com ', PASSWORD, ABANDON.map((word, i) => (i === 0 ? ` ${word.toUpperCase()}` : word)));
    // Nothing of the typed phrase stays in the worker once the sign-up is sent.
    expect(await first.crypto.getPendingWords()).toBeNull();
    await verify('ada@example.com');

    const second = device();
    const outcome = await second.auth.login('ada@example.com', PASSWORD, false);
    expect(outcome.status).toBe('ok');
    if (outcome.status !== 'ok') return;
    expect(outcome.user).toMatchObject({ address: ABANDON_ADDRESS, publicSigningKey: ABANDON_SIGNING_KEY });
    // 'Reveal recovery phrase' unwraps encBackupPhrase: the very words typed at sign-up.
    expect(await second.auth.revealPhrase(PASSWORD)).toEqual(ABANDON);
  }, 60_000);

  it('[R91] words that fail the BIP39 checksum are refused on the device and nothing reaches the server', async () => {
    const { auth } = device();
    const wrongChecksum = [...ABANDON.slice(0, 11), 'abandon'];
    await expect(auth.registerAccountWithPhrase('grace@example.com', PASSWORD, wrongChecksum)).rejects.toThrow('INVALID_PHRASE');
    await expect(auth.registerAccountWithPhrase('grace@example.com', PASSWORD, [...ABANDON.slice(0, 11), 'notaword'])).rejects.toThrow('INVALID_PHRASE');
    expect(await env.db.selectFrom('users').select('id').where('email', '=', 'grace@example.com').execute()).toEqual([]);
  }, 60_000);

  it('[R91] the same phrase under another e-mail is refused with PHRASE_TAKEN', async () => {
    const { auth, crypto } = device();
    const refusal = await auth.registerAccountWithPhrase('other@example.com', PASSWORD, ABANDON).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).code).toBe('PHRASE_TAKEN');
    expect(await crypto.getPendingWords()).toBeNull();
  }, 60_000);
});
