/**
 * Organisations (spec 001 sections 2-9; docs/SYNC_SPEC.md R124-R131): an account on a plan with
 * the 'organisation' feature creates one organisation, names it, gives it a subdomain, a logo and
 * two colours, and invites existing accounts as admins or members.
 *
 * The server keeps who belongs to which organisation and answers the branding of a subdomain; it
 * never joins anyone to a vault. Joining vaults (an admin airdropped into every vault of the
 * inviter, the admins airdropped into a vault an organisation member creates) and leaving them
 * (an organisation member revoked) are the same signed `member.*` operations with sealed key rings
 * every vault uses, made on the acting device (src/features/organisation).
 */
import { z } from 'zod';
import { Address, Email, Hex32, Id } from './primitives';

export const ORGANISATION_LIMITS = {
  NAME_MAX: 100,
  SUBDOMAIN_MAX: 63,
  /** Spec 001 section 9: 1 MB. */
  LOGO_BYTES_MAX: 1_000_000,
  /** Spec 001 section 9: recommended, not enforced. */
  LOGO_RECOMMENDED_WIDTH: 250,
  /** Spec 001 section 9: the client polls a pending subdomain every 5 s. */
  SUBDOMAIN_POLL_MS: 5_000,
} as const;

/** Letters and digits only (spec 001 section 5), kept lower-case: a host name label. */
export const Subdomain = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(ORGANISATION_LIMITS.SUBDOMAIN_MAX)
  .regex(/^[a-z0-9]+$/, 'Letters and digits only');

/** '#rrggbb' (spec 001 section 5: colours are hexadecimal), kept lower-case. */
export const HexColour = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^#[0-9a-f]{6}$/, 'Expected a hexadecimal colour like #1c7ed6');

/**
 * A logo as a data URL: `data:image/(png|jpeg|svg+xml);base64,...` of at most
 * ORGANISATION_LIMITS.LOGO_BYTES_MAX decoded bytes. The server also checks the bytes are what the
 * type says and refuses an SVG that could run anything (scripts, event handlers, foreign objects,
 * outside references); the app shows a logo only as an <img>, where an SVG cannot run either.
 */
