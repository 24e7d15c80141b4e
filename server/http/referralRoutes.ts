/**
 * Referrals (spec 001 section 7: POST /referrals; SYNC_SPEC R132-R134). Closed to passwordless
 * (airdrop) sessions like every route not opened to them.
 */
import { ReferralInviteRequest, type ReferralInviteResponse, type ReferralSummary } from '../../src/protocol/referrals';
import type { Services } from '../services/createServices';
import type { DefineRoute } from './route';

export function registerReferralRoutes(route: DefineRoute, services: Services): void {
  route({
    method: 'GET',
    url: '/api/referrals',
    auth: 'required',
    handler: async ({ caller }): Promise<ReferralSummary> => services.referrals.summary(caller.user.id),
  });
  route({
    method: 'POST',
    url: '/api/referrals',
    auth: 'required',
    // It e-mails anyone: limited like sign-in, so it cannot be used to send mail in bulk.
    rateLimited: true,
    blockedWhenReadOnly: true,
    body: ReferralInviteRequest,
    handler: async ({ caller, body }): Promise<ReferralInviteResponse> => ({
      sent: await services.referrals.invite(caller.user.id, caller.user.email, body.emails),
    }),
  });
}
