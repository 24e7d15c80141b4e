/**
 * The Developers page's words and rules (spec 002 sections 2, 5, 8 and 10). The failure texts are
 * the spec's, verbatim: shown when the server gives no message of its own.
 */
import { ApiError } from '../../protocol/errors';
import { WebhookUrl } from '../../protocol/developers';

export const DEVELOPER_TEXTS = {
  apiKeyGenerateFailed: 'Error generating API Key',
  webhookAddFailed: 'Error adding webhook',
  webhookRemoveFailed: 'Error removing webhook',
  noDeliveries: 'No webhook deliveries yet',
  /** Spec 002 section 10: usage data is delayed about 15 minutes. */
  usageDelay: 'Usage figures can lag behind by about 15 minutes: a request you just made may not be counted yet.',
  keyShownOnce: 'Copy this key now and keep it somewhere safe: it will not be shown again.',
  secretShownOnce: 'Copy this signing secret now and keep it somewhere safe: it will not be shown again.',
} as const;

/** Where the server serves the API's OpenAPI document. */
export const OPENAPI_URL = '/api/openapi.json';

/**
 * Configure is enabled for a URL that starts with https:// and is longer than 8 characters (spec
 * 002 section 5); the protocol's own schema decides, the one the server checks the body with.
 */
export function canConfigureWebhook(url: string): boolean {
  return WebhookUrl.safeParse(url.trim()).success;
}

/** The server's message for a failed action, else the spec's text for it. */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message && error.message !== error.code ? error.message : fallback;
}
