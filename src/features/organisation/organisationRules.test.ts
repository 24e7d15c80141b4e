import { describe, expect, it } from 'vitest';
import {
  adminsToAirdrop,
  autoAcceptSelection,
  canSaveDetails,
  createBody,
  type DetailsDraft,
  detailsErrors,
  isOrganisationInvitee,
  logoFileError,
  membershipToRevoke,
  needsAirdrop,
  ownedActiveVaults,
  type PlannedVault,
  revokedChoices,
  updateBody,
} from './organisationRules';
import type { Organisation, OrganisationMember } from '../../protocol/organisations';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const empty: DetailsDraft = { name: '', subdomain: '', logo: '', primaryColor: '', secondaryColor: '' };
const filled: DetailsDraft = { name: 'Acme', subdomain: 'acme', logo: PNG, primaryColor: '#1c7ed6', secondaryColor: '' };

describe('organisation details form (spec 001 section 5)', () => {
  it('needs a name, a subdomain of letters and digits, and a logo; colours are hexadecimal', () => {
    expect(detailsErrors(empty)).toEqual({ name: 'Enter the organisation name', subdomain: 'Enter a subdomain', logo: 'Choose a logo' });
    expect(detailsErrors(filled)).toEqual({});
    expect(detailsErrors({ ...filled, subdomain: 'acme-corp' }).subdomain).toBe('Letters and digits only, at most 63');
    expect(detailsErrors({ ...filled, subdomain: 'a'.repeat(64) }).subdomain).toBeDefined();
    expect(detailsErrors({ ...filled, primaryColor: 'blue' }).primaryColor).toBe('Expected a hexadecimal colour like #1c7ed6');
    expect(detailsErrors({ ...filled, logo: 'data:text/html;base64,PGgxPg==' }).logo).toBe('The logo must be a JPG, PNG or SVG image of at most 1 MB');
  });

  it('refuses logo files of another type or over 1 MB before reading them', () => {
    expect(logoFileError({ type: 'image/png', size: 1_000_000 })).toBeNull();
    expect(logoFileError({ type: 'image/svg+xml', size: 10 })).toBeNull();
    expect(logoFileError({ type: 'image/gif', size: 10 })).toBe('The logo must be a JPG, PNG or SVG image');
    expect(logoFileError({ type: 'image/jpeg', size: 1_000_001 })).toBe('The logo must be at most 1 MB');
  });

  it('Save is disabled while invalid, and, once created, while unchanged; a later save sends the non-empty changed fields', () => {
    expect(canSaveDetails(empty, empty, true)).toBe(false);
    expect(canSaveDetails(empty, filled, true)).toBe(true);
    expect(canSaveDetails(filled, filled, false)).toBe(false);
    expect(canSaveDetails(filled, { ...filled, name: 'Acme Ltd' }, false)).toBe(true);
    expect(updateBody(filled, { ...filled, name: ' Acme Ltd ', subdomain: 'ACME2', primaryColor: '' })).toEqual({ name: 'Acme Ltd', subdomain: 'acme2' });
    expect(updateBody(filled, filled)).toBeNull();
    expect(createBody({ ...filled, subdomain: 'Acme' })).toEqual({ name: 'Acme', subdomain: 'acme', logo: PNG, primaryColor: '#1c7ed6' });
  });
});

describe('who sees Plans and billing (spec 001 section 2)', () => {
  it('an organisation invitee does not; its creator and people outside organisations do', () => {
    expect(isOrganisationInvitee(null)).toBe(false);
    expect(isOrganisationInvitee({ isOwner: true } as Organisation)).toBe(false);
    expect(isOrganisationInvitee({ isOwner: false } as Organisation)).toBe(true);
  });
});

const vault = (over: Partial<PlannedVault> & { vaultId: string }): PlannedVault => ({
  status: 'ACTIVE',
  role: 'OWNER',
  membershipStatus: 'ACCEPTED',
  ownerAddress: 'addr-admin',
  ...over,
});

