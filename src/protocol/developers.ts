/**
 * The developer API (issue 24; spec 002 sections 3, 4, 7 and 9): one API key per account, one
 * webhook per account with its delivery log. The server keeps only a hash of the key and shows the
 * key once, when it is made; it keeps a webhook's signing secret (it must sign with it) and shows
 * it once too.
 *
 * - `GET /api/api-keys` answers ApiKeyInfo; `PUT /api/api-keys` makes a key, or replaces the one
 *   there (the old one stops working at once), and answers NewApiKey.
 * - A key is sent as `Authorization: Bearer cairn_…` on the routes docs/decisions.md lists
 *   ("The developer API"); each request counts against the period's limit (429 RATE_LIMITED with
 *   API_KEY_LIMIT_MESSAGE past it). A key never replaces the signature an operation needs.
 * - `POST /api/webhooks` {url} answers NewWebhook; `GET /api/webhooks` WebhookList; `DELETE
 *   /api/webhooks/:webhookId` Ok; `GET /api/webhooks/logs?limit&nextToken` WebhookLogPage (10 a
 *   page by default), newest first. A new log entry also reaches the user's sockets as a
 *   `webhookLog` message (src/protocol/ws.ts).
 * - `GET /api/openapi.json`: the API described from the schemas the routes validate with.
 */
import { z } from 'zod';

/** What every key starts with, so a key is told from a session token at a glance (and by scanners). */
export const API_KEY_PREFIX = 'cairn_';
/** A key: the prefix and 32 random bytes in base64url. */
export const ApiKey = z.string().regex(/^cairn_[A-Za-z0-9_-]{43}$/, 'Expected a Cairn API key');

/** Requests a key may make in one period, unless the server's setting says otherwise. */
export const API_KEY_DEFAULT_LIMIT = 100;
export const API_KEY_LIMIT_MESSAGE = 'This API key has used all its requests for this period. Try again when the next period starts.';

export const ApiKeyUsagePlan = z.strictObject({
  limit: z.number().int().positive(),
  /** The period's length, e.g. 'day' or 'month' (the setting's unit). */
  period: z.string().min(1).max(32),
});

/** GET /api/api-keys. `key` is never sent again after it was made: `hint` shows its last 4 characters. */
export const ApiKeyInfo = z.strictObject({
  exists: z.boolean(),
  /** The last 4 characters of the key, to recognise it; null without a key. */
  hint: z.string().max(8).nullable(),
  createdAt: z.number().int().nullable(),
  /** Requests made with a key of this account in the current period. */
  used: z.number().int().nonnegative(),
  /** Requests made with a key of this account in all. */
  total: z.number().int().nonnegative(),
  /** When the current period ends (epoch ms). */
  periodEndsAt: z.number().int(),
  usagePlan: ApiKeyUsagePlan,
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;

/** PUT /api/api-keys: the new key, shown this once. */
export const NewApiKey = z.strictObject({ key: ApiKey, info: ApiKeyInfo });
export type NewApiKey = z.infer<typeof NewApiKey>;

/** Spec 002 section 5: must start with https:// and be longer than 8 characters. */
export const WEBHOOK_URL_MAX = 2048;
export const WebhookUrl = z
  .string()
  .max(WEBHOOK_URL_MAX)
  .refine((url) => url.startsWith('https://') && url.length > 8, 'The URL must start with https://')
  .refine((url) => URL.canParse(url), 'Enter a valid URL');

/** Events, lowercase with dots. They carry ids only: never a name or a byte of a vault. */
export const WEBHOOK_EVENTS = ['file.uploaded', 'storage.transaction.committed', 'member.joined', 'webhook.test'] as const;
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const Webhook = z.strictObject({
  id: z.string().min(1).max(64),
  url: z.string().max(WEBHOOK_URL_MAX),
  createdAt: z.number().int(),
});
export type Webhook = z.infer<typeof Webhook>;

export const CreateWebhookRequest = z.strictObject({ url: WebhookUrl });
/** POST /api/webhooks: the signing secret (Standard Webhooks `whsec_…`), shown this once. */
export const NewWebhook = z.strictObject({ webhook: Webhook, secret: z.string().regex(/^whsec_[A-Za-z0-9+/=]+$/) });
export type NewWebhook = z.infer<typeof NewWebhook>;
export const WebhookList = z.strictObject({ items: z.array(Webhook) });
export const WebhookParams = z.strictObject({ webhookId: z.string().min(1).max(64) });

export const WEBHOOK_LOG_PAGE = 10;
/** Largest request or response body a log entry keeps, in characters (longer ones are cut). */
export const WEBHOOK_LOG_BODY_MAX = 4096;

export const WebhookLog = z.strictObject({
  id: z.string().min(1).max(64),
  webhookId: z.string().min(1).max(64),
  /** true when the receiver answered 2xx. */
  deliveryStatus: z.boolean(),
  event: WebhookEvent,
  createdAt: z.number().int(),
  url: z.string().max(WEBHOOK_URL_MAX),
  /** 1 for the first try, then each retry. */
  attempt: z.number().int().positive(),
  requestBody: z.string().max(WEBHOOK_LOG_BODY_MAX),
  /** The receiver's answer, or what went wrong when there was none (refused address, timeout). */
  responseBody: z.string().max(WEBHOOK_LOG_BODY_MAX),
  /** null when no answer came. */
  responseStatusCode: z.number().int().nullable(),
});
export type WebhookLog = z.infer<typeof WebhookLog>;

export const WebhookLogsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(50).default(WEBHOOK_LOG_PAGE),
  nextToken: z.string().max(200).optional(),
});
export const WebhookLogPage = z.strictObject({ items: z.array(WebhookLog), nextToken: z.string().nullable() });
export type WebhookLogPage = z.infer<typeof WebhookLogPage>;

/** The JSON body of every delivery (Standard Webhooks: type, timestamp, data). */
export const WebhookPayload = z.strictObject({
  type: WebhookEvent,
  /** ISO 8601. */
  timestamp: z.string(),
  data: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;
