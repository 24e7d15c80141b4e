/**
 * The app's one account service, wired to the browser: fetch, the crypto worker, IndexedDB
 * (storage/localAccountStore.ts), localStorage/sessionStorage and the 'cairn-session' channel.
 * Screens import `authService`; the factory and its ports are in createAuthService.ts.
 */
import { getApiClient, watchApiErrors } from '../../platform/apiClient';
import { getCrypto } from '../../platform/cryptoClient';
import * as localAccountStore from '../../storage/localAccountStore';
import { type CairnAuthService, createAuthService } from './createAuthService';
import { createBrowserSessionStore } from './sessionStore';

export type { CairnAuthService, SessionSnapshot, SessionStatus } from './createAuthService';

export const authService: CairnAuthService = createAuthService({
  api: getApiClient(),
  crypto: getCrypto,
  accounts: localAccountStore,
  sessions: createBrowserSessionStore(),
  watchApiErrors,
});
