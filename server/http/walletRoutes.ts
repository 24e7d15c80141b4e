/**
 * Passwordless (airdrop) sign-in: POST /api/auth/wallet/challenge and /api/auth/wallet/login
 * (src/protocol/members.ts). Rate limited like every other way into an account.
 */
import { WalletChallengeRequest, WalletLoginRequest } from '../../src/protocol/members';
import type { Services } from '../services/createServices';
import type { DefineRoute } from './route';
import { setSessionCookie } from './sessionCookie';

export function registerWalletRoutes(route: DefineRoute, services: Services, options: { secureCookies: boolean }): void {
  route({
    method: 'POST',
    url: '/api/auth/wallet/challenge',
    body: WalletChallengeRequest,
    auth: 'none',
    rateLimited: true,
    handler: async ({ body }) => services.walletLogin.challenge(body.publicSigningKey),
  });

  route({
    method: 'POST',
    url: '/api/auth/wallet/login',
    body: WalletLoginRequest,
    auth: 'none',
    rateLimited: true,
    handler: async ({ body, reply }) => {
      const result = await services.walletLogin.login(body.publicSigningKey, body.challenge, body.signature);
      // Never persistent: the cookie ends with the browser, the session at the link's expiry.
      setSessionCookie(reply, result.token, false, options.secureCookies);
      return result;
    },
  });
}
