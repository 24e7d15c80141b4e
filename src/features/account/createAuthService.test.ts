import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { CryptoApi, PublicWallet, StoredWallet } from '../../../workers/crypto/CryptoApi';
import type { AccountUser } from '../../protocol/auth';
import { ApiError } from '../../protocol/errors';
import { createApiClient, type FetchLike } from '../../platform/apiClient';
import { createAuthService, LINK_SESSION_ENDED_TEXT, type LocalAccountStore, SESSION_ENDED_TEXT, USER_NOT_INITIALIZED_TEXT } from './createAuthService';
import { createSessionStore, SESSION_KEY, type StorageLike } from './sessionStore';

const WALLET: PublicWallet = {
  address: 'A'.repeat(43),
  publicSigningKey: 'a'.repeat(64),
  publicEncryptionKey: 'b'.repeat(64),
};

function userOf(overrides: Partial<AccountUser> = {}): AccountUser {
  return {
    id: 'user1',
    email: 'ada@example.com',
    ...WALLET,
    encBackupPhrase: 'sealed',
    name: null,
    hasPhoto: false,
    mode: 'auto',
    notifications: true,
    notifyOnUpload: true,
    onboarding: false,
    mfaType: null,
    mfaDevice: null,
    passwordless: false,
    referralId: 'ref',
    createdAt: 1,
    ...overrides,
  };
}

class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

/** The worker's contract with no real cryptography: the password 'correct horse' is right. */
function fakeCrypto(unlocksTo: PublicWallet = WALLET) {
  let active: PublicWallet | null = null;
  const calls: string[] = [];
  const signed: { payload: unknown; usePending: boolean }[] = [];
  const api: Partial<CryptoApi> = {
    startLogin: async (password) => ({ handle: password, startLoginRequest: 'req' }),
    finishLogin: async (handle) => (handle === 'correct horse' ? { finishLoginRequest: 'fin' } : null),
    unlockWallet: async (_handle, _enc, expected) => {
      if (expected.address !== unlocksTo.address) throw new Error('USER_NOT_INITIALIZED');
      active = unlocksTo;
      return unlocksTo;
    },
    storeWallet: async () => ({ deviceKey: {} as CryptoKey, sealed: JSON.stringify(active) }),
    restoreWallet: async (stored: StoredWallet) => {
      active = JSON.parse(stored.sealed) as PublicWallet;
      return active;
    },
    lock: async () => {
      calls.push('lock');
      active = null;
    },
    startRegistration: async () => ({ handle: 'reg', registrationRequest: 'regreq' }),
    finishRegistration: async (_handle, _response, source) => ({ registrationRecord: `record-${source}`, encBackupPhrase: 'newenc' }),
    loadPendingWalletFromEntropy: async (entropy) => {
      if (entropy !== 'AAAAAAAAAAAAAAAAAAAAAA') throw new Error('INVALID_PHRASE');
      calls.push('loadPending');
      return unlocksTo;
    },
    activatePendingWallet: async () => {
      active = unlocksTo;
      return unlocksTo;
    },
    clearPendingWallet: async () => void calls.push('clearPending'),
    signPayload: async (payload, usePending) => {
      signed.push({ payload, usePending: usePending ?? false });
      return 's'.repeat(86);
    },
  };
  return { api: api as CryptoApi, calls, signed, getActive: () => active };
}

type Handler = (body: unknown) => { status: number; body: unknown };

function fakeServer(routes: Record<string, Handler>) {
  const hits: string[] = [];
  const fetch: FetchLike = async (url, init) => {
    const key = `${init.method} ${url.replace(/^\/api/, '')}`;
    hits.push(key);
    const handler = routes[key];
    if (!handler) return new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: key } }), { status: 404 });
    const answer = handler(init.body ? JSON.parse(String(init.body)) : undefined);
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  };
  return { fetch, hits };
}

function memoryAccounts(): LocalAccountStore & { wallets: Map<string, StoredWallet>; users: Map<string, AccountUser>; wiped: string[] } {
  const wallets = new Map<string, StoredWallet>();
  const users = new Map<string, AccountUser>();
  const wiped: string[] = [];
  return {
    wallets,
    users,
    wiped,
    saveWallet: async (id, stored) => void wallets.set(id, stored),
    loadWallet: async (id) => wallets.get(id),
    deleteWallet: async (id) => void wallets.delete(id),
    wipeAccountData: async (id) => {
      wiped.push(id);
      users.delete(id);
    },
    saveAccount: async (user) => void users.set(user.id, user),
    getAccount: async (id) => users.get(id),
  };
}

