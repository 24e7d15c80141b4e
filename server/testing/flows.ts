/** Client-side account flows for server tests, speaking only the public API. */
import { expect } from 'vitest';
import { LoginFinishResponse, SessionResponse, SessionResult } from '../../src/protocol/auth';
import { type ApiClient, type ApiResponse, errorCode } from './ApiClient';
import { latestMailTo } from './mailbox';
import type { TestUser } from './TestUser';

/** Fails the test with the answer when `response` is not `status`. */
export function expectStatus(response: ApiResponse, status: number): void {
  if (response.status !== status) {
    throw new Error(`Expected HTTP ${status}, got ${response.status}: ${response.raw.slice(0, 500)}`);
  }
}

function field(body: unknown, name: string): string {
  if (typeof body === 'object' && body !== null && name in body) {
    const value: unknown = Reflect.get(body, name);
    if (typeof value === 'string') return value;
  }
  throw new Error(`Answer has no string "${name}": ${JSON.stringify(body)}`);
}

/** POST /auth/signup/start + finish, signed by the user's key. Returns the finish answer. */
export async function signUp(api: ApiClient, user: TestUser, options: { referrerId?: string } = {}): Promise<ApiResponse> {
  const registration = user.startRegistration();
  const start = await api.post('/api/auth/signup/start', { email: user.email, registrationRequest: registration.registrationRequest });
  if (start.status !== 200) return start;
  const { registrationRecord, exportKey } = user.finishRegistration(registration.state, field(start.body, 'registrationResponse'));
  const encBackupPhrase = await user.sealPhrase(exportKey);
  // The server verifies over the e-mail as the protocol's Email schema normalises it.
  const signed = {
    purpose: 'signup',
    email: user.email.trim().toLowerCase(),
    address: user.address,
    publicSigningKey: user.publicSigningKey,
    publicEncryptionKey: user.publicEncryptionKey,
    registrationRecord,
    encBackupPhrase,
  };
  const { purpose: _purpose, ...request } = signed;
  return api.post('/api/auth/signup/finish', {
    ...request,
    email: user.email,
    ...(options.referrerId ? { referrerId: options.referrerId } : {}),
    signature: await user.sign(signed),
  });
}

/** The uid and code of the newest verification link e-mailed to the user. */
export function verificationLink(dataDir: string, email: string): { uid: string; code: string; url: URL } {
  const mail = latestMailTo(dataDir, email);
  const link = mail?.links.find((l) => l.includes('/login?'));
  if (!link) throw new Error(`No verification mail to ${email}`);
  const url = new URL(link);
  return { uid: url.searchParams.get('uid') ?? '', code: url.searchParams.get('code') ?? '', url };
}

export async function verifyEmail(api: ApiClient, dataDir: string, email: string): Promise<ApiResponse> {
  const { uid, code } = verificationLink(dataDir, email);
  return api.post('/api/auth/verify-email', { uid, code });
}

/** Signs up and follows the e-mailed link. */
export async function signUpVerified(api: ApiClient, dataDir: string, user: TestUser): Promise<void> {
  expectStatus(await signUp(api, user), 200);
  expectStatus(await verifyEmail(api, dataDir, user.email), 200);
}

/**
 * login/start + login/finish. With a wrong password the client itself notices (OPAQUE), so
 * `proofRejectedByClient` is true and finish is not called.
 */
export async function logIn(
  api: ApiClient,
  user: TestUser,
  options: { password?: string; keepSignedIn?: boolean } = {},
): Promise<{ response: ApiResponse; proofRejectedByClient: boolean }> {
  const password = options.password ?? user.password;
  const login = user.startLogin(password);
  const start = await api.post('/api/auth/login/start', { email: user.email, startLoginRequest: login.startLoginRequest });
  if (start.status !== 200) return { response: start, proofRejectedByClient: false };
  const finished = user.finishLogin(login.state, field(start.body, 'loginResponse'), password);
  if (!finished) return { response: start, proofRejectedByClient: true };
  const response = await api.post('/api/auth/login/finish', {
    loginId: field(start.body, 'loginId'),
    finishLoginRequest: finished.finishLoginRequest,
    keepSignedIn: options.keepSignedIn ?? false,
  });
  return { response, proofRejectedByClient: false };
}

/** Logs in (no two-factor) and returns the session. */
export async function logInSession(api: ApiClient, user: TestUser, keepSignedIn = false): Promise<SessionResult> {
  const { response } = await logIn(api, user, { keepSignedIn });
  expectStatus(response, 200);
  const parsed = LoginFinishResponse.parse(response.body);
  if (parsed.status !== 'ok') throw new Error('Expected a session, got a two-factor challenge');
  return SessionResult.parse(parsed);
}

/** Sign-up, verification and login in one go. */
export async function newSession(api: ApiClient, dataDir: string, user: TestUser): Promise<SessionResult> {
  await signUpVerified(api, dataDir, user);
  return logInSession(api, user);
}

/** Proves the password again; returns the reauth token. */
export async function reauthenticate(api: ApiClient, user: TestUser, token: string, password = user.password): Promise<ApiResponse> {
  const login = user.startLogin(password);
  const start = await api.post('/api/auth/reauth/start', { startLoginRequest: login.startLoginRequest }, { token });
  expectStatus(start, 200);
  const finished = user.finishLogin(login.state, field(start.body, 'loginResponse'), password);
  if (!finished) throw new Error('Wrong password for reauth');
  return api.post('/api/auth/reauth/finish', { loginId: field(start.body, 'loginId'), finishLoginRequest: finished.finishLoginRequest }, { token });
}

export async function reauthToken(api: ApiClient, user: TestUser, token: string): Promise<string> {
  const response = await reauthenticate(api, user, token);
  expectStatus(response, 200);
  return field(response.body, 'reauthToken');
}

/** Changes the user's password through reauth + password/start + password/finish. */
export async function changePassword(api: ApiClient, user: TestUser, token: string, newPassword: string): Promise<ApiResponse> {
  const reauth = await reauthToken(api, user, token);
  const registration = user.startRegistration(newPassword);
  const start = await api.post('/api/account/password/start', { reauthToken: reauth, registrationRequest: registration.registrationRequest }, { token });
  expectStatus(start, 200);
  const { registrationRecord, exportKey } = user.finishRegistration(registration.state, field(start.body, 'registrationResponse'), newPassword);
  const encBackupPhrase = await user.sealPhrase(exportKey);
  const userId = SessionResponse.parse((await api.get('/api/account', { token })).body).user.id;
  const signature = await user.sign({ purpose: 'change-password', userId, registrationRecord, encBackupPhrase });
  const finish = await api.post('/api/account/password/finish', { reauthToken: reauth, registrationRecord, encBackupPhrase, signature }, { token });
  if (finish.status === 200) user.password = newPassword;
  return finish;
}

export function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, code: errorCode(response) }).toEqual({ status, code });
}

export { field };
