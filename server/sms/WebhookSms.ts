import { postToProvider, SMS_TIMEOUT_MS } from './postToProvider';
import { SmsNotSentError, type SmsPort } from './SmsPort';

/** SMS_PROVIDER=webhook (config.ts validates the URL and masks the token). */
export interface WebhookSettings {
  provider: 'webhook';
  /** SMS_WEBHOOK_URL: https, or http to this machine only (the code would otherwise cross the network in clear). */
  url: string;
  /** SMS_WEBHOOK_TOKEN, sent as `Authorization: Bearer`; null: no header. */
  token: string | null;
}

/**
 * The operator's own SMS gateway: POSTs `{ "to": "+447700900123", "text": "..." }` as JSON to the
 * webhook; any 2xx answer means sent. Lets a deployment use any provider (or its own modem)
 * through a small relay without an adapter here.
 */
export class WebhookSms implements SmsPort {
  constructor(
    private readonly settings: WebhookSettings,
    private readonly timeoutMs = SMS_TIMEOUT_MS,
  ) {}

  async send(message: { to: string; text: string }): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.settings.token) headers.authorization = `Bearer ${this.settings.token}`;
    await postToProvider('The SMS webhook', this.settings.url, { headers, body: JSON.stringify({ to: message.to, text: message.text }), secret: this.settings.token }, this.timeoutMs, (status, body) => {
      // The gateway's answer is the operator's own: a short excerpt helps them see why.
      const excerpt = body.replace(/\s+/g, ' ').trim().slice(0, 200);
      return new SmsNotSentError('The SMS webhook', `The SMS webhook answered ${status}${excerpt ? `: ${excerpt}` : ''}`, { failure: 'unavailable', status });
    });
  }
}
