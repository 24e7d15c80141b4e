/**
 * Members and sharing rules (spec 001 sections 4-6): the invitation form's rows, manage access's
 * 'Save changes' and 'Leave vault', and what the invite, confirm and reject pages do for each
 * membership status. Pure: the screens in src/features/members/ only render these answers.
 */
import { EMAIL_PATTERN } from '../protocol/primitives';
import type { MemberRole, MembershipStatus, Role } from '../protocol/vaults';

// --- invite to vault ---------------------------------------------------------------------------

export interface InviteFormRow {
  /** Stable key for React (rows are added and removed). */
  key: string;
  email: string;
  role: MemberRole;
}

/** The role a new row starts with: the least access, so an owner must choose to give more. */
export const DEFAULT_INVITE_ROLE: MemberRole = 'VIEWER';

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email.trim());
}

/**
 * Spec 001 section 2: 'Another row is added automatically when a valid e-mail is typed' in the
 * last row, up to `maxRows`. Answers the rows to show (the same array when nothing is added).
 */
export function withTrailingEmptyRow(rows: InviteFormRow[], makeKey: () => string, maxRows: number): InviteFormRow[] {
  return withTrailingRow(rows, () => ({ key: makeKey(), email: '', role: DEFAULT_INVITE_ROLE }), maxRows);
}

/** `withTrailingEmptyRow` for any invite form's rows (a vault's, an organisation's): `makeRow` makes the empty one. */
export function withTrailingRow<T extends { email: string }>(rows: T[], makeRow: () => T, maxRows: number): T[] {
  const last = rows[rows.length - 1];
  if (last && !isValidEmail(last.email)) return rows;
  if (rows.length >= maxRows) return rows;
  return [...rows, makeRow()];
}

/** The rows that will be sent: every row with an e-mail typed (a blank trailing row is ignored). */
export function filledInviteRows<T extends { email: string }>(rows: T[]): T[] {
  return rows.filter((row) => row.email.trim() !== '');
}

/** A row's own validation message, shown once something is typed in it. */
export function inviteRowEmailError(row: Pick<InviteFormRow, 'email'>): string | null {
  const email = row.email.trim();
  if (email === '' || isValidEmail(email)) return null;
  return 'Enter a valid e-mail address.';
}

/** Send is enabled when at least one row is filled, every filled row is valid, and no e-mail repeats. */
export function canSendInvites(rows: InviteFormRow[]): boolean {
  const filled = filledInviteRows(rows);
  if (filled.length === 0 || !filled.every((row) => isValidEmail(row.email))) return false;
  const emails = filled.map((row) => row.email.trim().toLowerCase());
  return new Set(emails).size === emails.length;
}

/** Spec 001 section 5 and spec 000 section 8: what a failed row reads. */
export function inviteRowFailureText(code: string): string {
  if (code === 'SELF') return 'You are already a member of this vault.';
  if (code === 'ACCEPTED_MEMBER') return 'This person is already a member of this vault.';
  if (code === 'ALREADY_MEMBER') return 'This person has already been invited.';
  if (code === 'USER_NOT_FOUND') return 'There is no Cairn account with this e-mail. Only people with a Cairn account can be invited.';
  return 'There was an error sending the invitation.';
}

/**
 * Rows of people already in the vault: their row says so, and that is all there is to say (no
 * 'error sending' snackbar: nothing failed). Other failed rows keep the spec's action-failure
 * toast (spec 001 section 8).
 */
export function isAlreadyInVault(code: string): boolean {
  return code === 'SELF' || code === 'ACCEPTED_MEMBER';
}

// --- manage access -----------------------------------------------------------------------------

/** The fields of a member the rules need (a subset of src/protocol/members.ts Member). */
export interface MemberView {
  membershipId: string;
  userId: string;
  role: Role;
  status: MembershipStatus;
}

/** The members a caller sees: a VIEWER does not see pending members (spec 001 section 6). */
export function visibleMembers<T extends MemberView>(members: T[], myRole: Role): T[] {
  if (myRole !== 'VIEWER') return members;
  return members.filter((member) => member.status !== 'PENDING' && member.status !== 'INVITED');
}

