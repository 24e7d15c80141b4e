import { z } from 'zod';
import { postToProvider, SMS_TIMEOUT_MS } from './postToProvider';
import { type SmsFailure, SmsNotSentError, type SmsPort } from './SmsPort';

/** SMS_PROVIDER=twilio (config.ts validates and masks the token). */
export interface TwilioSettings {
  provider: 'twilio';
  /** TWILIO_API_URL, without a trailing slash: https://api.twilio.com unless a regional edge or a test server. */
  apiUrl: string;
  accountSid: string;
  authToken: string;
  /** Exactly one of the two: the sending number (TWILIO_FROM) or a messaging service (TWILIO_MESSAGING_SERVICE_SID). */
  sender: { from: string } | { messagingServiceSid: string };
}

export const TWILIO_API_URL = 'https://api.twilio.com';

/** Twilio's error answer (https://www.twilio.com/docs/usage/twilios-response#response-formats-exceptions). */
const TwilioErrorBody = z.object({ code: z.number().optional(), message: z.string().optional() });

/**
 * Twilio error codes that mean the number itself cannot get the message: 21211 invalid 'To',
 * 21614 not a mobile number, 21612 not reachable from this sender, 21408 region not enabled,
 * 21610 the recipient replied STOP. The user can do something about these (another number).
 */
const NUMBER_REFUSED = new Set([21211, 21408, 21610, 21612, 21614]);

/**
 * Sends through Twilio's Messages API: a form-encoded POST to
 * `{apiUrl}/2010-04-01/Accounts/{sid}/Messages.json` with HTTP basic auth (account SID and auth
 * token). 201 means Twilio queued the message; anything else is an SmsNotSentError carrying
 * Twilio's error code and message.
 */
export class TwilioSms implements SmsPort {
  constructor(
    private readonly settings: TwilioSettings,
    private readonly timeoutMs = SMS_TIMEOUT_MS,
  ) {}

  async send(message: { to: string; text: string }): Promise<void> {
    const { apiUrl, accountSid, authToken, sender } = this.settings;
    const form = new URLSearchParams({ To: message.to });
    if ('from' in sender) form.set('From', sender.from);
    else form.set('MessagingServiceSid', sender.messagingServiceSid);
    form.set('Body', message.text);
    await postToProvider(
      'Twilio',
      `${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`,
      {
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        secret: authToken,
      },
      this.timeoutMs,
      describeTwilioError,
    );
  }
}

function describeTwilioError(status: number, body: string): SmsNotSentError {
  let parsed: z.infer<typeof TwilioErrorBody> = {};
  try {
    parsed = TwilioErrorBody.parse(JSON.parse(body));
  } catch {
    // Not Twilio's JSON (a proxy's error page): the status alone says enough.
  }
  const failure: SmsFailure = parsed.code !== undefined && NUMBER_REFUSED.has(parsed.code) ? 'invalid-number' : 'unavailable';
  const what = [parsed.code !== undefined ? `error ${parsed.code}` : null, parsed.message ?? null].filter(Boolean).join(': ');
  return new SmsNotSentError('Twilio', `Twilio answered ${status}${what ? ` (${what})` : ''}`, {
    failure,
    status,
    ...(parsed.code !== undefined ? { providerCode: parsed.code } : {}),
  });
}
