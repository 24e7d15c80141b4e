/**
 * Organisations on the device (spec 001 sections 2-9; docs/SYNC_SPEC.md R128-R131): the details
 * form's checks, which vaults an airdrop or a revocation touches, which memberships the device
 * accepts by itself. Pure: the screens and src/features/organisation/organisationVaults.ts only act
 * on these answers.
 */
import {
  CreateOrganisationRequest,
  HexColour,
  LogoDataUrl,
  ORGANISATION_LIMITS,
  type Organisation,
  type OrganisationMember,
  Subdomain,
} from '../../protocol/organisations';
import type { MembershipStatus, Role, VaultStatus } from '../../protocol/vaults';

// --- details form --------------------------------------------------------------------------------

export interface DetailsDraft {
  name: string;
  subdomain: string;
  /** A data URL, or '' when none was picked. */
  logo: string;
  primaryColor: string;
  secondaryColor: string;
}

export type DetailsErrors = Partial<Record<keyof DetailsDraft, string>>;

export function draftOf(organisation: Organisation | null): DetailsDraft {
  return {
    name: organisation?.name ?? '',
    subdomain: organisation?.subdomain ?? '',
    logo: organisation?.logo ?? '',
    primaryColor: organisation?.primaryColor ?? '',
    secondaryColor: organisation?.secondaryColor ?? '',
  };
}

/** The field errors of a draft (name, subdomain and logo required; colours optional, hexadecimal). */
export function detailsErrors(draft: DetailsDraft): DetailsErrors {
  const errors: DetailsErrors = {};
  const name = draft.name.trim();
  if (!name) errors.name = 'Enter the organisation name';
  else if (name.length > ORGANISATION_LIMITS.NAME_MAX) errors.name = `At most ${ORGANISATION_LIMITS.NAME_MAX} characters`;
  if (!draft.subdomain.trim()) errors.subdomain = 'Enter a subdomain';
  else if (!Subdomain.safeParse(draft.subdomain).success) errors.subdomain = 'Letters and digits only, at most 63';
  if (!draft.logo) errors.logo = 'Choose a logo';
  else if (!LogoDataUrl.safeParse(draft.logo).success) errors.logo = 'The logo must be a JPG, PNG or SVG image of at most 1 MB';
  for (const key of ['primaryColor', 'secondaryColor'] as const) {
    if (draft[key].trim() && !HexColour.safeParse(draft[key]).success) errors[key] = 'Expected a hexadecimal colour like #1c7ed6';
  }
  return errors;
}

/** What a logo file is refused for before it is read (type and size), or null. */
export function logoFileError(file: { type: string; size: number }): string | null {
  if (!['image/png', 'image/jpeg', 'image/svg+xml'].includes(file.type)) return 'The logo must be a JPG, PNG or SVG image';
  if (file.size > ORGANISATION_LIMITS.LOGO_BYTES_MAX) return 'The logo must be at most 1 MB';
  return null;
}

/** The body of the first save (POST): the whole draft, colours only when given. */
export function createBody(draft: DetailsDraft): CreateOrganisationRequest {
  return CreateOrganisationRequest.parse({
    name: draft.name,
    subdomain: draft.subdomain,
    logo: draft.logo,
    ...(draft.primaryColor.trim() ? { primaryColor: draft.primaryColor } : {}),
    ...(draft.secondaryColor.trim() ? { secondaryColor: draft.secondaryColor } : {}),
  });
}

/** The body of a later save (PUT): the non-empty fields that changed, or null when none did. */
export function updateBody(saved: DetailsDraft, draft: DetailsDraft): Partial<CreateOrganisationRequest> | null {
  const body: Record<string, string> = {};
  for (const key of Object.keys(draft) as (keyof DetailsDraft)[]) {
    const value = draft[key].trim();
    if (value && value !== saved[key].trim()) body[key] = key === 'subdomain' || key.endsWith('Color') ? value.toLowerCase() : value;
  }
  return Object.keys(body).length ? body : null;
}

/** Save is enabled when the draft is valid and differs from what is saved (always, for a new one). */
export function canSaveDetails(saved: DetailsDraft, draft: DetailsDraft, isNew: boolean): boolean {
  if (Object.keys(detailsErrors(draft)).length) return false;
  return isNew || updateBody(saved, draft) !== null;
}

// --- who sees what -------------------------------------------------------------------------------

/** Spec 001 section 2: an organisation invitee (not its creator) sees no Plans and billing. */
export function isOrganisationInvitee(organisation: Organisation | null | undefined): boolean {
  return !!organisation && !organisation.isOwner;
}

// --- vaults an airdrop or a revocation touches (R128, R130) -------------------------------------

/** A vault of the device as the planners need it (a VaultRecord fits). */
export interface PlannedVault {
  vaultId: string;
  status: VaultStatus;
  role: Role;
  membershipStatus: MembershipStatus;
  ownerAddress: string;
}

/** A member of a vault as the planners need it (a MemberRecord fits). */
export interface PlannedMember {
  membershipId: string;
  userId: string;
  status: MembershipStatus;
}

const LIVE_STATUSES: readonly MembershipStatus[] = ['ACCEPTED', 'PENDING', 'INVITED'];

/** The vaults where this device may act for the organisation: ACTIVE ones of which it is an ACCEPTED OWNER. */
export function ownedActiveVaults<V extends PlannedVault>(vaults: V[]): V[] {
  return vaults.filter((v) => v.status === 'ACTIVE' && v.role === 'OWNER' && v.membershipStatus === 'ACCEPTED');
}

/**
 * R128: whether `person` is airdropped into a vault with these members: when they hold no live
 * membership of it (a REJECTED or REVOKED one is invited again under its id).
 */
export function needsAirdrop(members: PlannedMember[], personUserId: string): boolean {
  return !members.some((m) => m.userId === personUserId && LIVE_STATUSES.includes(m.status));
}

/**
 * R130: the membership to revoke in a vault, or null: the person's live membership, unless the
 * vault is theirs (its creator's address is theirs: a vault's creator is never revoked from it).
 */
export function membershipToRevoke(vault: PlannedVault, members: PlannedMember[], person: Pick<OrganisationMember, 'userId' | 'address'>): string | null {
  if (vault.ownerAddress === person.address) return null;
  return members.find((m) => m.userId === person.userId && LIVE_STATUSES.includes(m.status))?.membershipId ?? null;
}

/** R129: the admins to airdrop into a vault `myUserId` just created: every admin but the creator. */
export function adminsToAirdrop(admins: OrganisationMember[], myUserId: string): OrganisationMember[] {
  return admins.filter((admin) => admin.userId !== myUserId);
}

// --- auto-accept (R131) ----------------------------------------------------------------------------

export interface AirdropCandidate {
  vaultId: string;
  membership: { id: string; status: MembershipStatus; organisationAirdrop?: boolean };
}

/**
 * R131: the memberships the device accepts by itself: PENDING ones the server flags as an
 * organisation airdrop, minus those being accepted already (`inFlight`, by membership id).
 */
export function autoAcceptSelection<T extends AirdropCandidate>(vaults: T[], inFlight: ReadonlySet<string>): T[] {
  return vaults.filter((v) => v.membership.status === 'PENDING' && v.membership.organisationAirdrop === true && !inFlight.has(v.membership.id));
}

// --- members screen --------------------------------------------------------------------------------

/** 'Save changes' on the members screen: enabled only when somebody is set to REVOKED. */
export function revokedChoices(chosen: Record<string, string>): string[] {
  return Object.entries(chosen)
    .filter(([, role]) => role === 'REVOKED')
    .map(([email]) => email);
}
