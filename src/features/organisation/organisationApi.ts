/**
 * The /api/organisations calls (spec 001 section 7), validated with the protocol's schemas. Online
 * only: who belongs to an organisation is the server's to say, never a cached guess.
 */
import { ApiError } from '../../protocol/errors';
import {
  type CreateOrganisationRequest,
  MyOrganisationResponse,
  Organisation,
  ORGANISATION_TEXTS,
  OrganisationMember,
  OrganisationMembersResponse,
} from '../../protocol/organisations';
import { Ok } from '../../protocol/primitives';
import { getApiClient } from '../../platform/apiClient';

const base = (orgId: string) => `/organisations/${encodeURIComponent(orgId)}`;

export function fetchMyOrganisation(): Promise<MyOrganisationResponse> {
  return getApiClient().get('/organisations', MyOrganisationResponse);
}

export function createOrganisation(body: CreateOrganisationRequest): Promise<Organisation> {
  return getApiClient().post('/organisations', body, Organisation);
}

export function updateOrganisation(orgId: string, body: Partial<CreateOrganisationRequest>): Promise<Organisation> {
  return getApiClient().put(base(orgId), body, Organisation);
}

export function fetchOrganisationMembers(orgId: string): Promise<OrganisationMembersResponse> {
  return getApiClient().get(`${base(orgId)}/members`, OrganisationMembersResponse);
}

export function inviteOrganisationMember(orgId: string, email: string, isAdmin: boolean): Promise<OrganisationMember> {
  return getApiClient().post(`${base(orgId)}/members`, { email, isAdmin, origin: window.location.origin }, OrganisationMember);
}

export function removeOrganisationMember(orgId: string, email: string): Promise<unknown> {
  return getApiClient().delete(`${base(orgId)}/members/${encodeURIComponent(email)}`, {}, Ok);
}

/** The text an organisation call's failure shows: the spec's for FORBIDDEN and a missing organisation, else the server's. */
export function organisationErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'FORBIDDEN') return ORGANISATION_TEXTS.notAllowed;
    if (error.code === 'ORG_DOESNT_EXISTS') return ORGANISATION_TEXTS.nameMissing;
    if (error.code === 'USER_NOT_FOUND') return 'This person needs a Cairn account first: ask them to sign up, then invite them again.';
    return error.message;
  }
  return 'The organisation could not be reached. Check your connection and try again.';
}