const ok = (body: unknown) => () => ({ status: 200, body });
const fail = (status: number, code: string) => () => ({ status, body: { error: { code, message: code } } });

function setup(routes: Record<string, Handler>, options: { crypto?: ReturnType<typeof fakeCrypto>; local?: MemoryStorage; perTab?: MemoryStorage } = {}) {
  const server = fakeServer(routes);
  const crypto = options.crypto ?? fakeCrypto();
  const accounts = memoryAccounts();
  const local = options.local ?? new MemoryStorage();
  const perTab = options.perTab ?? new MemoryStorage();
  const sessions = createSessionStore({ persistent: local, perTab, channel: null });
  const sleeps: number[] = [];
  // Wired as authService.ts wires the app's client: every error answer reaches the service.
  const watchers = new Set<(error: ApiError) => void>();
  const api = createApiClient({ fetch: server.fetch, onErrorAnswer: (error) => watchers.forEach((watch) => watch(error)) });
  const auth = createAuthService({
    api,
    crypto: () => crypto.api,
    accounts,
    sessions,
    watchApiErrors: (watch) => {
      watchers.add(watch);
      return () => watchers.delete(watch);
    },
    sleep: async (ms) => void sleeps.push(ms),
    log: () => undefined,
  });
  return { auth, api, server, crypto, accounts, local, perTab, sleeps };
}

const LOGIN_START = { 'POST /auth/login/start': ok({ loginId: 'l1', loginResponse: 'resp' }) };
const SESSION = (user: AccountUser) => ({ status: 'ok', user, token: 't', expiresAt: null });

