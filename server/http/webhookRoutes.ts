import { CreateWebhookRequest, WebhookLogsQuery, WebhookParams } from '../../src/protocol/developers';
import { Ok } from '../../src/protocol/primitives';
import type { Services } from '../services/createServices';
import type { DefineRoute } from './route';

/**
 * The caller's webhook (issue 24; spec 002 sections 4 and 7): POST /webhooks configures it (one per
 * account; its address must be public, webhookTarget.ts) and answers its signing secret once, GET
 * /webhooks lists it, DELETE /webhooks/{id} removes it, GET /webhooks/logs pages its delivery log.
 * Each touches only the caller's own rows. Passwordless sessions get 403 (not on their allowlist).
 */
export function registerWebhookRoutes(route: DefineRoute, services: Services): void {
  route({
    method: 'POST',
    url: '/api/webhooks',
    body: CreateWebhookRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ body, caller }) => services.webhooks.create(caller.user.id, body.url),
  });

  route({
    method: 'GET',
    url: '/api/webhooks',
    auth: 'required',
    handler: async ({ caller }) => services.webhooks.list(caller.user.id),
  });

  route({
    method: 'GET',
    url: '/api/webhooks/logs',
    query: WebhookLogsQuery,
    auth: 'required',
    handler: async ({ query, caller }) => services.webhooks.logs(caller.user.id, query),
  });

  route({
    method: 'DELETE',
    url: '/api/webhooks/:webhookId',
    params: WebhookParams,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ params, caller }) => {
      await services.webhooks.remove(caller.user.id, params.webhookId);
      return Ok.parse({ ok: true });
    },
  });
}
