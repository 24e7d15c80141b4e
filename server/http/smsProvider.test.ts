/**
 * SMS two-factor through a real provider adapter (issue 20): a local server stands in for the
 * operator's webhook or Twilio's API and receives what a phone would. What the user sees when the
 * provider fails, and that a failed text changes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { MfaRequired, ServerConfig, SessionResponse, SessionResult } from '../../src/protocol/auth';
import { loadConfig } from '../config';
import { SMS_NOT_SENT_TEXTS } from '../services/MfaService';
import { createSms } from '../sms/createSms';
import { TwilioSms } from '../sms/TwilioSms';
import { WebhookSms } from '../sms/WebhookSms';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus, logIn, newSession, reauthToken } from '../testing/flows';
import { httpApp } from '../testing/httpApp';
import { RecordingServer } from '../testing/recordingServer';
import { startServerProcess } from '../testing/serverProcess';
import { TestUser } from '../testing/TestUser';

const WEBHOOK_TOKEN = 'relay-token-0123456789';

describeEachDatabase('SMS two-factor through a provider', (env) => {
  let phone: RecordingServer;

  beforeAll(async () => {
    phone = await RecordingServer.start();
  });
  afterAll(async () => {
    await phone.stop();
  });
  afterEach(() => {
    phone.requests.length = 0;
    phone.answer = { status: 200, body: '{}' };
  });

  /** The 6-digit code in the newest text the webhook got for `to`. */
  function latestCodeTo(to: string): string {
    const texts = phone.requests.map((r) => JSON.parse(r.body) as { to: string; text: string }).filter((m) => m.to === to);
    const code = /\b(\d{6})\b/.exec(texts.at(-1)?.text ?? '')?.[1];
    if (!code) throw new Error(`No code was texted to ${to}`);
    return code;
  }

  /** An app whose SMS adapter is a webhook to the stand-in phone, as main.ts builds it from the settings. */
  async function webhookApp(): Promise<FastifyInstance> {
    const settings = loadConfig({ DATA_DIR: env.dataDir, SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: `${phone.url}/send`, SMS_WEBHOOK_TOKEN: WEBHOOK_TOKEN });
    return env.buildApp({ config: { smsProvider: settings.smsProvider }, sms: createSms(settings) });
  }

  async function setUpSms(api: ApiClient, user: TestUser, token: string, phoneNumber: string) {
    return api.post('/api/account/mfa/sms/setup', { reauthToken: await reauthToken(api, user, token), phoneNumber }, { token });
  }

  async function accountOf(api: ApiClient, token: string) {
    return SessionResponse.parse((await api.get('/api/account', { token })).body).user;
  }

  it('a server started with SMS_PROVIDER=webhook offers SMS two-factor; the codes reach the webhook and complete setup and login', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-sms-'));
    const server = await startServerProcess({
      dataDir,
      databaseUrl: env.databaseUrl,
      timeoutMs: 120_000,
      env: { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: `${phone.url}/send`, SMS_WEBHOOK_TOKEN: WEBHOOK_TOKEN },
    });
    try {
      const api = new ApiClient(httpApp(server.url));
      expect(ServerConfig.parse((await api.get('/api/config')).body).smsAvailable).toBe(true);
      const user = await TestUser.create();
      const { token } = await newSession(api, dataDir, user);
      const phoneNumber = '+447700900123';

      expectStatus(await setUpSms(api, user, token, phoneNumber), 200);
      expect(phone.requests).toHaveLength(1);
      expect(phone.requests[0]).toMatchObject({ method: 'POST', url: '/send' });
      expect(phone.requests[0]!.headers.authorization).toBe(`Bearer ${WEBHOOK_TOKEN}`);
      expect(JSON.parse(phone.requests[0]!.body)).toEqual({ to: phoneNumber, text: expect.stringMatching(/^Your Cairn code is \d{6}\. It expires in 10 minutes\.$/) });
      const enabled = await api.post('/api/account/mfa/sms/enable', { code: latestCodeTo(phoneNumber) }, { token });
      expectStatus(enabled, 200);
      expect(SessionResponse.parse(enabled.body).user).toMatchObject({ mfaType: 'SMS', mfaDevice: '*********0123' });

      const challenge = MfaRequired.parse((await logIn(api, user)).response.body);
      expect(challenge).toMatchObject({ mfaType: 'SMS', device: '*********0123' });
      expect(phone.requests).toHaveLength(2);
      const verified = await api.post('/api/auth/mfa/verify', { mfaToken: challenge.mfaToken, code: latestCodeTo(phoneNumber) });
      expectStatus(verified, 200);
      expect(SessionResult.parse(verified.body).user.mfaType).toBe('SMS');
      // Nothing was written where SMS_TO_FILES would write.
      expect(fs.existsSync(path.join(dataDir, 'sms'))).toBe(false);
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('a server given SMS_TO_FILES and SMS_PROVIDER together does not start, and says why in one line', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-sms-'));
    try {
      const started = startServerProcess({ dataDir, databaseUrl: env.databaseUrl, env: { SMS_TO_FILES: '1', SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: phone.url } });
      await expect(started).rejects.toThrow(/The server exited with 1: .*SMS_TO_FILES and SMS_PROVIDER are both set/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('an app with the webhook adapter from the settings says smsAvailable in GET /config', async () => {
    const api = new ApiClient(await webhookApp());
    expect(ServerConfig.parse((await api.get('/api/config')).body).smsAvailable).toBe(true);
  });

  it('the webhook answers 500 at setup: the user is told, the earlier pending number still works, and the server logs why', async () => {
    const app = await webhookApp();
    const api = new ApiClient(app);
    const user = await TestUser.create();
    const { token } = await newSession(api, env.dataDir, user);
    const first = '+447700900111';
    expectStatus(await setUpSms(api, user, token, first), 200);
    const firstCode = latestCodeTo(first);

    const logged = vi.spyOn(app.log, 'error');
    phone.answer = { status: 500, body: 'provider down', contentType: 'text/plain' };
    const failed = await setUpSms(api, user, token, '+447700900222');
    expectError(failed, 502, 'SMS_NOT_SENT');
    expect(failed.body).toEqual({ error: { code: 'SMS_NOT_SENT', message: SMS_NOT_SENT_TEXTS.setup } });
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ provider: 'The SMS webhook', status: 500, failure: 'unavailable', to: '*********0222', purpose: 'setup' }),
      'SMS not sent: The SMS webhook answered 500: provider down',
    );
    expect(JSON.stringify(logged.mock.calls)).not.toContain(WEBHOOK_TOKEN);

    // Nothing changed: two-factor is still off, and the first number's code still turns it on.
    expect((await accountOf(api, token)).mfaType).toBeNull();
    phone.answer = { status: 200, body: '{}' };
    const enabled = await api.post('/api/account/mfa/sms/enable', { code: firstCode }, { token });
    expectStatus(enabled, 200);
    expect(SessionResponse.parse(enabled.body).user).toMatchObject({ mfaType: 'SMS', mfaDevice: '*********0111' });
  });

  it('no answer from the provider at login: the login is refused with a clear error and no challenge; a failed resend keeps the sent code working', async () => {
    const app = await env.buildApp({ sms: new WebhookSms({ provider: 'webhook', url: phone.url, token: null }, 300) });
    const api = new ApiClient(app);
    const user = await TestUser.create();
    const { token } = await newSession(api, env.dataDir, user);
    const phoneNumber = '+14155550100';
    expectStatus(await setUpSms(api, user, token, phoneNumber), 200);
    expectStatus(await api.post('/api/account/mfa/sms/enable', { code: latestCodeTo(phoneNumber) }, { token }), 200);
    const userId = (await accountOf(api, token)).id;
    const challengesOf = async () => (await env.db.selectFrom('mfa_challenges').select('token_hash').where('user_id', '=', userId).execute()).length;

    phone.answer = 'never';
    const refused = (await logIn(api, user)).response;
    expectError(refused, 502, 'SMS_NOT_SENT');
    expect(refused.body).toEqual({ error: { code: 'SMS_NOT_SENT', message: SMS_NOT_SENT_TEXTS.login } });
    expect(refused.cookies.cairn_session).toBeUndefined();
    expect(await challengesOf()).toBe(0);

    phone.answer = { status: 200, body: '{}' };
    const challenge = MfaRequired.parse((await logIn(api, user)).response.body);
    const sent = latestCodeTo(phoneNumber);
    phone.answer = { status: 503, body: '' };
    expectError(await api.post('/api/auth/mfa/resend', { mfaToken: challenge.mfaToken }), 502, 'SMS_NOT_SENT');
    expectStatus(await api.post('/api/auth/mfa/verify', { mfaToken: challenge.mfaToken, code: sent }), 200);
  });

  it("Twilio refuses the number at setup: the user is asked to check it, and two-factor stays off", async () => {
    const twilio = new TwilioSms({ provider: 'twilio', apiUrl: phone.url, accountSid: `AC${'a'.repeat(32)}`, authToken: 'b'.repeat(32), sender: { from: '+15005550006' } });
    const api = new ApiClient(await env.buildApp({ sms: twilio }));
    const user = await TestUser.create();
    const { token } = await newSession(api, env.dataDir, user);
    phone.answer = { status: 400, body: JSON.stringify({ code: 21614, message: "'To' number is not a valid mobile number", status: 400 }) };
    const refused = await setUpSms(api, user, token, '+441632960000');
    expectError(refused, 502, 'SMS_NOT_SENT');
    expect(refused.body).toEqual({ error: { code: 'SMS_NOT_SENT', message: SMS_NOT_SENT_TEXTS.invalidNumber } });
    expect(phone.requests[0]!.url).toBe(`/2010-04-01/Accounts/AC${'a'.repeat(32)}/Messages.json`);
    expectError(await api.post('/api/account/mfa/sms/enable', { code: '123456' }, { token }), 400, 'BAD_REQUEST');
    expect((await accountOf(api, token)).mfaType).toBeNull();
  });
});