describe('authService login', () => {
  it('a wrong password fails on the device without asking the server to finish', async () => {
    const { auth, server } = setup({ ...LOGIN_START });
    const error = await auth.login('Ada@Example.com ', 'wrong password', false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('INVALID_CREDENTIALS');
    expect(server.hits).toEqual(['POST /auth/login/start']);
  });

  it("'Keep me signed in' stores the session record in localStorage and the sealed wallet in IndexedDB", async () => {
    const user = userOf();
    const { auth, accounts, local, perTab } = setup({ ...LOGIN_START, 'POST /auth/login/finish': ok(SESSION(user)) });
    const outcome = await auth.login('ada@example.com', 'correct horse', true);
    expect(outcome).toEqual({ status: 'ok', user });
    expect(auth.getSnapshot()).toMatchObject({ status: 'signedIn', user });
    expect(JSON.parse(local.getItem(SESSION_KEY) ?? 'null')).toEqual({ userId: 'user1', keepSignedIn: true });
    expect(perTab.getItem(SESSION_KEY)).toBeNull();
    expect(accounts.wallets.has('user1')).toBe(true);
    expect(accounts.users.get('user1')).toEqual(user);
  });

  it('without it the record is per tab', async () => {
    const { auth, local, perTab } = setup({ ...LOGIN_START, 'POST /auth/login/finish': ok(SESSION(userOf())) });
    await auth.login('ada@example.com', 'correct horse', false);
    expect(local.getItem(SESSION_KEY)).toBeNull();
    expect(JSON.parse(perTab.getItem(SESSION_KEY) ?? 'null')).toEqual({ userId: 'user1', keepSignedIn: false });
    expect(JSON.parse(local.getItem('cairn.unkeptWallets') ?? '[]')).toEqual(['user1']);
  });

  it('a second factor keeps the login pending until the code is verified', async () => {
    const user = userOf({ mfaType: 'TOTP', mfaDevice: 'Phone' });
    const { auth } = setup({
      ...LOGIN_START,
      'POST /auth/login/finish': ok({ status: 'mfa', mfaToken: 'm1', mfaType: 'TOTP', device: 'Phone' }),
      'POST /auth/mfa/verify': (body) =>
        (body as { code: string }).code === '123456' ? ok(SESSION(user))() : fail(400, 'WRONG_CODE')(),
    });
    expect(await auth.login('ada@example.com', 'correct horse', false)).toEqual({ status: 'mfa', mfaType: 'TOTP', device: 'Phone' });
    expect(auth.getPendingMfa()).toEqual({ mfaType: 'TOTP', device: 'Phone' });
    await expect(auth.verifyMfa('000000')).rejects.toMatchObject({ code: 'WRONG_CODE' });
    expect(auth.getSnapshot().status).not.toBe('signedIn');
    await expect(auth.verifyMfa('123456')).resolves.toEqual(user);
    expect(auth.getSnapshot().status).toBe('signedIn');
    expect(auth.getPendingMfa()).toBeNull();
  });

  it('refuses to verify a code with no login pending', async () => {
    const { auth } = setup({});
    await expect(auth.verifyMfa('123456')).rejects.toThrow('NO_PENDING_LOGIN');
  });

  it("keys that do not match the account end the new session with 'USER_NOT_INITIALIZED'", async () => {
    const { auth, server } = setup(
      { ...LOGIN_START, 'POST /auth/login/finish': ok(SESSION(userOf({ address: 'B'.repeat(43) }))), 'POST /auth/logout': ok({ ok: true }) },
    );
    await expect(auth.login('ada@example.com', 'correct horse', false)).rejects.toThrow('USER_NOT_INITIALIZED');
    expect(server.hits).toContain('POST /auth/logout');
    expect(auth.getSnapshot().status).not.toBe('signedIn');
  });
});

describe('authService restore at start', () => {
  const kept = () => {
    const local = new MemoryStorage();
    local.setItem(SESSION_KEY, JSON.stringify({ userId: 'user1', keepSignedIn: true }));
    return local;
  };

  it('deletes the wallet of a session that was to end with the browser when no tab holds it any more', async () => {
    const local = new MemoryStorage();
    const { auth, accounts } = setup({}, { local });
    local.setItem('cairn.unkeptWallets', JSON.stringify(['user1']));
    accounts.wallets.set('user1', { deviceKey: {} as CryptoKey, sealed: JSON.stringify(WALLET) });
    await expect(auth.restore()).resolves.toMatchObject({ status: 'signedOut' });
    expect(accounts.wallets.size).toBe(0);
    expect(accounts.wiped).toEqual(['user1']);
    expect(local.getItem('cairn.unkeptWallets')).toBeNull();
  });

  it('is signed out with no session record', async () => {
    const { auth, server } = setup({});
    await expect(auth.restore()).resolves.toMatchObject({ status: 'signedOut' });
    expect(server.hits).toEqual([]);
  });

  it('restores the session and the wallet sealed on this device', async () => {
    const user = userOf();
    const { auth, accounts, crypto } = setup({ 'GET /auth/session': ok({ user }) }, { local: kept() });
    accounts.wallets.set('user1', { deviceKey: {} as CryptoKey, sealed: JSON.stringify(WALLET) });
    await expect(auth.restore()).resolves.toMatchObject({ status: 'signedIn', user, isOffline: false });
    expect(crypto.getActive()).toEqual(WALLET);
  });

  it('clears the record and the local data when the server says 401', async () => {
    const local = kept();
    const { auth, accounts } = setup({ 'GET /auth/session': fail(401, 'UNAUTHENTICATED') }, { local });
    accounts.wallets.set('user1', { deviceKey: {} as CryptoKey, sealed: JSON.stringify(WALLET) });
    await expect(auth.restore()).resolves.toMatchObject({ status: 'signedOut' });
    expect(local.getItem(SESSION_KEY)).toBeNull();
    expect(accounts.wallets.has('user1')).toBe(false);
    expect(accounts.wiped).toEqual(['user1']);
  });

  it('retries missing attributes once after 0.5 s, then clears storage', async () => {
    const local = kept();
    const { auth, server, sleeps } = setup({ 'GET /auth/session': ok({ user: { id: 'user1', email: 'a@b.co' } }) }, { local });
    await expect(auth.restore()).resolves.toMatchObject({ status: 'signedOut' });
    expect(server.hits).toEqual(['GET /auth/session', 'GET /auth/session']);
    expect(sleeps).toEqual([500]);
    expect(local.getItem(SESSION_KEY)).toBeNull();
  });

  it("says 'User not initialized' and clears the session when the stored keys are not the account's", async () => {
    const local = kept();
    const { auth, accounts } = setup({ 'GET /auth/session': ok({ user: userOf() }), 'POST /auth/logout': ok({ ok: true }) }, { local });
    accounts.wallets.set('user1', { deviceKey: {} as CryptoKey, sealed: JSON.stringify({ ...WALLET, address: 'C'.repeat(43) }) });
    await expect(auth.restore()).resolves.toMatchObject({ status: 'signedOut', notice: USER_NOT_INITIALIZED_TEXT });
    expect(local.getItem(SESSION_KEY)).toBeNull();
  });

  it('opens the shell from the cached account when offline, keeping the record', async () => {
    const local = kept();
    const server = { fetch: (async () => Promise.reject(new TypeError('Failed to fetch'))) as FetchLike };
    const crypto = fakeCrypto();
    const accounts = memoryAccounts();
    accounts.users.set('user1', userOf());
    accounts.wallets.set('user1', { deviceKey: {} as CryptoKey, sealed: JSON.stringify(WALLET) });
    const auth = createAuthService({
      api: createApiClient({ fetch: server.fetch }),
      crypto: () => crypto.api,
      accounts,
      sessions: createSessionStore({ persistent: local, perTab: new MemoryStorage(), channel: null }),
      log: () => undefined,
    });
    await expect(auth.restore()).resolves.toMatchObject({ status: 'signedIn', isOffline: true, user: userOf() });
    expect(local.getItem(SESSION_KEY)).not.toBeNull();
  });
});

describe('authService logout', () => {
  it('ends the session, locks the wallet and wipes the account on this device', async () => {
    const { auth, server, crypto, accounts, perTab } = setup({
      ...LOGIN_START,
      'POST /auth/login/finish': ok(SESSION(userOf())),
      'POST /auth/logout': ok({ ok: true }),
    });
    await auth.login('ada@example.com', 'correct horse', false);
    await auth.logout();
    expect(server.hits).toContain('POST /auth/logout');
    expect(crypto.calls).toContain('lock');
    expect(accounts.wallets.size).toBe(0);
    expect(accounts.wiped).toEqual(['user1']);
    expect(perTab.getItem(SESSION_KEY)).toBeNull();
    expect(auth.getSnapshot()).toMatchObject({ status: 'signedOut', user: null });
  });

  it('still signs out on this device when the server refuses the logout', async () => {
    const { auth } = setup({ ...LOGIN_START, 'POST /auth/login/finish': ok(SESSION(userOf())) });
    await auth.login('ada@example.com', 'correct horse', false);
    await auth.logout();
    expect(auth.getSnapshot().status).toBe('signedOut');
  });
});

describe('authService back online', () => {
  it('clears the offline flag once the server confirms the session', async () => {
    const local = new MemoryStorage();
    local.setItem(SESSION_KEY, JSON.stringify({ userId: 'user1', keepSignedIn: true }));
    let isOnline = false;
    let sessionReads = 0;
    const user = userOf();
    const fetch: FetchLike = async () => {
      if (!isOnline) throw new TypeError('Failed to fetch');
      sessionReads += 1;
      return new Response(JSON.stringify({ user }), { status: 200 });
    };
    const crypto = fakeCrypto();
    const accounts = memoryAccounts();
    accounts.users.set('user1', user);
    accounts.wallets.set('user1', { deviceKey: {} as CryptoKey, sealed: JSON.stringify(WALLET) });
    const auth = createAuthService({
      api: createApiClient({ fetch }),
      crypto: () => crypto.api,
      accounts,
      sessions: createSessionStore({ persistent: local, perTab: new MemoryStorage(), channel: null }),
      log: () => undefined,
    });
    await expect(auth.restore()).resolves.toMatchObject({ isOffline: true });
    // Still unreachable: the question is asked again later (each sync cycle), nothing changes.
    await auth.revalidate();
    expect(auth.getSnapshot()).toMatchObject({ status: 'signedIn', isOffline: true });
    isOnline = true;
    sessionReads = 0;
    // Asked by the 'online' event and a sync cycle at once: one request.
    await Promise.all([auth.revalidate(), auth.revalidate()]);
    expect(sessionReads).toBe(1);
    expect(auth.getSnapshot()).toMatchObject({ status: 'signedIn', isOffline: false });
    await auth.revalidate();
    expect(sessionReads).toBe(1);
  });
});

describe('authService account security', () => {
  const signedIn = async (routes: Record<string, Handler>) => {
    const env = setup({ ...LOGIN_START, 'POST /auth/login/finish': ok(SESSION(userOf())), ...routes });
    await env.auth.login('ada@example.com', 'correct horse', false);
    env.server.hits.length = 0;
    return env;
  };

  it('a wrong current password fails on the device before the re-authentication finishes', async () => {
    const { auth, server } = await signedIn({ 'POST /auth/reauth/start': ok({ loginId: 'r1', loginResponse: 'resp' }) });
    await expect(auth.changePassword('nope nope', 'a new password')).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(server.hits).toEqual(['POST /auth/reauth/start']);
  });

  it('changes the password by re-registering and signing the new record with the account key', async () => {
    const changed = userOf({ encBackupPhrase: 'newenc' });
    const { auth, server, crypto } = await signedIn({
      'POST /auth/reauth/start': ok({ loginId: 'r1', loginResponse: 'resp' }),
      'POST /auth/reauth/finish': ok({ reauthToken: 'rt' }),
      'POST /account/password/start': ok({ registrationResponse: 'regresp' }),
      'POST /account/password/finish': (body) => {
        expect(body).toEqual({ reauthToken: 'rt', registrationRecord: 'record-active', encBackupPhrase: 'newenc', signature: 's'.repeat(86) });
        return ok({ user: changed })();
      },
    });
    await auth.changePassword('correct horse', 'a new password');
    expect(server.hits).toEqual([
      'POST /auth/reauth/start',
      'POST /auth/reauth/finish',
      'POST /account/password/start',
      'POST /account/password/finish',
    ]);
    expect(crypto.signed).toEqual([
      {
        payload: { purpose: 'change-password', userId: 'user1', registrationRecord: 'record-active', encBackupPhrase: 'newenc' },
        usePending: false,
      },
    ]);
    expect(auth.getSnapshot().user?.encBackupPhrase).toBe('newenc');
  });
});

describe('authService passwordless (airdrop link) login', () => {
  const ENTROPY = 'AAAAAAAAAAAAAAAAAAAAAA';
  const WALLET_ROUTES = (user: AccountUser) => ({
    'POST /auth/wallet/challenge': ok({ challenge: 'challenge1' }),
    'POST /auth/wallet/login': ok(SESSION(user)),
  });

  it('signs the challenge with the link wallet and opens a session that ends with the browser', async () => {
    const user = userOf({ passwordless: true });
    const { auth, crypto, accounts, local, perTab, server } = setup(WALLET_ROUTES(user));
    expect(await auth.loginWithWallet(ENTROPY)).toEqual(user);
    expect(server.hits).toEqual(['POST /auth/wallet/challenge', 'POST /auth/wallet/login']);
    expect(crypto.signed).toEqual([{ payload: { purpose: 'wallet-login', challenge: 'challenge1' }, usePending: true }]);
    expect(crypto.getActive()).toEqual(WALLET);
    expect(auth.getSnapshot()).toMatchObject({ status: 'signedIn', user: { passwordless: true } });
    // Never 'kept signed in': the record is in the tab's storage only.
    expect(local.items.has(SESSION_KEY)).toBe(false);
    expect(JSON.parse(perTab.items.get(SESSION_KEY) ?? 'null')).toEqual({ userId: 'user1', keepSignedIn: false });
    expect(accounts.wallets.has('user1')).toBe(true);
  });

  it('an expired link leaves the device signed out and says so', async () => {
    const { auth, crypto, perTab } = setup({
      'POST /auth/wallet/challenge': ok({ challenge: 'challenge1' }),
      'POST /auth/wallet/login': fail(410, 'EXPIRED'),
    });
    const error = await auth.loginWithWallet(ENTROPY).catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('EXPIRED');
    expect(crypto.getActive()).toBeNull();
    expect(crypto.calls).toContain('clearPending');
    expect(perTab.items.has(SESSION_KEY)).toBe(false);
    expect(auth.getSnapshot().status).not.toBe('signedIn');
  });

  it('a malformed wallet parameter never reaches the server', async () => {
    const { auth, server } = setup(WALLET_ROUTES(userOf({ passwordless: true })));
    await expect(auth.loginWithWallet('garbage')).rejects.toThrow('INVALID_LINK');
    expect(server.hits).toEqual([]);
  });

  it('a link session that has ended says so on the next start, and leaves nothing on the device', async () => {
    const user = userOf({ passwordless: true });
    const perTab = new MemoryStorage();
    const first = setup(WALLET_ROUTES(user), { perTab });
    await first.auth.loginWithWallet(ENTROPY);
    const { auth, accounts } = setup({ 'GET /auth/session': fail(401, 'UNAUTHENTICATED') }, { perTab });
    await accounts.saveAccount(user);
    expect(await auth.restore()).toMatchObject({ status: 'signedOut', notice: LINK_SESSION_ENDED_TEXT });
    expect(accounts.wiped).toContain('user1');
  });

  /** A server whose link session (and its one vault) ends when `ended` is set. */
  function endingLink(user: AccountUser) {
    const link = { ended: false };
    const routes = {
      ...WALLET_ROUTES(user),
      'GET /auth/session': () => (link.ended ? fail(401, 'UNAUTHENTICATED')() : ok({ user })()),
      'GET /vaults': () => (link.ended ? fail(401, 'UNAUTHENTICATED')() : ok({ id: 'v1' })()),
      'GET /vaults/v1/ops': () => fail(410, 'EXPIRED')(),
    };
    return { link, routes };
  }
  const Anything = z.unknown();

  it('a link session that ends while the app is open: the next refused request signs out as log-out does and says so', async () => {
    const user = userOf({ passwordless: true });
    const { link, routes } = endingLink(user);
    const { auth, api, crypto, accounts, perTab, server } = setup(routes);
    await auth.loginWithWallet(ENTROPY);
    await api.get('/vaults', Anything);
    link.ended = true;
    await expect(api.get('/vaults', Anything)).rejects.toMatchObject({ status: 401 });
    await vi.waitFor(() => expect(auth.getSnapshot()).toMatchObject({ status: 'signedOut', user: null, notice: LINK_SESSION_ENDED_TEXT }));
    expect(server.hits.filter((hit) => hit === 'GET /auth/session')).toHaveLength(1);
    expect(accounts.wiped).toEqual(['user1']);
    expect(accounts.wallets.size).toBe(0);
    expect(crypto.getActive()).toBeNull();
    expect(perTab.items.has(SESSION_KEY)).toBe(false);
  });

  it("a 410 for one vault while the session lives (another link still runs) keeps the user signed in", async () => {
    const user = userOf({ passwordless: true });
    const { auth, api, accounts, server } = setup(endingLink(user).routes);
    await auth.loginWithWallet(ENTROPY);
    await expect(api.get('/vaults/v1/ops', Anything)).rejects.toMatchObject({ code: 'EXPIRED' });
    await vi.waitFor(() => expect(server.hits).toContain('GET /auth/session'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(auth.getSnapshot()).toMatchObject({ status: 'signedIn', notice: null });
    expect(accounts.wiped).toEqual([]);
  });

  it("[R80] a password account's refused request while its session lives is left to its caller", async () => {
    const { auth, api, accounts, server } = setup({
      ...LOGIN_START,
      'POST /auth/login/finish': ok(SESSION(userOf())),
      'GET /auth/session': ok(SESSION(userOf())),
      'GET /vaults': fail(401, 'UNAUTHENTICATED'),
    });
    await auth.login('ada@example.com', 'correct horse', false);
    await expect(api.get('/vaults', Anything)).rejects.toMatchObject({ status: 401 });
    await vi.waitFor(() => expect(server.hits).toContain('GET /auth/session'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(auth.getSnapshot()).toMatchObject({ status: 'signedIn', notice: null });
    expect(accounts.wiped).toEqual([]);
  });

  it('[R80] a password account whose session was ended on another device is signed out as log-out does, and told', async () => {
    const { auth, api, accounts, server } = setup({
      ...LOGIN_START,
      'POST /auth/login/finish': ok(SESSION(userOf())),
      'GET /auth/session': fail(401, 'UNAUTHENTICATED'),
      'GET /vaults': fail(401, 'UNAUTHENTICATED'),
    });
    await auth.login('ada@example.com', 'correct horse', false);
    await expect(api.get('/vaults', Anything)).rejects.toMatchObject({ status: 401 });
    await vi.waitFor(() => expect(auth.getSnapshot()).toMatchObject({ status: 'signedOut', user: null, notice: SESSION_ENDED_TEXT }));
    expect(server.hits.filter((hit) => hit === 'GET /auth/session')).toHaveLength(1);
    expect(accounts.wiped).toEqual(['user1']);
  });
});
