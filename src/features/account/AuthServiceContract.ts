/**
 * The account flows the screens call (spec 001 sections 2 and 4). Implemented by
 * `createAuthService.ts` over `platform/apiClient.ts` and the crypto worker; screens import the
 * instance `authService` from `authService.ts` (this file is not named `AuthService.ts`: the two
 * names would collide on case-insensitive file systems). Screens never touch the
 * worker or fetch directly for these flows. Every method rejects with an `ApiError`
 * (src/protocol/errors.ts) or an Error whose message is one of the codes named below; the screens
 * map codes to the spec's texts.
 */
import type { AccountUser, MfaType } from '../../protocol/auth';

export type { AccountUser };

export type LoginOutcome =
  | { status: 'ok'; user: AccountUser }
  | { status: 'mfa'; mfaType: MfaType; device: string | null };

export interface AuthService {
  // sign-up: step signup creates the wallet; step backup-phrase registers the account.
  createWallet(): Promise<string[]>;
  /** Words of the wallet created at the signup step, or null after a reload (go back to /signup). */
  getSignupWords(): Promise<string[] | null>;
  /** Rejects ApiError EMAIL_TAKEN. Clears the pending wallet on success. */
  registerAccount(email: string, password: string, referrerId?: string): Promise<void>;
  /**
   * Sign-up with a recovery phrase the user already has (issue 19): the account gets the typed
   * phrase's keys and address, and its entropy wrapped as encBackupPhrase like a new phrase.
   * Rejects Error('INVALID_PHRASE') for words that fail BIP39 (nothing is sent), ApiError
   * EMAIL_TAKEN, or PHRASE_TAKEN when the phrase already has an account on this server.
   */
  registerAccountWithPhrase(email: string, password: string, words: string[], referrerId?: string): Promise<void>;
  resendVerification(email: string): Promise<void>;
  /** From the e-mailed link /login?uid=&code=. Rejects ApiError CODE_MISMATCH. */
  verifyEmail(uid: string, code: string): Promise<void>;

  /**
   * Rejects ApiError INVALID_CREDENTIALS, USER_NOT_CONFIRMED, RATE_LIMITED, or
   * Error('USER_NOT_INITIALIZED') when the keys do not match the account.
   */
  login(email: string, password: string, keepSignedIn: boolean): Promise<LoginOutcome>;
  /** After 'mfa': rejects ApiError WRONG_CODE / EXPIRED; Error('NO_PENDING_LOGIN') after a reload. */
  verifyMfa(code: string): Promise<AccountUser>;
  resendMfaCode(): Promise<void>;
  /** The pending second factor (for /verify's texts), or null. */
  getPendingMfa(): { mfaType: MfaType; device: string | null } | null;
  /**
   * Passwordless sign-in from an airdrop link's `wallet` parameter (spec 001 sections 2 and 4):
   * derives the wallet on the device, proves its signing key and opens a session that is never
   * kept. Rejects Error('INVALID_LINK') for a malformed parameter, ApiError EXPIRED when every
   * airdrop membership of the account has ended, INVALID_CREDENTIALS for an unknown wallet.
   */
  loginWithWallet(entropy: string): Promise<AccountUser>;
  logout(): Promise<void>;

  // recovery
  /** Rejects ApiError USER_NOT_FOUND. */
  sendRecovery(email: string): Promise<void>;
  /** Checks the words against the address in the link's uid. Rejects Error('PHRASE_MISMATCH'). */
  checkRecoveryPhrase(uid: string, words: string[]): Promise<void>;
  /** Rejects ApiError INVALID_SIGNATURE ('Invalid recovery phrase.'), CODE_MISMATCH, EXPIRED. */
  resetPassword(uid: string, code: string, newPassword: string): Promise<AccountUser>;

  // account security
  /** Proves the password again; rejects ApiError INVALID_CREDENTIALS. Returns a reauth token. */
  reauthenticate(password: string): Promise<string>;
  revealPhrase(password: string): Promise<string[]>;
  changePassword(currentPassword: string, newPassword: string): Promise<void>;
  startTotpSetup(password: string): Promise<{ secret: string; otpauthUrl: string }>;
  enableTotp(code: string, device: string): Promise<AccountUser>;
  startSmsSetup(password: string, phoneNumber: string): Promise<void>;
  enableSms(code: string): Promise<AccountUser>;
  disableMfa(): Promise<AccountUser>;
  deleteAccount(): Promise<void>;
  exportPrivateKeys(): Promise<{ signingKey: string; encryptionKey: string }>;
}
