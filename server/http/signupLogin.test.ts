import { expect, it } from 'vitest';
import { LoginFinishResponse, LoginStartResponse, SessionResponse, SessionResult } from '../../src/protocol/auth';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import {
  expectError,
  expectStatus,
  field,
  logIn,
  logInSession,
  signUp,
  signUpVerified,
  verificationLink,
  verifyEmail,
} from '../testing/flows';
import { latestMailTo, readMailbox } from '../testing/mailbox';
import { TestUser } from '../testing/TestUser';

describeEachDatabase('sign-up and login', (env) => {
  it('signs up, e-mails a verification link, verifies and logs in', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create({ email: 'Alice.Example@Example.com' });
    expectStatus(await signUp(api, user), 200);

    const mail = latestMailTo(env.dataDir, 'alice.example@example.com');
    expect(mail?.subject).toMatch(/verify/i);
    const { url, uid } = verificationLink(env.dataDir, 'alice.example@example.com');
    expect(url.origin + url.pathname).toBe('http://cairn.test/login');
    expect(JSON.parse(Buffer.from(uid, 'base64url').toString('utf8'))).toEqual({ email: 'alice.example@example.com' });
    expect(mail?.file).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]+\.eml$/);
    expect(mail?.decoded).toContain('From: Cairn <no-reply@cairn.local>');

    const verified = await verifyEmail(api, env.dataDir, user.email);
    expectStatus(verified, 200);
    expect(verified.body).toEqual({ status: 'VERIFIED' });
    // Following the link again counts as success (spec: status CONFIRMED).
    expect((await verifyEmail(api, env.dataDir, user.email)).body).toEqual({ status: 'CONFIRMED' });

    const { response } = await logIn(api, user, { keepSignedIn: true });
    expectStatus(response, 200);
    const session = SessionResult.parse(LoginFinishResponse.parse(response.body));
    expect(session.user).toMatchObject({
      email: 'alice.example@example.com',
      address: user.address,
      publicSigningKey: user.publicSigningKey,
      mfaType: null,
      hasPhoto: false,
    });
    expect(session.expiresAt).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    expect(response.cookies.cairn_session).toMatchObject({ value: session.token, httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 30 * 24 * 3600 });

    // The cookie and the bearer token both authenticate.
    const byCookie = await api.get('/api/auth/session', { cookie: session.token });
    expectStatus(byCookie, 200);
    expect(SessionResponse.parse(byCookie.body).user.id).toBe(session.user.id);
    expectStatus(await api.get('/api/account', { token: session.token }), 200);
  });

  it('gives a browser-session cookie without keep me signed in', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    await signUpVerified(api, env.dataDir, user);
    const { response } = await logIn(api, user, { keepSignedIn: false });
    expectStatus(response, 200);
    expect(response.cookies.cairn_session?.maxAge).toBeUndefined();
    expect(SessionResult.parse(response.body).expiresAt).toBeNull();
  });

  it('records the referrer of a referral link', async () => {
    const api = new ApiClient(await env.buildApp());
    const referrer = await TestUser.create();
    await signUpVerified(api, env.dataDir, referrer);
    const { user } = await logInSession(api, referrer);
    const invited = await TestUser.create();
    expectStatus(await signUp(api, invited, { referrerId: user.referralId }), 200);
    expectStatus(await signUp(api, await TestUser.create(), { referrerId: 'no-such-referral' }), 200);
    const row = await env.db.selectFrom('users').select('referrer_id').where('email', '=', invited.email).executeTakeFirstOrThrow();
    expect(row.referrer_id).toBe(user.id);
  });

  it('refuses a taken (verified) e-mail', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    await signUpVerified(api, env.dataDir, user);
    expectError(await signUp(api, await TestUser.create({ email: user.email })), 409, 'EMAIL_TAKEN');
  });

  it('refuses a sign-up not signed by its key, or with a foreign address', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const other = await TestUser.create();
    const registration = user.startRegistration();
    const start = await api.post('/api/auth/signup/start', { email: user.email, registrationRequest: registration.registrationRequest });
    expectStatus(start, 200);
    const { registrationRecord, exportKey } = user.finishRegistration(registration.state, field(start.body, 'registrationResponse'));
    const fields = {
      email: user.email,
      address: user.address,
      publicSigningKey: user.publicSigningKey,
      publicEncryptionKey: user.publicEncryptionKey,
      registrationRecord,
      encBackupPhrase: await user.sealPhrase(exportKey),
    };
    const badSignature = await other.sign({ purpose: 'signup', ...fields });
    expectError(await api.post('/api/auth/signup/finish', { ...fields, signature: badSignature }), 403, 'INVALID_SIGNATURE');
    const wrongAddress = { ...fields, address: other.address };
    expectError(
      await api.post('/api/auth/signup/finish', { ...wrongAddress, signature: await user.sign({ purpose: 'signup', ...wrongAddress }) }),
      400,
      'VALIDATION_FAILED',
    );
    expect(latestMailTo(env.dataDir, user.email)).toBeUndefined();
  });

  it('rejects a wrong password', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    await signUpVerified(api, env.dataDir, user);
    // OPAQUE: the client itself finds out the password is wrong...
    const wrong = await logIn(api, user, { password: 'not the password at all' });
    expect(wrong.proofRejectedByClient).toBe(true);
    // ...and a proof from another login attempt is refused by the server.
    const good = user.startLogin();
    const start = await api.post('/api/auth/login/start', { email: user.email, startLoginRequest: good.startLoginRequest });
    const { loginId, loginResponse } = LoginStartResponse.parse(start.body);
    const other = user.startLogin('not the password at all');
    const otherStart = await api.post('/api/auth/login/start', { email: user.email, startLoginRequest: other.startLoginRequest });
    const proof = user.finishLogin(good.state, loginResponse);
    expect(proof).not.toBeNull();
    const mismatched = await api.post('/api/auth/login/finish', {
      loginId: LoginStartResponse.parse(otherStart.body).loginId,
      finishLoginRequest: proof?.finishLoginRequest,
      keepSignedIn: false,
    });
    expectError(mismatched, 401, 'INVALID_CREDENTIALS');
    // A login can be finished once only.
    const replay = await api.post('/api/auth/login/finish', { loginId, finishLoginRequest: proof?.finishLoginRequest, keepSignedIn: false });
    expectStatus(replay, 200);
    expectError(
      await api.post('/api/auth/login/finish', { loginId, finishLoginRequest: proof?.finishLoginRequest, keepSignedIn: false }),
      401,
      'INVALID_CREDENTIALS',
    );
  });

  it('answers login/start for an unknown e-mail like for a known one', async () => {
    const api = new ApiClient(await env.buildApp());
    const ghost = await TestUser.create();
    const login = ghost.startLogin();
    const start = await api.post('/api/auth/login/start', { email: ghost.email, startLoginRequest: login.startLoginRequest });
    expectStatus(start, 200);
    const answer = LoginStartResponse.strict().parse(start.body);
    expect(ghost.finishLogin(login.state, answer.loginResponse)).toBeNull();
  });

  it('refuses an unverified account only after the password is proven', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    expectStatus(await signUp(api, user), 200);
    expect((await logIn(api, user, { password: 'wrong password here' })).proofRejectedByClient).toBe(true);
    expectError((await logIn(api, user)).response, 403, 'USER_NOT_CONFIRMED');
  });

  it('resends a new code and the old one gives CODE_MISMATCH', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    expectStatus(await signUp(api, user), 200);
    const first = verificationLink(env.dataDir, user.email);
    expectStatus(await api.post('/api/auth/verify-email/resend', { email: user.email }), 200);
    expect(readMailbox(env.dataDir).filter((m) => m.to === user.email)).toHaveLength(2);
    const second = verificationLink(env.dataDir, user.email);
    expect(second.code).not.toBe(first.code);
    expectError(await api.post('/api/auth/verify-email', { uid: first.uid, code: first.code }), 400, 'CODE_MISMATCH');
    expectStatus(await api.post('/api/auth/verify-email', { uid: second.uid, code: second.code }), 200);
    // Resend never reveals whether an account exists.
    expectStatus(await api.post('/api/auth/verify-email/resend', { email: 'nobody@example.com' }), 200);
  });

  it('expires a verification link after a day', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    expectStatus(await signUp(api, user), 200);
    env.clock.advance(25 * 60 * 60 * 1000);
    expectError(await verifyEmail(api, env.dataDir, user.email), 410, 'EXPIRED');
  });

  it('ends the session at logout', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    await signUpVerified(api, env.dataDir, user);
    const session = await logInSession(api, user);
    const logout = await api.post('/api/auth/logout', undefined, { cookie: session.token });
    expectStatus(logout, 200);
    expect(logout.cookies.cairn_session?.value).toBe('');
    expectError(await api.get('/api/auth/session', { cookie: session.token }), 401, 'UNAUTHENTICATED');
    expectError(await api.get('/api/account', { token: session.token }), 401, 'UNAUTHENTICATED');
    // Logging out twice is harmless.
    expectStatus(await api.post('/api/auth/logout', {}, { token: session.token }), 200);
  });

  it('ends a browser session on the server after a day', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    await signUpVerified(api, env.dataDir, user);
    const session = await logInSession(api, user, false);
    env.clock.advance(24 * 60 * 60 * 1000 + 1);
    expectError(await api.get('/api/auth/session', { token: session.token }), 401, 'UNAUTHENTICATED');
  });
});
