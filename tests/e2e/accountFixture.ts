/**
 * A new account for tests whose subject is not signing up, in about a third of the time the
 * sign-up forms take. Nothing is faked: the app's own account service (createAuthService) with
 * the real crypto worker API signs up in this Node process, so the OPAQUE registration, the key
 * derivation and the recovery phrase are the ones the browser would make; the e-mailed link
 * verifies the address over real HTTP against the e2e server; and the browser then logs in through
 * the login form, so it holds its own session and keys exactly as after any login.
 *
 * What is skipped is only the browser rendering the sign-up pages, which accounts.spec.ts and
 * phraseSignup.spec.ts cover through SignupFlow.createAccountThroughForms.
 */
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { createAuthService } from '../../src/features/account/createAuthService';
import { createSessionStore } from '../../src/features/account/sessionStore';
import { MemoryStorage, memoryAccounts } from '../../src/features/account/testing/memoryDevice';
import { createApiClient } from '../../src/platform/apiClient';
import { waitForMailLink } from './mailbox';

/**
 * Signs `email` up with a new recovery phrase and verifies it by the mailed link, the way the
 * sign-up pages and the link's login page do (SignupForm: createWallet; SignupBackupPhrase:
 * registerAccount; useEmailVerification: verifyEmail), against the server at `origin` (the one
 * the page uses: some specs run servers of their own). Returns the 12 words.
 */
export async function signUpAndVerify(origin: string, dataDir: string, email: string, password: string): Promise<string[]> {
  const crypto = createCryptoApi();
  const auth = createAuthService({
    api: createApiClient({ baseUrl: `${origin}/api` }),
    crypto: () => crypto,
    accounts: memoryAccounts(),
    sessions: createSessionStore({ persistent: new MemoryStorage(), perTab: new MemoryStorage(), channel: null }),
    log: () => undefined,
  });
  // The form lower-cases the typed address before it keeps it for the next step (SignupForm).
  const typed = email.trim().toLowerCase();
  const words = await auth.createWallet();
  await auth.registerAccount(typed, password);
  // The link is /login?uid=…&code=…; the login page posts exactly these two values.
  const link = new URL(await waitForMailLink(dataDir, typed, '/login?uid='));
  const uid = link.searchParams.get('uid');
  const code = link.searchParams.get('code');
  if (!uid || !code) throw new Error(`The verification link has no uid or code: ${link.href}`);
  await auth.verifyEmail(uid, code);
  return words;
}