export const LogoDataUrl = z
  .string()
  .max(Math.ceil((ORGANISATION_LIMITS.LOGO_BYTES_MAX * 4) / 3) + 64)
  .regex(/^data:image\/(png|jpeg|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/, 'The logo must be a JPG, PNG or SVG image');

/**
 * The organisation subdomain a host names under `baseDomain` (one label of letters and digits in
 * front of it; a port and a trailing dot are ignored), or null: the main host, a deeper or odd
 * name, another domain. The server reads it from `Host` (R125), the app from its address (R135).
 */
export function subdomainOfHost(host: string | undefined, baseDomain: string | null | undefined): string | null {
  if (!host || !baseDomain) return null;
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const suffix = `.${baseDomain.toLowerCase()}`;
  if (!name.endsWith(suffix)) return null;
  const label = name.slice(0, -suffix.length);
  return /^[a-z0-9]{1,63}$/.test(label) ? label : null;
}

export const SubdomainStatus = z.enum(['none', 'pending', 'done']);
export type SubdomainStatus = z.infer<typeof SubdomainStatus>;

/** The caller's place in their organisation (spec 001 section 3: orgRole). */
export const OrgRole = z.enum(['ADMIN', 'MEMBER']);
export type OrgRole = z.infer<typeof OrgRole>;

/** A member's role as the members list shows and sets it (spec 001 section 4: OWNER, MEMBER, REVOKED). */
export const OrgMemberRole = z.enum(['OWNER', 'MEMBER', 'REVOKED']);
export type OrgMemberRole = z.infer<typeof OrgMemberRole>;

/** GET /organisations, POST /organisations, PUT /organisations/{id}: the caller's organisation. */
export const Organisation = z.strictObject({
  id: Id,
  name: z.string(),
  subdomain: z.string().nullable(),
  subdomainStatus: SubdomainStatus,
  /** The address the subdomain serves Cairn at (`https://acme.example.org`), or null without a subdomain. */
  subdomainUrl: z.string().nullable(),
  logo: z.string().nullable(),
  primaryColor: z.string().nullable(),
  secondaryColor: z.string().nullable(),
  /** The e-mail of the account that created it (spec: owner). */
  email: z.string(),
  /** The caller's role in it. */
  orgRole: OrgRole,
  /** The caller created it (the organisation's owner: it pays, it alone sees Plans and billing). */
  isOwner: z.boolean(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Organisation = z.infer<typeof Organisation>;

/**
 * GET /organisations (no query): the caller's organisation, or null, and whether the caller may
 * create one (their plan has the 'organisation' feature, SYNC_SPEC R122) and whether the account
 * menu shows Organisation (the feature, and a role other than MEMBER).
 */
export const MyOrganisationResponse = z.strictObject({
  organisation: Organisation.nullable(),
  canCreate: z.boolean(),
  showMenu: z.boolean(),
});
export type MyOrganisationResponse = z.infer<typeof MyOrganisationResponse>;

/** GET /organisations?subdomain={subdomain}, signed out: what the login page and the theme need. 404 ORG_DOESNT_EXISTS. */
export const OrganisationBranding = z.strictObject({
  id: Id,
  name: z.string(),
  subdomain: z.string(),
  logo: z.string().nullable(),
  primaryColor: z.string().nullable(),
  secondaryColor: z.string().nullable(),
});
export type OrganisationBranding = z.infer<typeof OrganisationBranding>;

export const OrganisationQuery = z.strictObject({ subdomain: Subdomain.optional() });

/** POST /organisations (needs the 'organisation' feature): name, subdomain and logo required (spec 001 section 5). */
export const CreateOrganisationRequest = z.strictObject({
  name: z.string().trim().min(1).max(ORGANISATION_LIMITS.NAME_MAX),
  subdomain: Subdomain,
  logo: LogoDataUrl,
  primaryColor: HexColour.optional(),
  secondaryColor: HexColour.optional(),
});
export type CreateOrganisationRequest = z.infer<typeof CreateOrganisationRequest>;

/** PUT /organisations/{id} (admins): the non-empty fields only. A new subdomain starts pending again. */
export const UpdateOrganisationRequest = CreateOrganisationRequest.partial().refine(
  (v) => Object.values(v).some((x) => x !== undefined),
  'Nothing to update',
);
export type UpdateOrganisationRequest = z.infer<typeof UpdateOrganisationRequest>;

export const OrganisationIdParams = z.strictObject({ orgId: Id });

/** One person of an organisation, with what a device needs to seal a vault's ring to them. */
export const OrganisationMember = z.strictObject({
  userId: Id,
  email: z.string(),
  address: Address,
  publicSigningKey: Hex32,
  publicEncryptionKey: Hex32,
  profileName: z.string().nullable(),
  role: OrgMemberRole,
  isAdmin: z.boolean(),
  /** The organisation's creator (cannot be revoked). */
  isOwner: z.boolean(),
  createdAt: z.number().int(),
});
export type OrganisationMember = z.infer<typeof OrganisationMember>;

/** GET /organisations/{orgId}/members (any person of the organisation): members and admins listed apart. */
export const OrganisationMembersResponse = z.strictObject({
  members: z.array(OrganisationMember),
  admins: z.array(OrganisationMember),
});
export type OrganisationMembersResponse = z.infer<typeof OrganisationMembersResponse>;

/**
 * POST /organisations/{orgId}/members (admins): invites an existing account (404 USER_NOT_FOUND
 * otherwise; 409 ALREADY_MEMBER when it belongs to an organisation). `isAdmin` makes it an admin
 * (role OWNER). Unless `skipEmail`, it is e-mailed a link to `origin` (or the server's address).
 */
export const InviteOrganisationMemberRequest = z.strictObject({
  email: Email,
  isAdmin: z.boolean(),
  skipEmail: z.boolean().optional(),
  origin: z.string().url().max(500).optional(),
});
export type InviteOrganisationMemberRequest = z.infer<typeof InviteOrganisationMemberRequest>;

export const OrganisationMemberParams = z.strictObject({ orgId: Id, email: Email });

/** The spec's texts (spec 001 sections 5 and 8). */
export const ORGANISATION_TEXTS = {
  nameMissing: 'Add your organisation name before sending an invite.',
  notAllowed: 'You are not allowed to access this organization.',
} as const;
