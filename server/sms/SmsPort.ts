/**
 * Outgoing text messages (SMS two-factor codes). Adapters: TwilioSms (SMS_PROVIDER=twilio),
 * WebhookSms (SMS_PROVIDER=webhook: the operator's own gateway to any provider) and FileSms
 * (SMS_TO_FILES, tests and development); createSms.ts picks one from the settings. With none the
 * server does not offer SMS two-factor (GET /config smsAvailable: false).
 */
export interface SmsPort {
  /** Resolves once the provider accepted the message; rejects with SmsNotSentError otherwise. */
  send(message: { to: string; text: string }): Promise<void>;
}

/**
 * Why a message was not sent: `invalid-number` when the provider refuses the number itself (the
 * user can correct it), `unavailable` for everything else (outage, timeout, refused credentials).
 */
export type SmsFailure = 'invalid-number' | 'unavailable';

/**
 * A provider did not take a message. The message names the provider, its HTTP status and its own
 * error code and text, for the operator's log; it never holds a credential (the adapters build it
 * from the answer, never from the request).
 */
export class SmsNotSentError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly details: { failure: SmsFailure; status?: number; providerCode?: string | number } = { failure: 'unavailable' },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SmsNotSentError';
  }
}
