/**
 * The account flows (AuthService.ts) over the API client and the crypto worker, plus the
 * signed-in session the app shell reads (spec 001 sections 2, 4 and 8; DESIGN.md section 2).
 * Every port comes in as a parameter; `authService.ts` wires the browser's.
 *
 * Secrets never leave the worker: OPAQUE states and export keys stay under handles there, and the
 * wallet is persisted only sealed (cryptoApi.storeWallet) in IndexedDB.
 */
import { z } from 'zod';
import type { CryptoApi, PublicWallet } from '../../../workers/crypto/CryptoApi';
import { decodeLinkPayload } from '../../domain/linkPayload';
import { normalizeEmail } from '../../domain/loginRules';
import {
  type AccountUser,
  LoginFinishResponse,
  LoginStartResponse,
  type MfaType,
  RecoverRegisterResponse,
  SessionResponse,
  SessionResult,
  SignupStartResponse,
  VerifyEmailResponse,
} from '../../protocol/auth';
import { ApiError } from '../../protocol/errors';
import { WalletChallengeResponse } from '../../protocol/members';
import { type ApiClient, InvalidResponseError, NetworkError } from '../../platform/apiClient';
import type { AuthService, LoginOutcome } from './AuthServiceContract';
import { createSecurityFlows } from './createSecurityFlows';
import type { SessionEvent, SessionRecord, SessionStore } from './sessionStore';
import { signRequest } from './signRequest';

/** The device's account data (storage/walletStore.ts), as a port so tests can pass a fake. */
export interface LocalAccountStore {
  saveWallet(accountId: string, stored: Awaited<ReturnType<CryptoApi['storeWallet']>>): Promise<void>;
  loadWallet(accountId: string): Promise<Awaited<ReturnType<CryptoApi['storeWallet']>> | undefined>;
  deleteWallet(accountId: string): Promise<void>;
  wipeAccountData(accountId: string): Promise<void>;
  saveAccount(user: AccountUser): Promise<void>;
  getAccount(id: string): Promise<AccountUser | undefined>;
}

export type SessionStatus = 'loading' | 'signedOut' | 'signedIn';

export interface SessionSnapshot {
  status: SessionStatus;
  user: AccountUser | null;
  /** Signed in from this device's cache because the server could not be reached. */
  isOffline: boolean;
  /** A message for the login page after a session was ended by the app (e.g. 'User not initialized'). */
  notice: string | null;
}

export type AttributesPatch = { mode?: AccountUser['mode']; notifications?: boolean; notifyOnUpload?: boolean; onboarding?: boolean };

/** AuthService plus the session state the app shell and guards read. */
export interface CairnAuthService extends AuthService {
  getSnapshot(): SessionSnapshot;
  subscribe(listener: () => void): () => void;
  /** Restores the session at app start; idempotent. */
  restore(): Promise<SessionSnapshot>;
  /** Resolves once the session is known (not 'loading'). */
  whenSettled(): Promise<SessionSnapshot>;
  /** Back online after an offline start: asks the server again (401 ends the session). */
  revalidate(): Promise<void>;
  refreshUser(): Promise<AccountUser>;
  setUser(user: AccountUser): void;
  updateAttributes(patch: AttributesPatch): Promise<AccountUser>;
}

export interface AuthServiceDeps {
  api: ApiClient;
  /** The crypto worker, started on first use. */
  crypto: () => CryptoApi;
  accounts: LocalAccountStore;
  sessions: SessionStore;
  /**
   * Every error answer the app's requests get (platform/apiClient.ts `watchApiErrors`), so a
   * passwordless session that ends while the app is open is noticed by whatever request hits it.
   */
  watchApiErrors?: (watcher: (error: ApiError) => void) => () => void;
  /** Waits before the one retry of a failed session read; tests pass an instant one. */
  sleep?: (ms: number) => Promise<void>;
  log?: (message: string, error: unknown) => void;
}