describe('the vaults an organisation flow touches (R128-R130)', () => {
  it('only ACTIVE vaults where the device is an ACCEPTED OWNER', () => {
    const vaults = [
      vault({ vaultId: 'mine' }),
      vault({ vaultId: 'archived', status: 'ARCHIVED' }),
      vault({ vaultId: 'contributor', role: 'CONTRIBUTOR' }),
      vault({ vaultId: 'invited', membershipStatus: 'PENDING' }),
    ];
    expect(ownedActiveVaults(vaults).map((v) => v.vaultId)).toEqual(['mine']);
  });

  it('R128: airdrops someone with no live membership; a REJECTED or REVOKED one is invited again', () => {
    const m = (userId: string, status: PlannedVault['membershipStatus']) => ({ membershipId: `${userId}-${status}`, userId, status });
    expect(needsAirdrop([m('admin', 'ACCEPTED')], 'bob')).toBe(true);
    expect(needsAirdrop([m('bob', 'REVOKED')], 'bob')).toBe(true);
    expect(needsAirdrop([m('bob', 'REJECTED')], 'bob')).toBe(true);
    expect(needsAirdrop([m('bob', 'PENDING')], 'bob')).toBe(false);
    expect(needsAirdrop([m('bob', 'INVITED')], 'bob')).toBe(false);
    expect(needsAirdrop([m('bob', 'ACCEPTED')], 'bob')).toBe(false);
  });

  it("R130: revokes the person's live membership, never from a vault they created", () => {
    const members = [
      { membershipId: 'm1', userId: 'bob', status: 'ACCEPTED' as const },
      { membershipId: 'm2', userId: 'carol', status: 'REVOKED' as const },
    ];
    expect(membershipToRevoke(vault({ vaultId: 'v' }), members, { userId: 'bob', address: 'addr-bob' })).toBe('m1');
    expect(membershipToRevoke(vault({ vaultId: 'v', ownerAddress: 'addr-bob' }), members, { userId: 'bob', address: 'addr-bob' })).toBeNull();
    expect(membershipToRevoke(vault({ vaultId: 'v' }), members, { userId: 'carol', address: 'addr-carol' })).toBeNull();
  });

  it('R129: every admin but the creator of the vault', () => {
    const admins = [{ userId: 'me' }, { userId: 'other' }] as OrganisationMember[];
    expect(adminsToAirdrop(admins, 'me').map((a) => a.userId)).toEqual(['other']);
  });
});

describe('auto-accept (R131)', () => {
  it('picks PENDING memberships the server flags as organisation airdrops, not already being accepted', () => {
    const v = (id: string, status: 'PENDING' | 'ACCEPTED' | 'INVITED', organisationAirdrop?: boolean) => ({ vaultId: id, membership: { id: `m-${id}`, status, organisationAirdrop } });
    const list = [v('a', 'PENDING', true), v('b', 'PENDING', false), v('c', 'PENDING'), v('d', 'ACCEPTED', true), v('e', 'INVITED', true), v('f', 'PENDING', true)];
    expect(autoAcceptSelection(list, new Set(['m-f'])).map((x) => x.vaultId)).toEqual(['a']);
  });
});

describe('members screen (spec 001 section 4)', () => {
  it('Save changes has work only for people set to REVOKED', () => {
    expect(revokedChoices({})).toEqual([]);
    expect(revokedChoices({ 'a@x.org': 'MEMBER', 'b@x.org': 'REVOKED' })).toEqual(['b@x.org']);
  });
});

describe("the organisation routes' refusals (spec 001 section 8)", () => {
  it("FORBIDDEN reads 'not allowed', ORG_DOESNT_EXISTS asks for the name first, USER_NOT_FOUND says an account is needed; others show the server's message", async () => {
    const { ApiError } = await import('../../protocol/errors');
    const { organisationErrorText } = await import('./organisationApi');
    expect(organisationErrorText(new ApiError('FORBIDDEN', 'Forbidden'))).toBe('You are not allowed to access this organization.');
    expect(organisationErrorText(new ApiError('ORG_DOESNT_EXISTS', 'No organisation'))).toBe('Add your organisation name before sending an invite.');
    expect(organisationErrorText(new ApiError('USER_NOT_FOUND', 'No account'))).toMatch(/needs a Cairn account first/);
    expect(organisationErrorText(new ApiError('CONFLICT', 'This subdomain is taken.'))).toBe('This subdomain is taken.');
  });
});
