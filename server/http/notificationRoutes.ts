import { NotificationDeleteQuery, NotificationListQuery, NotificationNoBody, NotificationParams, NotificationReadQuery } from '../../src/protocol/members';
import { Ok } from '../../src/protocol/primitives';
import type { Services } from '../services/createServices';
import type { DefineRoute } from './route';

/**
 * The caller's notifications (spec 000 section 7): GET /notifications (paged by cursor), PATCH
 * /notifications[/{id}][?vaultId] marks read, DELETE /notifications[/{id}][?status=READ]
 * deletes. Each touches only the caller's own rows. Deleting is refused in read-only mode
 * (spec 000 section 6: notification clearing is disabled then); marking read is not, since
 * opening a notification or a vault marks it read.
 */
export function registerNotificationRoutes(route: DefineRoute, services: Services): void {
  route({
    method: 'GET',
    url: '/api/notifications',
    query: NotificationListQuery,
    auth: 'required',
    handler: async ({ query, caller }) => services.notifications.list(caller.user.id, query),
  });

  route({
    method: 'PATCH',
    url: '/api/notifications',
    query: NotificationReadQuery,
    body: NotificationNoBody,
    auth: 'required',
    handler: async ({ query, caller }) => {
      await services.notifications.markRead(caller.user.id, { vaultId: query.vaultId });
      return Ok.parse({ ok: true });
    },
  });

  route({
    method: 'PATCH',
    url: '/api/notifications/:id',
    params: NotificationParams,
    body: NotificationNoBody,
    auth: 'required',
    handler: async ({ params, caller }) => {
      await services.notifications.markRead(caller.user.id, { id: params.id });
      return Ok.parse({ ok: true });
    },
  });

  route({
    method: 'DELETE',
    url: '/api/notifications',
    query: NotificationDeleteQuery,
    body: NotificationNoBody,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ query, caller }) => {
      await services.notifications.delete(caller.user.id, { status: query.status });
      return Ok.parse({ ok: true });
    },
  });

  route({
    method: 'DELETE',
    url: '/api/notifications/:id',
    params: NotificationParams,
    body: NotificationNoBody,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ params, caller }) => {
      await services.notifications.delete(caller.user.id, { id: params.id });
      return Ok.parse({ ok: true });
    },
  });
}
