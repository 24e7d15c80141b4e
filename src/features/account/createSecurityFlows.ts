/**
 * The account-security flows (spec 001 section 2, /account/security): reveal phrase, change
 * password and two-factor setup. Each proves the password again first with an OPAQUE
 * re-authentication bound to the session (/auth/reauth/*), since the server never sees it.
 */
import { z } from 'zod';
import type { CryptoApi } from '../../../workers/crypto/CryptoApi';
import {
  type AccountUser,
  ChangePasswordStartResponse,
  LoginStartResponse,
  ReauthFinishResponse,
  SessionResponse,
  TotpSetupResponse,
} from '../../protocol/auth';
import { ApiError } from '../../protocol/errors';
import type { ApiClient } from '../../platform/apiClient';
import type { AuthService } from './AuthServiceContract';
import { signRequest } from './signRequest';

export type SecurityFlows = Pick<
  AuthService,
  'reauthenticate' | 'revealPhrase' | 'changePassword' | 'startTotpSetup' | 'enableTotp' | 'startSmsSetup' | 'enableSms' | 'disableMfa'
>;

export interface SecurityFlowDeps {
  api: ApiClient;
  crypto: () => CryptoApi;
  /** The signed-in user; rejects UNAUTHENTICATED otherwise. */
  requireUser: () => AccountUser;
  /** Publishes the user a call answered with. */
  setUser: (user: AccountUser) => void;
}

/** Answers the client does not read beyond success. */
const Acknowledged = z.unknown();

export function createSecurityFlows({ api, crypto, requireUser, setUser }: SecurityFlowDeps): SecurityFlows {
  async function reauth(password: string): Promise<{ handle: string; reauthToken: string }> {
    const { handle, startLoginRequest } = await crypto().startLogin(password);
    const start = await api.post('/auth/reauth/start', { startLoginRequest }, LoginStartResponse);
    const finish = await crypto().finishLogin(handle, start.loginResponse);
    if (!finish) throw new ApiError('INVALID_CREDENTIALS', 'The password is not correct.');
    const { reauthToken } = await api.post(
      '/auth/reauth/finish',
      { loginId: start.loginId, finishLoginRequest: finish.finishLoginRequest },
      ReauthFinishResponse,
    );
    return { handle, reauthToken };
  }


  return {
    async reauthenticate(password) {
      return (await reauth(password)).reauthToken;
    },
    async revealPhrase(password) {
      const user = requireUser();
      const { handle } = await reauth(password);
      return crypto().revealPhrase(handle, user.encBackupPhrase);
    },
    async changePassword(currentPassword, newPassword) {
      const user = requireUser();
      const { reauthToken } = await reauth(currentPassword);
      const { handle, registrationRequest } = await crypto().startRegistration(newPassword);
      const { registrationResponse } = await api.post(
        '/account/password/start',
        { reauthToken, registrationRequest },
        ChangePasswordStartResponse,
      );
      const { registrationRecord, encBackupPhrase } = await crypto().finishRegistration(handle, registrationResponse, 'active');
      const signature = await crypto().signPayload({ purpose: 'change-password', userId: user.id, registrationRecord, encBackupPhrase });
      const answer = await api.post(
        '/account/password/finish',
        { reauthToken, registrationRecord, encBackupPhrase, signature },
        SessionResponse,
      );
      setUser(answer.user);
    },
    async startTotpSetup(password) {
      const { reauthToken } = await reauth(password);
      return api.post('/account/mfa/totp/setup', { reauthToken }, TotpSetupResponse);
    },
    async enableTotp(code, device) {
      const { user } = await api.post('/account/mfa/totp/enable', { code, device }, SessionResponse);
      setUser(user);
      return user;
    },
    async startSmsSetup(password, phoneNumber) {
      const { reauthToken } = await reauth(password);
      await api.post('/account/mfa/sms/setup', { reauthToken, phoneNumber }, Acknowledged);
    },
    async enableSms(code) {
      const { user } = await api.post('/account/mfa/sms/enable', { code }, SessionResponse);
      setUser(user);
      return user;
    },
    async disableMfa() {
      const { user } = await api.post('/account/mfa/disable', await signRequest(crypto(), requireUser().id, 'disable-mfa'), SessionResponse);
      setUser(user);
      return user;
    },
  };
}
