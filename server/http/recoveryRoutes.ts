import { RecoverFinishRequest, RecoverRegisterRequest, RecoverStartRequest } from '../../src/protocol/auth';
import type { Services } from '../services/createServices';
import type { DefineRoute } from './route';
import { setSessionCookie } from './sessionCookie';

/** Account recovery by e-mailed link and recovery phrase (spec 001, recovery flow). */
export function registerRecoveryRoutes(route: DefineRoute, services: Services, options: { secureCookies: boolean }): void {
  route({
    method: 'POST',
    url: '/api/auth/recover/start',
    body: RecoverStartRequest,
    auth: 'none',
    rateLimited: true,
    accountKey: ({ body }) => body.email,
    handler: async ({ body }) => {
      await services.recovery.start(body.email);
      return { ok: true };
    },
  });

  route({
    method: 'POST',
    url: '/api/auth/recover/register',
    body: RecoverRegisterRequest,
    auth: 'none',
    rateLimited: true,
    handler: async ({ body }) => services.recovery.register(body.email, body.code, body.registrationRequest),
  });

  route({
    method: 'POST',
    url: '/api/auth/recover/finish',
    body: RecoverFinishRequest,
    auth: 'none',
    rateLimited: true,
    handler: async ({ body, reply }) => {
      const result = await services.recovery.finish(body);
      setSessionCookie(reply, result.token, result.expiresAt !== null, options.secureCookies);
      return result;
    },
  });
}
