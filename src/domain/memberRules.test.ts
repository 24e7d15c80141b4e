import { describe, expect, it } from 'vitest';
import {
  canAcceptTerms,
  canLeaveVault,
  canResendInvite,
  canRevokeMember,
  canSendInvites,
  changedRoles,
  confirmPageView,
  type InviteFormRow,
  inviteRowEmailError,
  inviteRowFailureText,
  roleChoicesFor,
  invitePageView,
  isSaveEnabled,
  memberMenuEntries,
  type MemberView,
  rejectPageTexts,
  sortMembersForList,
  roleCardText,
  visibleMembers,
  withTrailingEmptyRow,
} from './memberRules';

let counter = 0;
const makeKey = () => `k${++counter}`;
const row = (email: string, role: InviteFormRow['role'] = 'VIEWER'): InviteFormRow => ({ key: makeKey(), email, role });
const member = (membershipId: string, userId: string, role: MemberView['role'], status: MemberView['status'] = 'ACCEPTED'): MemberView => ({
  membershipId,
  userId,
  role,
  status,
});

describe('invite to vault rows (spec 001 sections 2 and 5)', () => {
  it('adds an empty row once the last row holds a valid e-mail, and only then', () => {
    const typing = [row('ann@example')];
    expect(withTrailingEmptyRow(typing, makeKey, 20)).toBe(typing);
    const valid = [row('ann@example.com')];
    const next = withTrailingEmptyRow(valid, makeKey, 20);
    expect(next).toHaveLength(2);
    expect(next[1]).toMatchObject({ email: '', role: 'VIEWER' });
    expect(withTrailingEmptyRow(next, makeKey, 20)).toBe(next);
  });
  it('stops adding rows at the limit', () => {
    const rows = [row('a@b.co'), row('c@d.co')];
    expect(withTrailingEmptyRow(rows, makeKey, 2)).toBe(rows);
  });
  it('sends when every filled row is valid and no e-mail repeats; the blank trailing row is ignored', () => {
    expect(canSendInvites([row('')])).toBe(false);
    expect(canSendInvites([row('ann@example.com'), row('')])).toBe(true);
    expect(canSendInvites([row('ann@example.com'), row('bob@')])).toBe(false);
    expect(canSendInvites([row('ann@example.com'), row(' ANN@example.com ')])).toBe(false);
  });
  it('flags an invalid e-mail only once something is typed', () => {
    expect(inviteRowEmailError(row(''))).toBeNull();
    expect(inviteRowEmailError(row('bob@'))).toBe('Enter a valid e-mail address.');
    expect(inviteRowEmailError(row('bob@example.com'))).toBeNull();
  });
  it('words each row failure', () => {
    expect(inviteRowFailureText('ALREADY_MEMBER')).toBe('This person has already been invited.');
    expect(inviteRowFailureText('USER_NOT_FOUND')).toMatch(/Cairn account/);
    expect(inviteRowFailureText('INTERNAL')).toBe('There was an error sending the invitation.');
  });
});

describe('manage access (spec 001 sections 4-6)', () => {
  const members = [member('m1', 'u1', 'OWNER'), member('m2', 'u2', 'VIEWER'), member('m3', 'u3', 'CONTRIBUTOR', 'PENDING')];

  it('Save changes is disabled until a role differs from the original', () => {
    expect(isSaveEnabled(members, {})).toBe(false);
    expect(isSaveEnabled(members, { m2: 'VIEWER' })).toBe(false);
    expect(isSaveEnabled(members, { m2: 'CONTRIBUTOR' })).toBe(true);
    expect(changedRoles(members, { m1: 'OWNER', m2: 'CONTRIBUTOR' })).toEqual([{ membershipId: 'm2', role: 'CONTRIBUTOR' }]);
  });
  it('VIEWERs do not see pending members; others do', () => {
    expect(visibleMembers(members, 'VIEWER').map((m) => m.membershipId)).toEqual(['m1', 'm2']);
    expect(visibleMembers(members, 'CONTRIBUTOR')).toHaveLength(3);
  });
  it('lists accepted members first and ended ones last', () => {
    const list = [member('r', 'u9', 'REVOKED', 'REVOKED'), member('p', 'u8', 'VIEWER', 'INVITED'), member('a', 'u7', 'OWNER')];
    expect(sortMembersForList(list).map((m) => m.membershipId)).toEqual(['a', 'p', 'r']);
  });
  it('resend for pending or invited; revoke unless already ended', () => {
    expect(canResendInvite(member('x', 'y', 'VIEWER', 'INVITED'))).toBe(true);
    expect(canResendInvite(member('x', 'y', 'VIEWER', 'ACCEPTED'))).toBe(false);
    expect(canRevokeMember(member('x', 'y', 'VIEWER', 'PENDING'))).toBe(true);
    expect(canRevokeMember(member('x', 'y', 'REVOKED', 'REVOKED'))).toBe(false);
  });
  it('Leave vault only when another accepted OWNER exists', () => {
    expect(canLeaveVault(members, 'u1')).toBe(false);
    expect(canLeaveVault(members, 'u2')).toBe(true);
    expect(canLeaveVault([...members, member('m4', 'u4', 'OWNER', 'PENDING')], 'u1')).toBe(false);
    expect(canLeaveVault([...members, member('m4', 'u4', 'OWNER')], 'u1')).toBe(true);
    expect(canLeaveVault(members, 'u3')).toBe(false);
  });
  it('menu: owners invite and manage, others view; read-only and archived vaults disable adding', () => {
    expect(memberMenuEntries({ role: 'OWNER', vaultStatus: 'ACTIVE', isReadOnly: false })).toEqual({
      invite: { isShown: true, isDisabled: false },
      members: { label: 'Manage access', isDisabled: false },
    });
    expect(memberMenuEntries({ role: 'OWNER', vaultStatus: 'ARCHIVED', isReadOnly: false }).invite.isDisabled).toBe(true);
    expect(memberMenuEntries({ role: 'OWNER', vaultStatus: 'ACTIVE', isReadOnly: true }).members.isDisabled).toBe(true);
    expect(memberMenuEntries({ role: 'VIEWER', vaultStatus: 'ACTIVE', isReadOnly: false })).toMatchObject({
      invite: { isShown: false },
      members: { label: 'View members' },
    });
  });
});