/**
 * The roles chosen on manage access that differ from the member's current role. REVOKED is never
 * a choice kept here: choosing it opens the revoke confirmation at once.
 */
export function changedRoles(members: MemberView[], chosen: Record<string, MemberRole>): { membershipId: string; role: MemberRole }[] {
  return members.flatMap((member) => {
    const role = chosen[member.membershipId];
    return role !== undefined && role !== member.role ? [{ membershipId: member.membershipId, role }] : [];
  });
}

/** 'Save changes' is disabled unless a role differs from the original (spec 001 section 5). */
export function isSaveEnabled(members: MemberView[], chosen: Record<string, MemberRole>): boolean {
  return changedRoles(members, chosen).length > 0;
}

/** Resend invite: for members who have not accepted yet (spec 001 section 4, Manage access). */
export function canResendInvite(member: MemberView): boolean {
  return member.status === 'PENDING' || member.status === 'INVITED';
}

/** Revoke: unless the member is already revoked (or has rejected, which already ended it). */
export function canRevokeMember(member: MemberView): boolean {
  return member.status !== 'REVOKED' && member.status !== 'REJECTED';
}

/**
 * 'Leave vault' is offered to an accepted member only when another accepted OWNER remains, so a
 * vault is never left without one (the server refuses the last owner's leave too).
 */
export function canLeaveVault(members: MemberView[], myUserId: string): boolean {
  const me = members.find((member) => member.userId === myUserId && member.status === 'ACCEPTED');
  if (!me) return false;
  return members.some((member) => member.userId !== myUserId && member.status === 'ACCEPTED' && member.role === 'OWNER');
}

/** Live members first (accepted, then waiting), ended ones last; the original order otherwise. */
export function sortMembersForList<T extends MemberView>(members: T[]): T[] {
  const rank = (member: MemberView) => (member.status === 'ACCEPTED' ? 0 : member.status === 'PENDING' || member.status === 'INVITED' ? 1 : 2);
  return members.map((member, index) => ({ member, index })).sort((a, b) => rank(a.member) - rank(b.member) || a.index - b.index).map(({ member }) => member);
}

export const MEMBER_STATUS_LABELS: Record<MembershipStatus, string> = {
  ACCEPTED: 'Member',
  PENDING: 'Invited, terms not accepted yet',
  INVITED: 'Waiting for you to confirm access',
  REJECTED: 'Rejected the invitation',
  REVOKED: 'Access revoked',
};

export const ROLE_LABELS: Record<Role, string> = {
  OWNER: 'Owner',
  CONTRIBUTOR: 'Contributor',
  VIEWER: 'Viewer',
  REVOKED: 'Revoked',
};

/**
 * The roles an owner may choose for a member in Manage access. A member from an airdrop link is
 * never made OWNER (spec 001 section 5 hides the option for links; the server refuses it, R59).
 */
export function roleChoicesFor(member: { isPasswordless: boolean }): Role[] {
  const roles: Role[] = ['OWNER', 'CONTRIBUTOR', 'VIEWER', 'REVOKED'];
  return member.isPasswordless ? roles.filter((role) => role !== 'OWNER') : roles;
}

// --- vault menu entries -------------------------------------------------------------------------

export interface MemberMenuInput {
  role: Role;
  vaultStatus: 'ACTIVE' | 'ARCHIVED' | 'DELETED';
  isReadOnly: boolean;
}

export interface MemberMenuEntries {
  /** 'Invite to vault' shown (OWNER), and whether it can be used. */
  invite: { isShown: boolean; isDisabled: boolean };
  /** 'Manage access' (OWNER) or 'View members' (everyone else). */
  members: { label: 'Manage access' | 'View members'; isDisabled: boolean };
}

/**
 * Spec 001 section 6: OWNERs invite and manage access, others view members; read-only mode
 * disables both, and an archived vault takes no new members.
 */
export function memberMenuEntries({ role, vaultStatus, isReadOnly }: MemberMenuInput): MemberMenuEntries {
  const isOwner = role === 'OWNER';
  return {
    invite: { isShown: isOwner, isDisabled: isReadOnly || vaultStatus !== 'ACTIVE' },
    members: { label: isOwner ? 'Manage access' : 'View members', isDisabled: isReadOnly },
  };
}

