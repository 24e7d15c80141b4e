/**
 * The SMS adapters against a local server standing in for Twilio's API and for an operator's
 * webhook (issue 20): the exact request each sends, and what each failure looks like to the
 * caller (a typed SmsNotSentError with the provider's reason and never the credential).
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { RecordingServer } from '../testing/recordingServer';
import { createSms } from './createSms';
import { FileSms } from './FileSms';
import { SmsNotSentError } from './SmsPort';
import { TwilioSms, type TwilioSettings } from './TwilioSms';
import { WebhookSms } from './WebhookSms';

const ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;
const AUTH_TOKEN = 'f00dfeedcafe1234f00dfeedcafe1234';
const SERVICE_SID = `MG${'fedcba9876543210'.repeat(2)}`;
const message = { to: '+447700900123', text: 'Your Cairn code is 123456. It expires in 10 minutes.' };

let stub: RecordingServer;
beforeAll(async () => {
  stub = await RecordingServer.start();
});
afterAll(async () => {
  await stub.stop();
});
afterEach(() => {
  stub.requests.length = 0;
  stub.answer = { status: 200, body: '{}' };
});

/** The rejection of `promise`, which must be an SmsNotSentError. */
async function failureOf(promise: Promise<unknown>): Promise<SmsNotSentError> {
  const error: unknown = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SmsNotSentError);
  return error as SmsNotSentError;
}

