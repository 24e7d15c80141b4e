import { Ok } from '../../src/protocol/primitives';
import { InviteRequest, MemberParams, MembershipParams, UserLookupQuery } from '../../src/protocol/members';
import type { Services } from '../services/createServices';
import type { DefineRoute } from './route';
import { PUSH_BODY_LIMIT, VaultParams } from './vaultRoutes';

/**
 * Members and sharing (src/protocol/members.ts): who to invite, invitations with their e-mail,
 * the member list, one membership (notifications: notificationRoutes.ts). Membership changes are member.* operations,
 * pushed like any other (or, for invitations, through POST .../invitations for the e-mail).
 */
export function registerMemberRoutes(route: DefineRoute, services: Services): void {
  route({
    method: 'GET',
    url: '/api/users/lookup',
    query: UserLookupQuery,
    auth: 'required',
    // Answers whether an e-mail has an account: limited like the sign-in routes.
    rateLimited: true,
    handler: async ({ query }) => services.members.lookup(query.email),
  });

  route({
    method: 'POST',
    url: '/api/vaults/:vaultId/invitations',
    params: VaultParams,
    body: InviteRequest,
    auth: 'required',
    blockedWhenReadOnly: true,
    bodyLimit: PUSH_BODY_LIMIT,
    handler: async ({ params, body, caller }) => ({
      results: await services.members.invite(caller.user, params.vaultId, body.ops, body.message || undefined),
    }),
  });

  route({
    method: 'POST',
    url: '/api/vaults/:vaultId/members/:membershipId/resend',
    params: MemberParams,
    auth: 'required',
    blockedWhenReadOnly: true,
    handler: async ({ params, caller }) => {
      await services.members.resend(caller.user, params.vaultId, params.membershipId);
      return Ok.parse({ ok: true });
    },
  });

  route({
    method: 'GET',
    url: '/api/vaults/:vaultId/members',
    params: VaultParams,
    auth: 'required',
    handler: async ({ params, caller }) => ({ members: await services.members.list(caller.user.id, params.vaultId) }),
  });

  route({
    method: 'GET',
    url: '/api/memberships/:membershipId',
    params: MembershipParams,
    auth: 'required',
    handler: async ({ params, caller }) => services.members.membership(caller.user.id, params.membershipId),
  });
}
