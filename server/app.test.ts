import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ServerConfig, SessionResult } from '../src/protocol/auth';
import { parseErrorBody } from '../src/protocol/errors';
import { PROTOCOL_VERSION } from '../src/protocol/version';
import { ApiClient, errorCode } from './testing/ApiClient';
import { describeEachDatabase } from './testing/databases';
import { expectError, expectStatus, logIn, newSession, reauthToken } from './testing/flows';
import { TestUser } from './testing/TestUser';

const CSP =
  "default-src 'self';script-src 'self' 'wasm-unsafe-eval';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;" +
  "font-src 'self' data:;connect-src 'self';worker-src 'self' blob:;frame-src 'self' blob:;media-src 'self' blob:;manifest-src 'self';object-src 'none';base-uri 'self';" +
  "form-action 'self';frame-ancestors 'none'";

function makeClient(dir: string): string {
  const dist = path.join(dir, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Cairn</title><script type="module" src="/assets/index-AbCd1234.js"></script>');
  fs.writeFileSync(path.join(dist, 'assets', 'index-AbCd1234.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), '{}');
  return dist;
}

describeEachDatabase('app', (env) => {
  it('answers health and config', async () => {
    const api = new ApiClient(await env.buildApp({ config: { seriousIssue: true, sunsetBannerUrl: 'https://example.com/news' } }));
    const health = await api.get('/api/health');
    expectStatus(health, 200);
    expect(health.body).toEqual({ status: 'ok' });
    const config = await api.get('/api/config');
    expect(ServerConfig.parse(config.body)).toEqual({
      maintenance: false,
      readOnly: false,
      seriousIssue: true,
      sunsetBannerUrl: 'https://example.com/news',
      protocolVersion: PROTOCOL_VERSION,
      signupsAllowed: true,
      smsAvailable: true,
      permanentOnEmbeddedGateway: true,
      // PUBLIC_URL is http://cairn.test in tests: organisations are at {subdomain}.cairn.test.
      baseDomain: 'cairn.test',
    });
    expect(config.headers['cache-control']).toBe('no-store');
  });

  it('answers unknown /api paths with 404 JSON', async () => {
    const api = new ApiClient(await env.buildApp());
    for (const url of ['/api/nope', '/api', '/api/auth/../nope']) {
      const response = await api.get(url);
      expectError(response, 404, 'NOT_FOUND');
      expect(parseErrorBody(response.body)?.message).toBeTruthy();
    }
    expectError(await api.post('/api/health', {}), 404, 'NOT_FOUND');
  });

  it('sends security headers and the CSP on the app and on /api', async () => {
    const dist = makeClient(env.dataDir);
    const api = new ApiClient(await env.buildApp({ staticDir: dist }));
    for (const url of ['/', '/api/health', '/api/nope', '/vaults/active']) {
      const response = await api.get(url);
      expect(response.headers['content-security-policy'], url).toBe(CSP);
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['cross-origin-opener-policy'], url).toBe('same-origin');
    }
  });

  it('serves the built client with cache rules and an SPA fallback', async () => {
    const dist = makeClient(env.dataDir);
    const api = new ApiClient(await env.buildApp({ staticDir: dist }));
    const index = await api.get('/');
    expectStatus(index, 200);
    expect(index.raw).toContain('<title>Cairn</title>');
    expect(index.headers['cache-control']).toBe('no-cache');
    const asset = await api.get('/assets/index-AbCd1234.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await api.get('/sw.js')).headers['cache-control']).toBe('no-cache');
    expect((await api.get('/manifest.webmanifest')).headers['cache-control']).toBe('no-cache');
    for (const route of ['/login', '/vaults/active/abc/assets', '/recover/backup-phrase?uid=x&code=y']) {
      const page = await api.get(route);
      expectStatus(page, 200);
      expect(page.raw, route).toContain('<title>Cairn</title>');
      expect(page.headers['cache-control']).toBe('no-cache');
    }
    expectError(await api.get('/assets/missing-12345678.js'), 404, 'NOT_FOUND');
    expectError(await api.get('/api/missing'), 404, 'NOT_FOUND');
  });

  it('answers 503 MAINTENANCE except for health, config and support', async () => {
    const api = new ApiClient(await env.buildApp({ config: { maintenance: true } }));
    expectStatus(await api.get('/api/health'), 200);
    expect(ServerConfig.parse((await api.get('/api/config')).body).maintenance).toBe(true);
    expectStatus(await api.post('/api/support', { error: 'x' }), 200);
    for (const [method, url] of [
      ['POST', '/api/auth/login/start'],
      ['GET', '/api/account'],
      ['GET', '/api/auth/session'],
      ['GET', '/api/nope'],
      ['GET', '/api/ws'],
    ] as const) {
      expectError(await api.request(method, url, method === 'POST' ? {} : undefined), 503, 'MAINTENANCE');
    }
  });

  it('answers 403 READ_ONLY to account changes while login, logout and recovery work', async () => {
    const user = await TestUser.create();
    const writable = new ApiClient(await env.buildApp());
    await newSession(writable, env.dataDir, user);

    const api = new ApiClient(await env.buildApp({ config: { readOnly: true } }));
    const { response } = await logIn(api, user);
    expectStatus(response, 200);
    const { token } = SessionResult.parse(response.body);
    expectStatus(await api.get('/api/account', { token }), 200);
    const reauth = await reauthToken(api, user, token);
    const blocked: [string, string, unknown][] = [
      ['PATCH', '/api/account/attributes', { mode: 'dark' }],
      ['PUT', '/api/account/profile', { name: 'X' }],
      ['DELETE', '/api/account', { signedAt: Date.now(), signature: 'A'.repeat(86) }],
      ['POST', '/api/account/mfa/totp/setup', { reauthToken: reauth }],
      ['POST', '/api/account/mfa/totp/enable', { code: '123456', device: 'x' }],
      ['POST', '/api/account/mfa/sms/setup', { reauthToken: reauth, phoneNumber: '+4915112345678' }],
      ['POST', '/api/account/mfa/sms/enable', { code: '123456' }],
      ['POST', '/api/account/mfa/disable', { signedAt: Date.now(), signature: 'A'.repeat(86) }],
      ['POST', '/api/account/password/start', { reauthToken: reauth, registrationRequest: 'AAAA' }],
      ['POST', '/api/account/password/finish', { reauthToken: reauth, registrationRecord: 'AAAA', encBackupPhrase: 'AAAA', signature: 'A'.repeat(86) }],
    ];
    for (const [method, url, body] of blocked) {
      const answer = await api.request(method as 'POST', url, body, { token });
      expect({ url, status: answer.status, code: errorCode(answer) }).toEqual({ url, status: 403, code: 'READ_ONLY' });
    }
    expectStatus(await api.post('/api/auth/recover/start', { email: user.email }), 200);
    expectStatus(await api.post('/api/auth/logout', undefined, { token }), 200);
  });

  it('rate-limits auth routes per IP and route with 429 RATE_LIMITED', async () => {
    const api = new ApiClient(await env.buildApp({ config: { authRateLimit: 3 } }));
    const body = { email: 'nobody@example.com' };
    for (let i = 0; i < 3; i += 1) expectError(await api.post('/api/auth/recover/start', body), 404, 'USER_NOT_FOUND');
    const limited = await api.post('/api/auth/recover/start', body);
    expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers['retry-after']).toBeDefined();
    // Another route has its own budget; routes without a limit are not counted.
    expectStatus(await api.post('/api/auth/verify-email/resend', body), 200);
    for (let i = 0; i < 5; i += 1) expectStatus(await api.get('/api/health'), 200);
  });
});