describe('Twilio', () => {
  const twilio = (sender: TwilioSettings['sender'] = { from: '+15005550006' }, timeoutMs?: number) =>
    new TwilioSms({ provider: 'twilio', apiUrl: stub.url, accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, sender }, timeoutMs);

  it('POSTs To, From and Body form-encoded to the Messages resource of the account, with basic auth', async () => {
    stub.answer = { status: 201, body: JSON.stringify({ sid: 'SM123', status: 'queued' }) };
    await twilio().send(message);
    expect(stub.requests).toHaveLength(1);
    const [request] = stub.requests;
    expect(request).toMatchObject({ method: 'POST', url: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json` });
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`);
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({ To: message.to, From: '+15005550006', Body: message.text });
  });

  it('sends MessagingServiceSid instead of From when a messaging service is configured', async () => {
    stub.answer = { status: 201, body: '{}' };
    await twilio({ messagingServiceSid: SERVICE_SID }).send(message);
    expect(Object.fromEntries(new URLSearchParams(stub.requests[0]!.body))).toEqual({ To: message.to, MessagingServiceSid: SERVICE_SID, Body: message.text });
  });

  it("a 400 answer rejects with Twilio's error code and message, marks a refused number, and never carries the token", async () => {
    stub.answer = {
      status: 400,
      body: JSON.stringify({ code: 21211, message: "The 'To' number +447700900123 is not a valid phone number.", more_info: 'https://www.twilio.com/docs/errors/21211', status: 400 }),
    };
    const error = await failureOf(twilio().send(message));
    expect(error.message).toBe("Twilio answered 400 (error 21211: The 'To' number +447700900123 is not a valid phone number.)");
    expect(error.details).toEqual({ failure: 'invalid-number', status: 400, providerCode: 21211 });
    expect(error.provider).toBe('Twilio');
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(AUTH_TOKEN);
  });

  it('refused credentials (401, error 20003) and a non-JSON 503 reject as unavailable', async () => {
    stub.answer = { status: 401, body: JSON.stringify({ code: 20003, message: 'Authenticate', status: 401 }) };
    expect((await failureOf(twilio().send(message))).details).toEqual({ failure: 'unavailable', status: 401, providerCode: 20003 });
    stub.answer = { status: 503, body: '<html>Service Unavailable</html>', contentType: 'text/html' };
    const error = await failureOf(twilio().send(message));
    expect(error.message).toBe('Twilio answered 503');
    expect(error.details).toEqual({ failure: 'unavailable', status: 503 });
  });

  it('no answer within the timeout rejects, and an unreachable API rejects', async () => {
    stub.answer = 'never';
    const slow = await failureOf(twilio(undefined, 300).send(message));
    expect(slow.message).toBe('Twilio could not be reached: no answer within 300 ms');
    expect(stub.requests).toHaveLength(1);

    const closed = await RecordingServer.start();
    const closedUrl = closed.url;
    await closed.stop();
    const down = new TwilioSms({ provider: 'twilio', apiUrl: closedUrl, accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, sender: { from: '+15005550006' } });
    const error = await failureOf(down.send(message));
    expect(error.message).toMatch(/^Twilio could not be reached: .*ECONNREFUSED/);
    expect(error.message).not.toContain(AUTH_TOKEN);
  });
});

describe('webhook', () => {
  const TOKEN = 'relay-token-0123456789';

  it('POSTs { to, text } as JSON with the bearer token; any 2xx is sent', async () => {
    stub.answer = { status: 204 };
    await new WebhookSms({ provider: 'webhook', url: `${stub.url}/sms/send`, token: TOKEN }).send(message);
    const [request] = stub.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/sms/send' });
    expect(request!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual({ to: message.to, text: message.text });
  });

  it('sends no Authorization header without a token', async () => {
    await new WebhookSms({ provider: 'webhook', url: stub.url, token: null }).send(message);
    expect(stub.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("a 500 rejects with the status and the gateway's answer, the token blanked if it is echoed", async () => {
    stub.answer = { status: 500, body: `upstream provider down (request had Bearer ${TOKEN})`, contentType: 'text/plain' };
    const error = await failureOf(new WebhookSms({ provider: 'webhook', url: stub.url, token: TOKEN }).send(message));
    expect(error.message).toBe('The SMS webhook answered 500: upstream provider down (request had Bearer ***)');
    expect(error.details).toEqual({ failure: 'unavailable', status: 500 });
  });

  it('a redirect is not followed (it would carry the token elsewhere) and counts as not sent', async () => {
    stub.answer = { status: 307, body: '' };
    const error = await failureOf(new WebhookSms({ provider: 'webhook', url: stub.url, token: TOKEN }).send(message));
    expect(error.details.status).toBe(307);
    expect(stub.requests).toHaveLength(1);
  });

  it('no answer within the timeout rejects', async () => {
    stub.answer = 'never';
    const error = await failureOf(new WebhookSms({ provider: 'webhook', url: stub.url, token: null }, 300).send(message));
    expect(error.message).toBe('The SMS webhook could not be reached: no answer within 300 ms');
  });
});

describe('createSms', () => {
  const base = { DATA_DIR: '/tmp/cairn-sms-choice' };

  it('picks the adapter the settings name, files with SMS_TO_FILES, and none otherwise', () => {
    expect(createSms(loadConfig(base))).toBeNull();
    expect(createSms(loadConfig({ ...base, SMS_TO_FILES: '1' }))).toEqual(new FileSms(path.join('/tmp/cairn-sms-choice', 'sms')));
    expect(createSms(loadConfig({ ...base, SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://sms.example.com/send' }))).toBeInstanceOf(WebhookSms);
    expect(
      createSms(loadConfig({ ...base, SMS_PROVIDER: 'Twilio', TWILIO_ACCOUNT_SID: ACCOUNT_SID, TWILIO_AUTH_TOKEN: AUTH_TOKEN, TWILIO_FROM: '+15005550006' })),
    ).toBeInstanceOf(TwilioSms);
  });

  it('a Twilio adapter from the settings sends to TWILIO_API_URL', async () => {
    stub.answer = { status: 201, body: '{}' };
    const sms = createSms(
      loadConfig({ ...base, SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: ACCOUNT_SID, TWILIO_AUTH_TOKEN: AUTH_TOKEN, TWILIO_MESSAGING_SERVICE_SID: SERVICE_SID, TWILIO_API_URL: `${stub.url}/` }),
    );
    await sms!.send(message);
    expect(stub.requests[0]!.url).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
  });
});
