import {
  ChangePasswordFinishRequest,
  ChangePasswordStartRequest,
  DeleteAccountRequest,
  MfaDisableRequest,
  SmsEnableRequest,
  SmsSetupRequest,
  TotpEnableRequest,
  TotpSetupRequest,
  UpdateAttributesRequest,
  UpdateProfileRequest,
} from '../../src/protocol/auth';
import type { Services } from '../services/createServices';
import { toAccountUser, type User } from '../services/UserService';
import { type DefineRoute, sessionOf } from './route';
import { clearSessionCookie } from './sessionCookie';

/** A photo data URL is at most LIMITS.PHOTO_DATA_URL_MAX (1.5 MB); 2 MiB leaves room for the JSON around it. */
const PROFILE_BODY_LIMIT = 2 * 1024 * 1024;

const userAnswer = (user: User) => ({ user: toAccountUser(user) });

/** The signed-in user's account: attributes, profile, password, two-factor and deletion. */
export function registerAccountRoutes(route: DefineRoute, services: Services): void {
  route({
    method: 'GET',
    url: '/api/account',
    auth: 'required',
    handler: async ({ caller }) => userAnswer(caller.user),
  });

  route({
    method: 'PATCH',
    url: '/api/account/attributes',
    body: UpdateAttributesRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ body, caller }) => userAnswer(await services.account.updateAttributes(caller.user, body)),
  });

  route({
    method: 'PUT',
    url: '/api/account/profile',
    body: UpdateProfileRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    bodyLimit: PROFILE_BODY_LIMIT,
    handler: async ({ body, caller }) => userAnswer(await services.account.updateProfile(caller.user, body)),
  });

  route({
    method: 'POST',
    url: '/api/account/password/start',
    body: ChangePasswordStartRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ body, caller }) =>
      services.account.startPasswordChange(caller.user, sessionOf(caller), body.reauthToken, body.registrationRequest),
  });

  route({
    method: 'POST',
    url: '/api/account/password/finish',
    body: ChangePasswordFinishRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ body, caller }) =>
      userAnswer(await services.account.finishPasswordChange(caller.user, sessionOf(caller), body)),
  });

  route({
    method: 'DELETE',
    url: '/api/account',
    body: DeleteAccountRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ body, caller, reply }) => {
      await services.account.delete(caller.user, body);
      clearSessionCookie(reply);
      return { ok: true };
    },
  });

  route({
    method: 'POST',
    url: '/api/account/mfa/totp/setup',
    body: TotpSetupRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ body, caller }) => {
      await services.reauth.consume(body.reauthToken, caller.user.id, sessionOf(caller).tokenHash);
      return services.mfa.setupTotp(caller.user);
    },
  });

  route({
    method: 'POST',
    url: '/api/account/mfa/totp/enable',
    body: TotpEnableRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ body, caller }) => userAnswer(await services.mfa.enableTotp(caller.user, body.code, body.device)),
  });

  route({
    method: 'POST',
    url: '/api/account/mfa/sms/setup',
    body: SmsSetupRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    // Each call sends a text message: limit it like the login routes.
    rateLimited: true,
    handler: async ({ body, caller }) => {
      await services.reauth.consume(body.reauthToken, caller.user.id, sessionOf(caller).tokenHash);
      await services.mfa.setupSms(caller.user, body.phoneNumber);
      return { ok: true };
    },
  });

  route({
    method: 'POST',
    url: '/api/account/mfa/sms/enable',
    body: SmsEnableRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ body, caller }) => userAnswer(await services.mfa.enableSms(caller.user, body.code)),
  });

  route({
    method: 'POST',
    url: '/api/account/mfa/disable',
    body: MfaDisableRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ body, caller }) => userAnswer(await services.mfa.disable(caller.user, body)),
  });
}
