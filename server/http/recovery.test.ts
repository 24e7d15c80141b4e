import { expect, it } from 'vitest';
import { RecoverRegisterResponse, SessionResult } from '../../src/protocol/auth';
import { ApiClient, type ApiResponse } from '../testing/ApiClient';
import { describeEachDatabase, type TestEnv } from '../testing/databases';
import { expectError, expectStatus, logIn, logInSession, newSession } from '../testing/flows';
import { latestMailTo } from '../testing/mailbox';
import { TestUser } from '../testing/TestUser';

function recoveryLink(env: TestEnv, email: string): { uid: string; code: string; url: URL } {
  const link = latestMailTo(env.dataDir, email)?.links.find((l) => l.includes('/recover/backup-phrase?'));
  if (!link) throw new Error('no recovery mail');
  const url = new URL(link);
  return { uid: url.searchParams.get('uid') ?? '', code: url.searchParams.get('code') ?? '', url };
}

/** The client side of recovery: register the new password and sign with `signer`'s key. */
async function recover(api: ApiClient, user: TestUser, code: string, newPassword: string, signer: TestUser = user): Promise<ApiResponse> {
  const registration = user.startRegistration(newPassword);
  const register = await api.post('/api/auth/recover/register', { email: user.email, code, registrationRequest: registration.registrationRequest });
  expectStatus(register, 200);
  const { registrationResponse, challenge } = RecoverRegisterResponse.parse(register.body);
  const { registrationRecord, exportKey } = user.finishRegistration(registration.state, registrationResponse, newPassword);
  const encBackupPhrase = await user.sealPhrase(exportKey);
  const signature = await signer.sign({ purpose: 'recover', email: user.email, challenge, registrationRecord, encBackupPhrase });
  return api.post('/api/auth/recover/finish', {
    email: user.email,
    code,
    challenge,
    registrationRecord,
    encBackupPhrase,
    keepSignedIn: true,
    signature,
  });
}

describeEachDatabase('recovery', (env) => {
  it('answers USER_NOT_FOUND for an unknown e-mail', async () => {
    const api = new ApiClient(await env.buildApp());
    expectError(await api.post('/api/auth/recover/start', { email: 'nobody@example.com' }), 404, 'USER_NOT_FOUND');
  });

  it('recovers with the phrase: new password, other sessions ended, a new session', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const old = await newSession(api, env.dataDir, user);
    const oldPassword = user.password;

    expectStatus(await api.post('/api/auth/recover/start', { email: user.email }), 200);
    const { uid, code, url } = recoveryLink(env, user.email);
    expect(url.origin + url.pathname).toBe('http://cairn.test/recover/backup-phrase');
    expect(JSON.parse(Buffer.from(uid, 'base64url').toString('utf8'))).toEqual({ email: user.email, address: user.address });

    const finish = await recover(api, user, code, 'my recovered passphrase 123');
    expectStatus(finish, 200);
    const session = SessionResult.parse(finish.body);
    expect(finish.cookies.cairn_session?.value).toBe(session.token);
    expect(session.user.address).toBe(user.address);

    expectError(await api.get('/api/account', { token: old.token }), 401, 'UNAUTHENTICATED');
    expectStatus(await api.get('/api/account', { token: session.token }), 200);
    expect((await logIn(api, user, { password: oldPassword })).proofRejectedByClient).toBe(true);
    user.password = 'my recovered passphrase 123';
    await logInSession(api, user);
    // The link is spent.
    expectError(
      await api.post('/api/auth/recover/register', { email: user.email, code, registrationRequest: user.startRegistration().registrationRequest }),
      400,
      'CODE_MISMATCH',
    );
  });

  it('refuses a signature by another key and changes nothing', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const before = await env.db.selectFrom('users').selectAll().where('id', '=', session.user.id).executeTakeFirstOrThrow();

    expectStatus(await api.post('/api/auth/recover/start', { email: user.email }), 200);
    const { code } = recoveryLink(env, user.email);
    expectError(await recover(api, user, code, 'attacker chosen password 1', await TestUser.create()), 403, 'INVALID_SIGNATURE');

    const after = await env.db.selectFrom('users').selectAll().where('id', '=', session.user.id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expectStatus(await api.get('/api/account', { token: session.token }), 200);
    await logInSession(api, user);
    // The link still works for the real owner.
    expectStatus(await recover(api, user, code, 'the real owner again 99'), 200);
  });

  it('rejects an old link, a stale challenge and an expired link', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    await newSession(api, env.dataDir, user);
    expectStatus(await api.post('/api/auth/recover/start', { email: user.email }), 200);
    const first = recoveryLink(env, user.email).code;
    expectStatus(await api.post('/api/auth/recover/start', { email: user.email }), 200);
    const second = recoveryLink(env, user.email).code;
    const registrationRequest = user.startRegistration().registrationRequest;
    expectError(await api.post('/api/auth/recover/register', { email: user.email, code: first, registrationRequest }), 400, 'CODE_MISMATCH');

    env.clock.advance(60 * 60 * 1000 + 1);
    expectError(await api.post('/api/auth/recover/register', { email: user.email, code: second, registrationRequest }), 410, 'EXPIRED');
  });
});
