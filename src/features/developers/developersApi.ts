/**
 * The developer API's calls (src/protocol/developers.ts), each answer checked against its schema
 * by the app's client.
 */
import type { ApiClient } from '../../platform/apiClient';
import { ApiKeyInfo, NewApiKey, NewWebhook, WEBHOOK_LOG_PAGE, type Webhook, WebhookList, WebhookLogPage } from '../../protocol/developers';
import { Ok } from '../../protocol/primitives';

export function getApiKeyInfo(api: ApiClient): Promise<ApiKeyInfo> {
  return api.get('/api-keys', ApiKeyInfo);
}

/** Makes a key, or replaces the one there: the old one stops working at once. */
export function putApiKey(api: ApiClient): Promise<NewApiKey> {
  return api.put('/api-keys', {}, NewApiKey);
}

/** The account's webhook (spec 002 section 7: the first item is the one used), or null. */
export async function getWebhook(api: ApiClient): Promise<Webhook | null> {
  const list = await api.get('/webhooks', WebhookList);
  return list.items[0] ?? null;
}

export function createWebhook(api: ApiClient, url: string): Promise<NewWebhook> {
  return api.post('/webhooks', { url }, NewWebhook);
}

export async function removeWebhook(api: ApiClient, webhookId: string): Promise<void> {
  await api.delete(`/webhooks/${encodeURIComponent(webhookId)}`, undefined, Ok);
}

/** One page of the delivery log, newest first; `nextToken` from the page before, null for the first. */
export function getWebhookLogPage(api: ApiClient, nextToken: string | null): Promise<WebhookLogPage> {
  const query = new URLSearchParams({ limit: String(WEBHOOK_LOG_PAGE) });
  if (nextToken !== null) query.set('nextToken', nextToken);
  return api.get(`/webhooks/logs?${query.toString()}`, WebhookLogPage);
}
