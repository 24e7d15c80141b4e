import { expect, it } from 'vitest';
import { ServerConfig } from '../../src/protocol/auth';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { AdminService } from '../admin/AdminService';
import { expectError, expectStatus, logIn, newSession, reauthToken, signUp } from '../testing/flows';
import { latestMailTo, latestSmsCode } from '../testing/mailbox';
import { TestUser } from '../testing/TestUser';

/** Issue 20: MAIL_FROM, SIGNUPS_ALLOWED, SIGNUP_EMAIL_DOMAINS and the SMS provider. */
describeEachDatabase("operator's settings", (env) => {
  it('sends every mail from MAIL_FROM', async () => {
    const api = new ApiClient(await env.buildApp({ config: { mailFrom: 'Team Vault <vault@example.com>' } }));
    const user = await TestUser.create();
    expectStatus(await signUp(api, user), 200);
    const mail = latestMailTo(env.dataDir, user.email);
    expect(mail?.decoded).toMatch(/^From: Team Vault <vault@example\.com>$/m);
  });

  it('SIGNUPS_ALLOWED=false: sign-up answers SIGNUPS_CLOSED, creates nothing, and GET /config says so', async () => {
    const api = new ApiClient(await env.buildApp({ config: { signupsAllowed: false } }));
    const config = ServerConfig.parse((await api.get('/api/config')).body);
    expect(config.signupsAllowed).toBe(false);
    const user = await TestUser.create();
    const response = await signUp(api, user);
    expectError(response, 403, 'SIGNUPS_CLOSED');
    expect(JSON.stringify(response.body)).toContain('Sign-ups are closed on this server.');
    expect(await env.db.selectFrom('users').select('id').where('email', '=', user.email.toLowerCase()).executeTakeFirst()).toBeUndefined();
    expect(latestMailTo(env.dataDir, user.email)).toBeUndefined();
  });

  it('a sign-up started before sign-ups closed does not finish', async () => {
    const open = new ApiClient(await env.buildApp());
    const closed = new ApiClient(await env.buildApp({ config: { signupsAllowed: false } }));
    const user = await TestUser.create();
    const registration = user.startRegistration();
    expectStatus(await open.post('/api/auth/signup/start', { email: user.email, registrationRequest: registration.registrationRequest }), 200);
    // The finish step alone, on the server whose operator has since closed sign-ups.
    expectError(await signUp(closed, user), 403, 'SIGNUPS_CLOSED');
  });

  it('SIGNUP_EMAIL_DOMAINS: only those domains sign up; others get an error naming the rule', async () => {
    const api = new ApiClient(await env.buildApp({ config: { signupEmailDomains: ['example.com', 'example.org'] } }));
    expect(ServerConfig.parse((await api.get('/api/config')).body).signupsAllowed).toBe(true);
    const outsider = await TestUser.create({ email: `outsider-${Date.now()}@elsewhere.net` });
    const refused = await signUp(api, outsider);
    expectError(refused, 403, 'SIGNUPS_CLOSED');
    expect(JSON.stringify(refused.body)).toContain('Sign-ups on this server are only for e-mail addresses at example.com, example.org.');
    // A look-alike domain is not the domain.
    expectError(await signUp(api, await TestUser.create({ email: `x-${Date.now()}@notexample.com` })), 403, 'SIGNUPS_CLOSED');

    const insider = await TestUser.create({ email: `insider-${Date.now()}@Example.ORG` });
    expectStatus(await signUp(api, insider), 200);
  });

  it('no SMS provider: GET /config says so and SMS two-factor cannot be turned on', async () => {
    const api = new ApiClient(await env.buildApp({ sms: null }));
    expect(ServerConfig.parse((await api.get('/api/config')).body).smsAvailable).toBe(false);
    const user = await TestUser.create();
    const { token } = await newSession(api, env.dataDir, user);
    const phoneNumber = '+4915199988877';
    const reauth = await reauthToken(api, user, token);
    expectError(await api.post('/api/account/mfa/sms/setup', { reauthToken: reauth, phoneNumber }, { token }), 422, 'SMS_UNAVAILABLE');
    expectError(await api.post('/api/account/mfa/sms/enable', { code: '123456' }, { token }), 422, 'SMS_UNAVAILABLE');
    expect(latestSmsCode(env.dataDir, phoneNumber)).toBeUndefined();
    const account = await api.get('/api/account', { token });
    expect(account.body).toMatchObject({ user: { mfaType: null } });
  });

  it('an account with SMS two-factor on a server without a provider is told so at login; reset-2fa lets it in', async () => {
    const withSms = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const { token } = await newSession(withSms, env.dataDir, user);
    const phoneNumber = '+4915155566677';
    expectStatus(await withSms.post('/api/account/mfa/sms/setup', { reauthToken: await reauthToken(withSms, user, token), phoneNumber }, { token }), 200);
    expectStatus(await withSms.post('/api/account/mfa/sms/enable', { code: latestSmsCode(env.dataDir, phoneNumber) }, { token }), 200);

    const withoutSms = new ApiClient(await env.buildApp({ sms: null }));
    const { response } = await logIn(withoutSms, user);
    expectError(response, 422, 'SMS_UNAVAILABLE');
    expect(JSON.stringify(response.body)).toContain('Please contact the operator of this server.');

    const admin = new AdminService(env.db, env.clock, { info: () => undefined }, 'operator');
    await admin.resetTwoFactor(user.email);
    expectStatus((await logIn(withoutSms, user)).response, 200);
  });

  it('with the file provider GET /config offers SMS two-factor', async () => {
    const api = new ApiClient(await env.buildApp());
    expect(ServerConfig.parse((await api.get('/api/config')).body)).toMatchObject({ smsAvailable: true, signupsAllowed: true });
  });

  it('GET /config says when permanent vaults go to the embedded gateway', async () => {
    const embedded = new ApiClient(await env.buildApp({ config: { arweaveGateway: null } }));
    expect(ServerConfig.parse((await embedded.get('/api/config')).body).permanentOnEmbeddedGateway).toBe(true);
    const network = new ApiClient(await env.buildApp({ config: { arweaveGateway: 'https://arweave.net' } }));
    expect(ServerConfig.parse((await network.get('/api/config')).body).permanentOnEmbeddedGateway).toBe(false);
  });
});