export const USER_NOT_INITIALIZED_TEXT = 'User not initialized';
/** The login page's notice when an airdrop link's session has ended (its last membership expired). */
export const LINK_SESSION_ENDED_TEXT = 'Your access through this link has ended.';
/**
 * The login page's notice when the session was ended from elsewhere: 'Log out other devices' on
 * another device (SYNC_SPEC R80), a password change or a recovery there.
 */
export const SESSION_ENDED_TEXT = 'You were logged out of this device. Log in again to continue.';
/** Spec 001 section 8: a missing-attributes read is retried once after 0.5 s. */
export const SESSION_RETRY_DELAY_MS = 500;

/** Answers the client does not read beyond success. */
const Acknowledged = z.unknown();

interface PendingMfa {
  handle: string;
  mfaToken: string;
  mfaType: MfaType;
  device: string | null;
  keepSignedIn: boolean;
}

function publicWalletOf(user: AccountUser): PublicWallet {
  return { address: user.address, publicSigningKey: user.publicSigningKey, publicEncryptionKey: user.publicEncryptionKey };
}

function walletMatches(wallet: PublicWallet, user: AccountUser): boolean {
  return (
    wallet.address === user.address &&
    wallet.publicSigningKey === user.publicSigningKey &&
    wallet.publicEncryptionKey === user.publicEncryptionKey
  );
}

/** Errors worth the one retry: a malformed answer ("attributes missing") or a server fault. */
function isRetryable(error: unknown): boolean {
  return error instanceof InvalidResponseError || (error instanceof ApiError && error.status >= 500 && error.code !== 'MAINTENANCE');
}

/** The server could not vouch for the session right now; the device's cache may open the shell. */
function isUnreachable(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiError && error.code === 'MAINTENANCE');
}

