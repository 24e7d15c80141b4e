import { generate } from 'otplib';
import { expect, it } from 'vitest';
import { MfaRequired, SessionResponse, SessionResult, TotpSetupResponse } from '../../src/protocol/auth';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus, field, logIn, newSession, reauthenticate, reauthToken } from '../testing/flows';
import { latestSmsCode } from '../testing/mailbox';
import { TestUser } from '../testing/TestUser';

describeEachDatabase('two-factor and reauth', (env) => {
  const totpAt = (secret: string, offsetMs = 0) => generate({ secret, epoch: Math.floor((env.clock.now() + offsetMs) / 1000) });

  async function enableTotp(api: ApiClient, user: TestUser, token: string): Promise<string> {
    const reauth = await reauthToken(api, user, token);
    const setup = await api.post('/api/account/mfa/totp/setup', { reauthToken: reauth }, { token });
    expectStatus(setup, 200);
    const { secret, otpauthUrl } = TotpSetupResponse.parse(setup.body);
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Cairn:/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    // A setup needs a fresh password proof each time.
    expectError(await api.post('/api/account/mfa/totp/setup', { reauthToken: reauth }, { token }), 401, 'INVALID_CREDENTIALS');
    expectError(await api.post('/api/account/mfa/totp/enable', { code: '000000', device: 'Phone' }, { token }), 400, 'WRONG_CODE');
    const enabled = await api.post('/api/account/mfa/totp/enable', { code: await totpAt(secret), device: 'Pixel 9' }, { token });
    expectStatus(enabled, 200);
    expect(SessionResponse.parse(enabled.body).user).toMatchObject({ mfaType: 'TOTP', mfaDevice: 'Pixel 9' });
    return secret;
  }

  it('sets up TOTP and asks for it at login', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const secret = await enableTotp(api, user, session.token);

    const { response } = await logIn(api, user, { keepSignedIn: true });
    expectStatus(response, 200);
    const challenge = MfaRequired.parse(response.body);
    expect(challenge).toMatchObject({ mfaType: 'TOTP', device: 'Pixel 9' });
    expect(response.cookies.cairn_session).toBeUndefined();

    expectError(await api.post('/api/auth/mfa/verify', { mfaToken: challenge.mfaToken, code: '123456' }), 400, 'WRONG_CODE');
    // The code used to enable is spent; the next step's code works (clock drift of one step is allowed).
    const verified = await api.post('/api/auth/mfa/verify', { mfaToken: challenge.mfaToken, code: await totpAt(secret, 30_000) });
    expectStatus(verified, 200);
    const result = SessionResult.parse(verified.body);
    expect(verified.cookies.cairn_session?.value).toBe(result.token);
    expect(result.expiresAt).not.toBeNull();
    // The challenge is used up.
    expectError(await api.post('/api/auth/mfa/verify', { mfaToken: challenge.mfaToken, code: await totpAt(secret, 30_000) }), 410, 'EXPIRED');
  });

  it('expires a challenge after 5 wrong codes or 10 minutes', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const secret = await enableTotp(api, user, session.token);

    const first = MfaRequired.parse((await logIn(api, user)).response.body);
    for (let i = 0; i < 4; i += 1) {
      expectError(await api.post('/api/auth/mfa/verify', { mfaToken: first.mfaToken, code: '000000' }), 400, 'WRONG_CODE');
    }
    expectError(await api.post('/api/auth/mfa/verify', { mfaToken: first.mfaToken, code: '000000' }), 410, 'EXPIRED');
    expectError(await api.post('/api/auth/mfa/verify', { mfaToken: first.mfaToken, code: await totpAt(secret) }), 410, 'EXPIRED');

    const second = MfaRequired.parse((await logIn(api, user)).response.body);
    env.clock.advance(10 * 60 * 1000 + 1);
    expectError(await api.post('/api/auth/mfa/verify', { mfaToken: second.mfaToken, code: await totpAt(secret) }), 410, 'EXPIRED');
  });

  it('sends SMS codes through the SMS port, at setup and at login', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const phoneNumber = '+4915112345678';
    const session = await newSession(api, env.dataDir, user);
    const token = session.token;

    const reauth = await reauthToken(api, user, token);
    expectStatus(await api.post('/api/account/mfa/sms/setup', { reauthToken: reauth, phoneNumber }, { token }), 200);
    const setupCode = latestSmsCode(env.dataDir, phoneNumber);
    expect(setupCode).toMatch(/^\d{6}$/);
    const wrong = setupCode === '000000' ? '111111' : '000000';
    expectError(await api.post('/api/account/mfa/sms/enable', { code: wrong }, { token }), 400, 'WRONG_CODE');
    const enabled = await api.post('/api/account/mfa/sms/enable', { code: setupCode }, { token });
    expectStatus(enabled, 200);
    expect(SessionResponse.parse(enabled.body).user).toMatchObject({ mfaType: 'SMS', mfaDevice: '**********5678' });

    const challenge = MfaRequired.parse((await logIn(api, user)).response.body);
    expect(challenge).toMatchObject({ mfaType: 'SMS', device: '**********5678' });
    const firstCode = latestSmsCode(env.dataDir, phoneNumber);
    expectStatus(await api.post('/api/auth/mfa/resend', { mfaToken: challenge.mfaToken }), 200);
    const resent = latestSmsCode(env.dataDir, phoneNumber);
    if (resent !== firstCode) {
      expectError(await api.post('/api/auth/mfa/verify', { mfaToken: challenge.mfaToken, code: firstCode }), 400, 'WRONG_CODE');
    }
    const verified = await api.post('/api/auth/mfa/verify', { mfaToken: challenge.mfaToken, code: resent });
    expectStatus(verified, 200);
    const { token: newToken, user: account } = SessionResult.parse(verified.body);

    // The session alone cannot turn two-factor off: the account key must sign the request.
    const signedAt = env.clock.now();
    const forged = await (await TestUser.create()).sign({ purpose: 'disable-mfa', userId: account.id, signedAt });
    expectError(await api.post('/api/account/mfa/disable', { signedAt, signature: forged }, { token: newToken }), 403, 'INVALID_SIGNATURE');
    const otherPurpose = await user.sign({ purpose: 'delete-account', userId: account.id, signedAt });
    expectError(await api.post('/api/account/mfa/disable', { signedAt, signature: otherPurpose }, { token: newToken }), 403, 'INVALID_SIGNATURE');
    expect(SessionResponse.parse((await api.get('/api/account', { token: newToken })).body).user.mfaType).toBe('SMS');

    const signature = await user.sign({ purpose: 'disable-mfa', userId: account.id, signedAt });
    const disabled = await api.post('/api/account/mfa/disable', { signedAt, signature }, { token: newToken });
    expectStatus(disabled, 200);
    expect(SessionResponse.parse(disabled.body).user).toMatchObject({ mfaType: null, mfaDevice: null });
    expect(SessionResult.parse((await logIn(api, user)).response.body).status).toBe('ok');
  });

  it('reauth needs the session and the right password, and lasts 10 minutes', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const token = session.token;

    expectError(await api.post('/api/auth/reauth/start', { startLoginRequest: user.startLogin().startLoginRequest }), 401, 'UNAUTHENTICATED');

    // Wrong password: the client finds out; a proof for another login is refused.
    const wrong = user.startLogin('definitely wrong password');
    const start = await api.post('/api/auth/reauth/start', { startLoginRequest: wrong.startLoginRequest }, { token });
    expectStatus(start, 200);
    expect(user.finishLogin(wrong.state, field(start.body, 'loginResponse'), 'definitely wrong password')).toBeNull();
    expectError(
      await api.post('/api/auth/reauth/finish', { loginId: field(start.body, 'loginId'), finishLoginRequest: 'AAAA' }, { token }),
      401,
      'INVALID_CREDENTIALS',
    );

    const ok = await reauthenticate(api, user, token);
    expectStatus(ok, 200);
    const reauth = field(ok.body, 'reauthToken');

    // Bound to the session that made it.
    const otherSession = SessionResult.parse((await logIn(api, user)).response.body);
    expectError(await api.post('/api/account/mfa/totp/setup', { reauthToken: reauth }, { token: otherSession.token }), 401, 'INVALID_CREDENTIALS');

    env.clock.advance(10 * 60 * 1000 + 1);
    expectError(await api.post('/api/account/mfa/totp/setup', { reauthToken: reauth }, { token }), 401, 'INVALID_CREDENTIALS');
  });
});