// --- invite, confirm and reject pages ----------------------------------------------------------

/** The role card of the invite page (spec 001 section 2, Invitation screens). */
export function roleCardText(role: Role): string {
  if (role === 'CONTRIBUTOR') return 'You can upload files, request data and delete files.';
  if (role === 'VIEWER') return 'You can view and download content in the vault.';
  return 'No role has been set.';
}

/**
 * The vault's terms as the invitee's device knows them: still loading (the vault's operations are
 * not pulled yet) or the text ('' when there are none, or when they could not be opened: the
 * projection keeps a field it cannot open empty).
 */
export type TermsState = { kind: 'loading' } | { kind: 'text'; text: string };

export type InvitePageView =
  | { kind: 'home' }
  | { kind: 'vault' }
  | { kind: 'revoked' }
  | { kind: 'rejected' }
  | { kind: 'awaitingConfirmation' }
  | { kind: 'loading' }
  | { kind: 'noTerms' }
  | { kind: 'terms'; text: string };

/**
 * Spec 001 section 4, 'Invite page by membership status': no parameter -> /; ACCEPTED -> the
 * vault's files; REVOKED -> /reject-invite (from=REVOKED); no terms or unreadable terms -> who
 * invited and the role, with 'Accept invitation' and 'Reject terms' (spec 001 section 2; never
 * accepted by itself, SYNC_SPEC R72); otherwise the terms are shown. REJECTED (not in the spec's
 * list) goes to /reject-invite with from=REJECTED, whose text says to ask for another invite;
 * INVITED (the owner has not confirmed access yet, so nothing can be accepted) says so.
 */
export function invitePageView(membershipId: string | undefined, status: MembershipStatus | undefined, terms: TermsState): InvitePageView {
  if (!membershipId) return { kind: 'home' };
  if (status === undefined) return { kind: 'loading' };
  if (status === 'ACCEPTED') return { kind: 'vault' };
  if (status === 'REVOKED') return { kind: 'revoked' };
  if (status === 'REJECTED') return { kind: 'rejected' };
  if (status === 'INVITED') return { kind: 'awaitingConfirmation' };
  if (terms.kind === 'loading') return { kind: 'loading' };
  // Section 2's screen, not section 4's automatic accept: nobody joins a vault without seeing who
  // invited them and as what (R72).
  if (terms.text.trim() === '') return { kind: 'noTerms' };
  return { kind: 'terms', text: terms.text };
}

/** The accept-terms checkbox is required when terms text exists (spec 001 section 5). */
export function canAcceptTerms(termsText: string, isChecked: boolean): boolean {
  return termsText.trim() === '' || isChecked;
}

export type ConfirmPageView = 'confirm' | 'pending' | 'revoked' | 'accepted' | 'vault';

/** Spec 001 section 4, 'Confirm page by membership status'. */
export function confirmPageView(status: MembershipStatus): ConfirmPageView {
  if (status === 'INVITED') return 'confirm';
  if (status === 'PENDING') return 'pending';
  if (status === 'REVOKED') return 'revoked';
  if (status === 'ACCEPTED') return 'accepted';
  return 'vault';
}

export type RejectFrom = 'REVOKED' | 'REJECTED';

/** The reject page's heading and text (spec 001 section 2, Invitation screens). */
export function rejectPageTexts(from: RejectFrom | undefined): { title: string; text: string } {
  if (from === 'REVOKED') {
    return {
      title: 'Your invite was revoked',
      text: 'The invite to this vault was revoked. Contact the person who originally invited you for more information.',
    };
  }
  if (from === 'REJECTED') {
    return {
      title: 'Terms of access rejected',
      text: 'You have already rejected the invite to this vault. Ask the person who invited you to send you another invite.',
    };
  }
  return {
    title: 'Terms of access rejected',
    text: 'You rejected the terms of access to this vault. The person who invited you has been told of your rejection.',
  };
}

/** The list path segment of a vault's status: archived vaults live under /vaults/inactive. */
export function vaultListStatus(vaultStatus: 'ACTIVE' | 'ARCHIVED' | 'DELETED'): 'active' | 'inactive' {
  return vaultStatus === 'ARCHIVED' ? 'inactive' : 'active';
}
