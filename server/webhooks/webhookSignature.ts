/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): a secret `whsec_` + base64 of
 * random bytes; each delivery carries `webhook-id`, `webhook-timestamp` (seconds) and
 * `webhook-signature` = `v1,` + base64(HMAC-SHA256(secret bytes, `${id}.${timestamp}.${body}`)),
 * so a receiver's off-the-shelf Standard Webhooks library verifies Cairn's deliveries.
 */
import crypto from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new signing secret: 24 random bytes (192 bits), in the Standard Webhooks form. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${crypto.randomBytes(24).toString('base64')}`;
}

/** The `webhook-signature` header of one delivery. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The headers a delivery carries besides its content type. */
export function webhookHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, id, timestampSeconds, body),
  };
}
