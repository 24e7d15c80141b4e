/**
 * Organisations (spec 001 section 7; SYNC_SPEC R124-R127): the calls exactly as the spec lists
 * them, under /api. Closed to passwordless (airdrop) sessions like every route not opened to them.
 */
import { ApiError } from '../../src/protocol/errors';
import {
  CreateOrganisationRequest,
  InviteOrganisationMemberRequest,
  type MyOrganisationResponse,
  type Organisation,
  type OrganisationBranding,
  OrganisationIdParams,
  type OrganisationMember,
  OrganisationMemberParams,
  type OrganisationMembersResponse,
  OrganisationQuery,
  UpdateOrganisationRequest,
} from '../../src/protocol/organisations';
import { Ok } from '../../src/protocol/primitives';
import type { Services } from '../services/createServices';
import type { DefineRoute } from './route';

/** A logo of 1 MB is about 1.37 MB of base64 in JSON; the default limit is 1 MiB. */
const LOGO_BODY_LIMIT = 1_600_000;

export function registerOrganisationRoutes(route: DefineRoute, services: Services): void {
  route({
    method: 'GET',
    url: '/api/organisations',
    // With ?subdomain= it is the signed-out branding of a login page; without, the caller's own.
    auth: 'optional',
    query: OrganisationQuery,
    handler: async ({ caller, query }): Promise<MyOrganisationResponse | OrganisationBranding> => {
      if (query.subdomain !== undefined) return services.organisations.branding(query.subdomain);
      if (!caller) throw new ApiError('UNAUTHENTICATED', 'Sign in to see your organisation');
      return services.organisations.mine(caller.user.id);
    },
  });
  route({
    method: 'POST',
    url: '/api/organisations',
    auth: 'required',
    rateLimited: true,
    blockedWhenReadOnly: true,
    bodyLimit: LOGO_BODY_LIMIT,
    body: CreateOrganisationRequest,
    handler: async ({ caller, body }): Promise<Organisation> => services.organisations.create(caller.user.id, body),
  });
  route({
    method: 'PUT',
    url: '/api/organisations/:orgId',
    auth: 'required',
    rateLimited: true,
    blockedWhenReadOnly: true,
    bodyLimit: LOGO_BODY_LIMIT,
    params: OrganisationIdParams,
    body: UpdateOrganisationRequest,
    handler: async ({ caller, params, body }): Promise<Organisation> => services.organisations.update(caller.user.id, params.orgId, body),
  });
  route({
    method: 'GET',
    url: '/api/organisations/:orgId/members',
    auth: 'required',
    params: OrganisationIdParams,
    handler: async ({ caller, params }): Promise<OrganisationMembersResponse> => services.organisations.members(caller.user.id, params.orgId),
  });
  route({
    method: 'POST',
    url: '/api/organisations/:orgId/members',
    auth: 'required',
    // It e-mails and tells whether an address has an account: limited like sign-in.
    rateLimited: true,
    blockedWhenReadOnly: true,
    params: OrganisationIdParams,
    body: InviteOrganisationMemberRequest,
    handler: async ({ caller, params, body }): Promise<OrganisationMember> =>
      services.organisations.invite(caller.user.id, caller.user.email, params.orgId, body),
  });
  route({
    method: 'DELETE',
    url: '/api/organisations/:orgId/members/:email',
    auth: 'required',
    blockedWhenReadOnly: true,
    params: OrganisationMemberParams,
    handler: async ({ caller, params }): Promise<Ok> => {
      await services.organisations.remove(caller.user.id, params.orgId, params.email);
      return Ok.parse({ ok: true });
    },
  });
}
