/**
 * Issue 18 (trust): behind a reverse proxy (TRUST_PROXY) each visitor has its own per-IP budget,
 * and login and two-factor are also limited per account, so an attacker rotating addresses
 * cannot brute-force one account.
 */
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { expect, it } from 'vitest';
import { MfaRequired, TotpSetupResponse } from '../../src/protocol/auth';
import { ApiClient, errorCode } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus, logIn, newSession, reauthToken } from '../testing/flows';
import { TestUser } from '../testing/TestUser';

const PROXY = '10.0.0.2';

/** A POST as the proxy forwards it: from the proxy's address, the visitor in X-Forwarded-For. */
async function postFrom(app: FastifyInstance, visitor: string, url: string, body: unknown): Promise<{ status: number; code: string | undefined }> {
  const response = await app.inject({
    method: 'POST',
    url,
    remoteAddress: PROXY,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': visitor },
    payload: JSON.stringify(body),
  });
  const parsed: unknown = response.body ? JSON.parse(response.body) : undefined;
  return { status: response.statusCode, code: errorCode({ status: response.statusCode, body: parsed, headers: {}, cookies: {}, raw: response.body }) };
}

describeEachDatabase('rate limits behind a proxy and per account', (env) => {
  it('without TRUST_PROXY every visitor of the proxy shares one budget, and X-Forwarded-For is not believed', async () => {
    const app = await env.buildApp({ config: { authRateLimit: 3 } });
    const answers = [];
    for (const visitor of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']) {
      answers.push((await postFrom(app, visitor, '/api/auth/verify-email/resend', { email: `v${visitor}@example.com` })).status);
    }
    expect(answers).toEqual([200, 200, 200, 429]);
  });

  it('with TRUST_PROXY each visitor has its own per-IP budget', async () => {
    const app = await env.buildApp({ config: { authRateLimit: 3, trustProxy: 1 } });
    const resend = (visitor: string, n: number) => postFrom(app, visitor, '/api/auth/verify-email/resend', { email: `n${n}@example.com` });
    for (let n = 0; n < 3; n += 1) expect((await resend('198.51.100.1', n)).status).toBe(200);
    expect(await resend('198.51.100.1', 3)).toEqual({ status: 429, code: 'RATE_LIMITED' });
    // Another visitor behind the same proxy is not blocked by the first one's requests.
    expect((await resend('198.51.100.2', 4)).status).toBe(200);
    // One hop: a client's own X-Forwarded-For entry in front of the proxy's is not believed.
    expect(await resend('203.0.113.9, 198.51.100.1', 5)).toEqual({ status: 429, code: 'RATE_LIMITED' });
  });

  it('limits login per account, whatever the address', async () => {
    const app = await env.buildApp({ config: { authRateLimit: 3, trustProxy: 1 } });
    const victim = await TestUser.create();
    const startFrom = (visitor: string, email: string) =>
      postFrom(app, visitor, '/api/auth/login/start', { email, startLoginRequest: victim.startLogin('guess').startLoginRequest });
    for (let n = 1; n <= 3; n += 1) expect((await startFrom(`198.51.100.${n}`, victim.email)).status).toBe(200);
    expect(await startFrom('198.51.100.4', victim.email)).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(await startFrom('198.51.100.5', victim.email.toUpperCase())).toEqual({ status: 429, code: 'RATE_LIMITED' });
    // Other accounts are not locked out.
    expect((await startFrom('198.51.100.6', `other-${victim.email}`)).status).toBe(200);
  });

  it('limits password proofs of a signed-in session (reauth) per account, whatever the address', async () => {
    const app = await env.buildApp({ config: { authRateLimit: 3, trustProxy: 1 } });
    const user = await TestUser.create();
    const { token } = await newSession(new ApiClient(app), env.dataDir, user);
    const reauthFrom = async (visitor: string) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/reauth/start',
        remoteAddress: PROXY,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': visitor, authorization: `Bearer ${token}` },
        payload: JSON.stringify({ startLoginRequest: user.startLogin('guess').startLoginRequest }),
      });
      return response.statusCode;
    };
    expect([await reauthFrom('198.51.100.1'), await reauthFrom('198.51.100.2'), await reauthFrom('198.51.100.3')]).toEqual([200, 200, 200]);
    expect(await reauthFrom('198.51.100.4')).toBe(429);
  });

  it('limits two-factor codes per account across challenges and addresses', async () => {
    const app = await env.buildApp({ config: { authRateLimit: 3, trustProxy: 1 } });
    const api = new ApiClient(app);
    const user = await TestUser.create();
    const { token } = await newSession(api, env.dataDir, user);
    const setup = await api.post('/api/account/mfa/totp/setup', { reauthToken: await reauthToken(api, user, token) }, { token });
    const { secret } = TotpSetupResponse.parse(setup.body);
    const code = await generate({ secret, epoch: Math.floor(env.clock.now() / 1000) });
    expectStatus(await api.post('/api/account/mfa/totp/enable', { code, device: 'Phone' }, { token }), 200);

    // The attacker knows the password and opens a new challenge whenever one runs out.
    const challenge = async () => MfaRequired.parse((await logIn(api, user)).response.body).mfaToken;
    const first = await challenge();
    const second = await challenge();
    const wrong = (mfaToken: string, visitor: string) => postFrom(app, visitor, '/api/auth/mfa/verify', { mfaToken, code: '000000' });
    expect((await wrong(first, '198.51.100.1')).code).toBe('WRONG_CODE');
    expect((await wrong(first, '198.51.100.2')).code).toBe('WRONG_CODE');
    expect((await wrong(second, '198.51.100.3')).code).toBe('WRONG_CODE');
    expect(await wrong(second, '198.51.100.4')).toEqual({ status: 429, code: 'RATE_LIMITED' });
    // Even the right code waits: the budget is the account's.
    const right = await generate({ secret, epoch: Math.floor(env.clock.now() / 1000) + 30 });
    expect(await postFrom(app, '198.51.100.5', '/api/auth/mfa/verify', { mfaToken: second, code: right })).toEqual({ status: 429, code: 'RATE_LIMITED' });
  });
});