describe('invite page by membership status (spec 001 section 4)', () => {
  const text = { kind: 'text', text: 'Be nice.' } as const;
  it('follows the spec table', () => {
    expect(invitePageView(undefined, undefined, text)).toEqual({ kind: 'home' });
    expect(invitePageView('m', undefined, text)).toEqual({ kind: 'loading' });
    expect(invitePageView('m', 'ACCEPTED', text)).toEqual({ kind: 'vault' });
    expect(invitePageView('m', 'REVOKED', text)).toEqual({ kind: 'revoked' });
    expect(invitePageView('m', 'REJECTED', text)).toEqual({ kind: 'rejected' });
    expect(invitePageView('m', 'INVITED', text)).toEqual({ kind: 'awaitingConfirmation' });
    expect(invitePageView('m', 'PENDING', { kind: 'loading' })).toEqual({ kind: 'loading' });
    expect(invitePageView('m', 'PENDING', { kind: 'text', text: '  ' })).toEqual({ kind: 'noTerms' });
    expect(invitePageView('m', 'PENDING', text)).toEqual({ kind: 'terms', text: 'Be nice.' });
  });
  it('R72: an invitation without terms is shown (who invited, the role, Accept invitation), never accepted by itself', () => {
    expect(invitePageView('m', 'PENDING', { kind: 'text', text: '' })).toEqual({ kind: 'noTerms' });
    expect(canAcceptTerms('', false)).toBe(true);
  });
  it('requires the checkbox only when there are terms', () => {
    expect(canAcceptTerms('Be nice.', false)).toBe(false);
    expect(canAcceptTerms('Be nice.', true)).toBe(true);
    expect(canAcceptTerms('', false)).toBe(true);
  });
  it('role card texts', () => {
    expect(roleCardText('CONTRIBUTOR')).toBe('You can upload files, request data and delete files.');
    expect(roleCardText('VIEWER')).toBe('You can view and download content in the vault.');
    expect(roleCardText('OWNER')).toBe('No role has been set.');
  });
});

describe('confirm and reject pages (spec 001 sections 2 and 4)', () => {
  it('confirm page by status', () => {
    expect(confirmPageView('INVITED')).toBe('confirm');
    expect(confirmPageView('PENDING')).toBe('pending');
    expect(confirmPageView('REVOKED')).toBe('revoked');
    expect(confirmPageView('ACCEPTED')).toBe('accepted');
    expect(confirmPageView('REJECTED')).toBe('vault');
  });
  it('reject page texts', () => {
    expect(rejectPageTexts('REVOKED').title).toBe('Your invite was revoked');
    expect(rejectPageTexts('REJECTED')).toMatchObject({ title: 'Terms of access rejected', text: expect.stringMatching(/already rejected/) });
    expect(rejectPageTexts(undefined).text).toMatch(/has been told/);
  });
});

describe('[R59] roleChoicesFor', () => {
  it('never offers OWNER for a member from an airdrop link', () => {
    expect(roleChoicesFor({ isPasswordless: true })).toEqual(['CONTRIBUTOR', 'VIEWER', 'REVOKED']);
    expect(roleChoicesFor({ isPasswordless: false })).toEqual(['OWNER', 'CONTRIBUTOR', 'VIEWER', 'REVOKED']);
  });
});
