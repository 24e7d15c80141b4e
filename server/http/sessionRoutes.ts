import { ApiError } from '../../src/protocol/errors';
import { EndOtherSessionsBody, SessionParams } from '../../src/protocol/sessions';
import type { Services } from '../services/createServices';
import { type DefineRoute, sessionOf } from './route';

/**
 * Account > Security's signed-in sessions (SYNC_SPEC R80). A caller sees and ends only sessions
 * of their own account; another account's session id answers 404 like an unknown one, so ids
 * cannot be probed. Ending a session closes its sockets (R57) through SessionService. Not open
 * to airdrop sessions (passwordlessRoutes.ts does not list these routes).
 */
export function registerSessionRoutes(route: DefineRoute, services: Services): void {
  route({
    method: 'GET',
    url: '/api/account/sessions',
    auth: 'required',
    handler: async ({ caller }) => ({ sessions: await services.sessions.list(caller.user.id, sessionOf(caller).tokenHash) }),
  });

  route({
    method: 'DELETE',
    url: '/api/account/sessions/:sessionId',
    params: SessionParams,
    auth: 'required',
    // Per address, like the auth routes: a stolen session must not probe session ids at speed.
    rateLimited: true,
    handler: async ({ params, caller }) => {
      if (!(await services.sessions.revokeById(caller.user.id, params.sessionId))) throw new ApiError('NOT_FOUND', 'This session has already ended.');
      return { ok: true };
    },
  });

  route({
    method: 'POST',
    url: '/api/account/sessions/end-others',
    // No body, or `{}`; anything else is a malformed request (R1).
    body: EndOtherSessionsBody,
    auth: 'required',
    rateLimited: true,
    handler: async ({ caller }) => ({ ended: await services.sessions.revokeAllForUser(caller.user.id, sessionOf(caller).tokenHash) }),
  });
}
