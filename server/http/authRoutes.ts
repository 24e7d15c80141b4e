import {
  LoginFinishRequest,
  LoginStartRequest,
  MfaResendRequest,
  MfaVerifyRequest,
  ReauthFinishRequest,
  ReauthStartRequest,
  ResendVerificationRequest,
  SignupFinishRequest,
  SignupStartRequest,
  VerifyEmailRequest,
  type LoginFinishResponse,
} from '../../src/protocol/auth';
import { z } from 'zod';
import { toAccountUser } from '../services/UserService';
import type { Services } from '../services/createServices';
import { type DefineRoute, sessionOf } from './route';
import { clearSessionCookie, setSessionCookie } from './sessionCookie';

const OK = { ok: true } as const;

/** Sign-up, e-mail verification, login with two-factor, session, logout and re-authentication. */
export function registerAuthRoutes(route: DefineRoute, services: Services, options: { secureCookies: boolean }): void {
  const withCookie = <T extends LoginFinishResponse>(reply: Parameters<typeof setSessionCookie>[0], result: T): T => {
    if (result.status === 'ok') setSessionCookie(reply, result.token, result.expiresAt !== null, options.secureCookies);
    return result;
  };

  route({
    method: 'POST',
    url: '/api/auth/signup/start',
    body: SignupStartRequest,
    auth: 'none',
    rateLimited: true,
    handler: async ({ body }) => services.signup.start(body.email, body.registrationRequest),
  });

  route({
    method: 'POST',
    url: '/api/auth/signup/finish',
    body: SignupFinishRequest,
    auth: 'none',
    rateLimited: true,
    handler: async ({ body }) => {
      await services.signup.finish(body);
      return OK;
    },
  });

  route({
    method: 'POST',
    url: '/api/auth/verify-email',
    body: VerifyEmailRequest,
    auth: 'none',
    rateLimited: true,
    handler: async ({ body }) => services.signup.verify(body.uid, body.code),
  });

  route({
    method: 'POST',
    url: '/api/auth/verify-email/resend',
    body: ResendVerificationRequest,
    auth: 'none',
    rateLimited: true,
    accountKey: ({ body }) => body.email,
    handler: async ({ body }) => {
      await services.signup.resend(body.email);
      return OK;
    },
  });

  route({
    method: 'POST',
    url: '/api/auth/login/start',
    body: LoginStartRequest,
    auth: 'none',
    rateLimited: true,
    // Each password guess needs a login/start (OPAQUE: the client checks the answer itself).
    accountKey: ({ body }) => body.email,
    handler: async ({ body }) => services.login.start(body.email, body.startLoginRequest),
  });

  route({
    method: 'POST',
    url: '/api/auth/login/finish',
    body: LoginFinishRequest,
    auth: 'none',
    rateLimited: true,
    handler: async ({ body, reply }) =>
      withCookie(reply, await services.login.finish(body.loginId, body.finishLoginRequest, body.keepSignedIn)),
  });

  route({
    method: 'POST',
    url: '/api/auth/mfa/verify',
    body: MfaVerifyRequest,
    auth: 'none',
    rateLimited: true,
    accountKey: ({ body }) => services.mfa.challengeOwner(body.mfaToken),
    handler: async ({ body, reply }) => withCookie(reply, await services.login.verifyMfa(body.mfaToken, body.code)),
  });

  route({
    method: 'POST',
    url: '/api/auth/mfa/resend',
    body: MfaResendRequest,
    auth: 'none',
    rateLimited: true,
    accountKey: ({ body }) => services.mfa.challengeOwner(body.mfaToken),
    handler: async ({ body }) => {
      await services.mfa.resend(body.mfaToken);
      return OK;
    },
  });

  route({
    method: 'GET',
    url: '/api/auth/session',
    auth: 'required',
    handler: async ({ caller }) => ({ user: toAccountUser(caller.user) }),
  });

  route({
    method: 'POST',
    url: '/api/auth/logout',
    // Clients may send no body or `{}`.
    body: z.strictObject({}).optional(),
    auth: 'optional',
    handler: async ({ caller, reply }) => {
      if (caller) await services.sessions.revoke(sessionOf(caller).tokenHash);
      clearSessionCookie(reply);
      return OK;
    },
  });

  route({
    method: 'POST',
    url: '/api/auth/reauth/start',
    body: ReauthStartRequest,
    auth: 'required',
    rateLimited: true,
    // A stolen session must not buy unlimited password guesses from many addresses either.
    accountKey: ({ caller }) => caller.user.id,
    handler: async ({ body, caller }) => services.login.startReauth(sessionOf(caller), caller.user, body.startLoginRequest),
  });

  route({
    method: 'POST',
    url: '/api/auth/reauth/finish',
    body: ReauthFinishRequest,
    auth: 'required',
    rateLimited: true,
    handler: async ({ body, caller }) => services.login.finishReauth(sessionOf(caller), body.loginId, body.finishLoginRequest),
  });
}