export function createAuthService(deps: AuthServiceDeps): CairnAuthService {
  const { api, accounts, sessions } = deps;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const log = deps.log ?? ((message: string, error: unknown) => console.warn(message, error));
  const crypto = deps.crypto;

  let snapshot: SessionSnapshot = { status: 'loading', user: null, isOffline: false, notice: null };
  /** The back-online question in flight (revalidate). */
  let revalidating: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  let restoring: Promise<SessionSnapshot> | undefined;
  let pendingMfa: PendingMfa | null = null;
  let signupWallet: PublicWallet | null = null;

  function update(next: Partial<SessionSnapshot>): void {
    snapshot = { ...snapshot, ...next };
    for (const listener of listeners) listener();
  }

  function signedIn(user: AccountUser, isOffline = false): void {
    update({ status: 'signedIn', user, isOffline, notice: null });
  }

  function signedOut(notice: string | null = null): void {
    update({ status: 'signedOut', user: null, isOffline: false, notice });
  }

  function requireUser(): AccountUser {
    if (!snapshot.user) throw new ApiError('UNAUTHENTICATED', 'Not signed in');
    return snapshot.user;
  }

  /** Registers the worker's pending wallet (a new phrase, or a typed one) under e-mail and password. */
  async function registerPendingWallet(wallet: PublicWallet, rawEmail: string, password: string, referrerId?: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    const { handle, registrationRequest } = await crypto().startRegistration(password);
    const { registrationResponse } = await api.post('/auth/signup/start', { email, registrationRequest }, SignupStartResponse);
    const { registrationRecord, encBackupPhrase } = await crypto().finishRegistration(handle, registrationResponse, 'pending');
    const signature = await crypto().signPayload(
      { purpose: 'signup', email, ...wallet, registrationRecord, encBackupPhrase },
      true,
    );
    await api.post(
      '/auth/signup/finish',
      { email, registrationRecord, encBackupPhrase, ...wallet, ...(referrerId ? { referrerId } : {}), signature },
      Acknowledged,
    );
    await crypto().clearPendingWallet();
    signupWallet = null;
  }

  async function endServerSession(): Promise<void> {
    try {
      await api.post('/auth/logout', undefined, Acknowledged);
    } catch (error) {
      log('Sign-out failed', error); // spec 001 section 8: logged only
    }
  }

  /** Forgets the session on this device: record, unlocked keys, sealed wallet and cached data. */
  async function clearLocal(userId: string | undefined): Promise<void> {
    sessions.clear();
    pendingMfa = null;
    await crypto().lock().catch((error: unknown) => log('Locking the wallet failed', error));
    if (!userId) return;
    sessions.unmarkUnkept(userId);
    await accounts.deleteWallet(userId).catch((error: unknown) => log('Deleting the wallet failed', error));
    await accounts.wipeAccountData(userId).catch((error: unknown) => log('Wiping local data failed', error));
  }

  async function persistSession(user: AccountUser, keepSignedIn: boolean): Promise<void> {
    try {
      const stored = await crypto().storeWallet();
      await accounts.saveWallet(user.id, stored);
      await accounts.saveAccount(user);
    } catch (error) {
      // Still signed in for this page; a reload will ask for the password again.
      log('Persisting the session failed', error);
    }
    const record: SessionRecord = { userId: user.id, keepSignedIn };
    if (keepSignedIn) sessions.unmarkUnkept(user.id);
    else sessions.markUnkept(user.id);
    sessions.write(record);
    sessions.announce({ type: 'signed-in', record });
    signedIn(user);
  }

  /** Opens the wallet with the login's export key; a key mismatch ends the new session. */
  async function completeLogin(handle: string, user: AccountUser, keepSignedIn: boolean): Promise<AccountUser> {
    try {
      await crypto().unlockWallet(handle, user.encBackupPhrase, publicWalletOf(user));
    } catch (error) {
      log('Unlocking the wallet failed', error);
      await endServerSession();
      await crypto().lock().catch(() => undefined);
      throw new Error('USER_NOT_INITIALIZED');
    }
    await persistSession(user, keepSignedIn);
    return user;
  }

  async function readSessionUser(): Promise<AccountUser> {
    try {
      return (await api.get('/auth/session', SessionResponse)).user;
    } catch (error) {
      if (!isRetryable(error)) throw error;
      await sleep(SESSION_RETRY_DELAY_MS);
      return (await api.get('/auth/session', SessionResponse)).user;
    }
  }

  /** Unlocks the sealed wallet of `user`; false when it is missing, unreadable or not theirs. */
  async function unlockStoredWallet(user: AccountUser): Promise<'ok' | 'missing' | 'mismatch'> {
    const stored = await accounts.loadWallet(user.id).catch(() => undefined);
    if (!stored) return 'missing';
    let wallet: PublicWallet;
    try {
      wallet = await crypto().restoreWallet(stored);
    } catch (error) {
      log('Restoring the wallet failed', error);
      return 'missing';
    }
    return walletMatches(wallet, user) ? 'ok' : 'mismatch';
  }

  async function restoreOnce(): Promise<SessionSnapshot> {
    const record = await sessions.load();
    if (!record) {
      // No tab holds a session: sessions that were to end with the browser have ended, so their
      // sealed wallets and cached data go too (spec: the session lasts for the session only).
      for (const userId of sessions.listUnkept()) await clearLocal(userId);
      signedOut(snapshot.notice);
      return snapshot;
    }
    let user: AccountUser;
    try {
      user = await readSessionUser();
    } catch (error) {
      if (isUnreachable(error)) {
        // Offline (or maintenance) start with a kept session: open the shell from the cache.
        const cached = await accounts.getAccount(record.userId).catch(() => undefined);
        if (cached && (await unlockStoredWallet(cached)) === 'ok') signedIn(cached, true);
        else signedOut();
        return snapshot;
      }
      if (!(error instanceof ApiError && error.status === 401)) log('Reading the session failed', error);
      // A passwordless session ends when its link does: say so rather than show a bare login form.
      const cached = await accounts.getAccount(record.userId).catch(() => undefined);
      await clearLocal(record.userId);
      signedOut(cached?.passwordless && error instanceof ApiError && error.status === 401 ? LINK_SESSION_ENDED_TEXT : null);
      return snapshot;
    }

    if (user.id !== record.userId) {
      // The cookie belongs to another account now; this record is stale.
      sessions.clear();
      signedOut();
      return snapshot;
    }
    if (!user.publicSigningKey || !user.address) {
      await endServerSession();
      await clearLocal(user.id);
      signedOut(USER_NOT_INITIALIZED_TEXT);
      return snapshot;
    }
    const unlocked = await unlockStoredWallet(user);
    if (unlocked !== 'ok') {
      await endServerSession();
      await clearLocal(user.id);
      signedOut(unlocked === 'mismatch' ? USER_NOT_INITIALIZED_TEXT : null);
      return snapshot;
    }
    await accounts.saveAccount(user).catch((error: unknown) => log('Caching the account failed', error));
    signedIn(user);
    return snapshot;
  }

  function onOtherTab(event: SessionEvent): void {
    if (event.type === 'signed-out') {
      if (snapshot.user?.id !== event.userId) return;
      // The announcing tab already wiped the shared data; this tab only forgets its own copy.
      sessions.clear();
      pendingMfa = null;
      void crypto().lock().catch(() => undefined);
      signedOut();
    } else if (snapshot.status === 'signedOut') {
      restoring = restoreOnce();
    }
  }
  sessions.subscribe(onOtherTab);

  let checkingLinkSession = false;
  /**
   * A request was refused (401, or for a passwordless session 410 EXPIRED for a vault): the
   * session may have ended while the app is open (a link's end; for a password account, 'Log out
   * other devices' or a password change on another device, R80). The server's session has the
   * last word, since a 410 may be one of several links' vaults while another link still runs;
   * once it answers 401 the user is signed out as log-out does (device data wiped, other tabs
   * told) and the login page says why. While it answers 200 the refusal is left to its caller.
   */
  async function checkLinkSession(trigger: ApiError): Promise<void> {
    const user = snapshot.user;
    if (checkingLinkSession || snapshot.status !== 'signedIn' || snapshot.isOffline || !user) return;
    if (!user.passwordless && trigger.status !== 401) return;
    checkingLinkSession = true;
    try {
      await api.get('/auth/session', SessionResponse);
      return;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) return;
    } finally {
      checkingLinkSession = false;
    }
    if (snapshot.user?.id !== user.id) return;
    await clearLocal(user.id);
    sessions.announce({ type: 'signed-out', userId: user.id });
    signedOut(user.passwordless ? LINK_SESSION_ENDED_TEXT : SESSION_ENDED_TEXT);
  }
  deps.watchApiErrors?.((error) => {
    if (error.status === 401 || error.code === 'EXPIRED') void checkLinkSession(error).catch((e: unknown) => log('Checking the session failed', e));
  });

  function setUser(user: AccountUser): void {
    if (snapshot.status !== 'signedIn') return;
    update({ user });
    void accounts.saveAccount(user).catch((error: unknown) => log('Caching the account failed', error));
  }

  function subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  return {
    getSnapshot: () => snapshot,
    subscribe,
    restore() {
      restoring ??= restoreOnce().catch((error: unknown) => {
        log('Restoring the session failed', error);
        signedOut();
        return snapshot;
      });
      return restoring;
    },
    whenSettled() {
      if (snapshot.status !== 'loading') return Promise.resolve(snapshot);
      return new Promise((resolve) => {
        const unsubscribe = subscribe(() => {
          if (snapshot.status === 'loading') return;
          unsubscribe();
          resolve(snapshot);
        });
      });
    },
    revalidate() {
      if (snapshot.status !== 'signedIn' || !snapshot.isOffline) return Promise.resolve();
      // Asked on every sync cycle while offline: one question to the server at a time.
      revalidating ??= (async () => {
        const userId = snapshot.user?.id;
        try {
          const user = await readSessionUser();
          if (user.id === userId && snapshot.isOffline) signedIn(user);
        } catch (error) {
          if (isUnreachable(error)) return;
          await clearLocal(userId);
          signedOut();
        }
      })().finally(() => {
        revalidating = null;
      });
      return revalidating;
    },
    async refreshUser() {
      const { user } = await api.get('/account', SessionResponse);
      setUser(user);
      return user;
    },
    setUser,
    async updateAttributes(patch) {
      const { user } = await api.patch('/account/attributes', patch, SessionResponse);
      setUser(user);
      return user;
    },

    // --- sign-up ---------------------------------------------------------------------------
    async createWallet() {
      const { words, wallet } = await crypto().createPendingWallet();
      signupWallet = wallet;
      return words;
    },
    getSignupWords: () => crypto().getPendingWords(),
    async registerAccount(rawEmail, password, referrerId) {
      const wallet = signupWallet ?? null;
      if (!wallet || !(await crypto().getPendingWords())) throw new Error('NO_PENDING_WALLET');
      await registerPendingWallet(wallet, rawEmail, password, referrerId);
    },
    async registerAccountWithPhrase(rawEmail, password, words, referrerId) {
      let wallet: PublicWallet;
      try {
        wallet = await crypto().loadPendingWallet(words.map((word) => word.trim().toLowerCase()));
      } catch (error) {
        if (error instanceof Error && error.message.includes('INVALID_PHRASE')) throw new Error('INVALID_PHRASE');
        throw error;
      }
      signupWallet = wallet;
      try {
        await registerPendingWallet(wallet, rawEmail, password, referrerId);
      } catch (error) {
        // The typed phrase's keys must not linger in the worker after a refused sign-up.
        await crypto().clearPendingWallet().catch(() => undefined);
        signupWallet = null;
        throw error;
      }
    },
    async resendVerification(email) {
      await api.post('/auth/verify-email/resend', { email: normalizeEmail(email) }, Acknowledged);
    },
    async verifyEmail(uid, code) {
      await api.post('/auth/verify-email', { uid, code }, VerifyEmailResponse);
    },

    // --- login -----------------------------------------------------------------------------
    async login(rawEmail, password, keepSignedIn): Promise<LoginOutcome> {
      const email = normalizeEmail(rawEmail);
      pendingMfa = null;
      const { handle, startLoginRequest } = await crypto().startLogin(password);
      const start = await api.post('/auth/login/start', { email, startLoginRequest }, LoginStartResponse);
      const finish = await crypto().finishLogin(handle, start.loginResponse);
      // A wrong password fails on the client: the server is not asked (OPAQUE).
      if (!finish) throw new ApiError('INVALID_CREDENTIALS', 'Invalid e-mail or password.');
      const answer = await api.post(
        '/auth/login/finish',
        { loginId: start.loginId, finishLoginRequest: finish.finishLoginRequest, keepSignedIn },
        LoginFinishResponse,
      );
      if (answer.status === 'mfa') {
        pendingMfa = { handle, mfaToken: answer.mfaToken, mfaType: answer.mfaType, device: answer.device, keepSignedIn };
        return { status: 'mfa', mfaType: answer.mfaType, device: answer.device };
      }
      return { status: 'ok', user: await completeLogin(handle, answer.user, keepSignedIn) };
    },
    async verifyMfa(code) {
      const pending = pendingMfa;
      if (!pending) throw new Error('NO_PENDING_LOGIN');
      let result: SessionResult;
      try {
        result = await api.post('/auth/mfa/verify', { mfaToken: pending.mfaToken, code }, SessionResult);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'EXPIRED') pendingMfa = null;
        throw error;
      }
      pendingMfa = null;
      return completeLogin(pending.handle, result.user, pending.keepSignedIn);
    },
    async resendMfaCode() {
      if (!pendingMfa) throw new Error('NO_PENDING_LOGIN');
      await api.post('/auth/mfa/resend', { mfaToken: pendingMfa.mfaToken }, Acknowledged);
    },
    getPendingMfa: () => (pendingMfa ? { mfaType: pendingMfa.mfaType, device: pendingMfa.device } : null),
    async loginWithWallet(entropy) {
      pendingMfa = null;
      let wallet: PublicWallet;
      try {
        wallet = await crypto().loadPendingWalletFromEntropy(entropy);
      } catch {
        throw new Error('INVALID_LINK');
      }
      try {
        const { publicSigningKey } = wallet;
        const { challenge } = await api.post('/auth/wallet/challenge', { publicSigningKey }, WalletChallengeResponse);
        const signature = await crypto().signPayload({ purpose: 'wallet-login', challenge }, true);
        const result = await api.post('/auth/wallet/login', { publicSigningKey, challenge, signature }, SessionResult);
        if (!walletMatches(wallet, result.user)) {
          await endServerSession();
          throw new Error('USER_NOT_INITIALIZED');
        }
        await crypto().activatePendingWallet();
        // A link's session is never kept: it ends with the browser (and on the server at the link's expiry).
        await persistSession(result.user, false);
        return result.user;
      } finally {
        await crypto().clearPendingWallet().catch(() => undefined);
      }
    },
    async logout() {
      const userId = snapshot.user?.id ?? sessions.read()?.userId;
      await endServerSession();
      await clearLocal(userId);
      if (userId) sessions.announce({ type: 'signed-out', userId });
      signedOut();
    },

    // --- recovery ----------------------------------------------------------------------------
    async sendRecovery(email) {
      await api.post('/auth/recover/start', { email: normalizeEmail(email) }, Acknowledged);
    },
    async checkRecoveryPhrase(uid, words) {
      const link = decodeLinkPayload(uid);
      if (!link?.address) throw new Error('INVALID_LINK');
      let wallet: PublicWallet;
      try {
        wallet = await crypto().loadPendingWallet(words.map((word) => word.trim().toLowerCase()));
      } catch (error) {
        if (error instanceof Error && error.message.includes('INVALID_PHRASE')) throw new Error('PHRASE_MISMATCH');
        throw error;
      }
      if (wallet.address !== link.address) {
        await crypto().clearPendingWallet();
        throw new Error('PHRASE_MISMATCH');
      }
    },
    async resetPassword(uid, code, newPassword) {
      const link = decodeLinkPayload(uid);
      if (!link) throw new Error('INVALID_LINK');
      const email = normalizeEmail(link.email);
      const { handle, registrationRequest } = await crypto().startRegistration(newPassword);
      const { registrationResponse, challenge } = await api.post(
        '/auth/recover/register',
        { email, code, registrationRequest },
        RecoverRegisterResponse,
      );
      const { registrationRecord, encBackupPhrase } = await crypto().finishRegistration(handle, registrationResponse, 'pending');
      const signature = await crypto().signPayload(
        { purpose: 'recover', email, challenge, registrationRecord, encBackupPhrase },
        true,
      );
      const result = await api.post(
        '/auth/recover/finish',
        { email, code, challenge, registrationRecord, encBackupPhrase, keepSignedIn: false, signature },
        SessionResult,
      );
      await crypto().activatePendingWallet();
      await persistSession(result.user, false);
      return result.user;
    },

    // --- account security (createSecurityFlows.ts) ---------------------------------------
    ...createSecurityFlows({ api, crypto, requireUser, setUser }),
    async deleteAccount() {
      const user = requireUser();
      await api.delete('/account', await signRequest(crypto(), user.id, 'delete-account'), Acknowledged);
      await clearLocal(user.id);
      sessions.announce({ type: 'signed-out', userId: user.id });
      signedOut();
    },
    exportPrivateKeys: () => crypto().exportPrivateKeys(),
  };
}
