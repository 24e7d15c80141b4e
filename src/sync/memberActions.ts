/**
 * Members and sharing on the device (spec 001 sections 2-6, DESIGN.md section 3). CONTRACT for
 * issue 5: the screens (src/features/members/) call these; the bodies are written in the sync
 * layer's branch. Membership changes are signed member.* operations pushed online at once (never
 * queued offline); the member list is fetched into Dexie and screens read it from there.
 */
import type { Member, MembershipResponse, UserLookupResponse } from '../protocol/members';
import type { MemberRole } from '../protocol/vaults';

/** A vault's member as cached in Dexie. */
export type MemberRecord = Member & { accountId: string; vaultId: string };

export interface InviteRow {
  email: string;
  role: MemberRole;
}

/** One form row's outcome. `code` ALREADY_MEMBER: 'This person has already been invited.'; USER_NOT_FOUND: no account. */
export type InviteRowResult =
  | { email: string; status: 'invited'; membershipId: string }
  | { email: string; status: 'failed'; code: string; message: string };

/** The server answered 403 MEMBER_LIMIT: the form opens the 'You've hit the member limit' dialog. */
export class MemberLimitError extends Error {
  constructor() {
    super('MEMBER_LIMIT');
    this.name = 'MemberLimitError';
  }
}

function notYet(): never {
  throw new Error('memberActions: not implemented in this branch');
}

/** The account with that e-mail, or null when there is none. Online only. */
export async function lookupAccount(_email: string): Promise<UserLookupResponse | null> {
  return notYet();
}

/** Invites each row (looked up, ring sealed to them), sending `message` in the e-mail. Online only. */
export async function inviteMembers(_vaultId: string, _rows: InviteRow[], _message?: string): Promise<InviteRowResult[]> {
  return notYet();
}

/** Fetches the vault's members into Dexie (called by screens on open and by sync after member.* operations). */
export async function refreshMembers(_vaultId: string): Promise<void> {
  return notYet();
}

/** The vault's cached members (undefined while loading), live. */
export function useMembers(_vaultId: string): MemberRecord[] | undefined {
  return notYet();
}

/** 'Save changes' on manage access: one member.changeRole per changed member. */
export async function saveRoleChanges(_vaultId: string, _changes: { membershipId: string; role: MemberRole }[]): Promise<void> {
  return notYet();
}

/** Revokes a member or an invitation, rotating the vault key of a private vault. */
export async function revokeMember(_vaultId: string, _membershipId: string): Promise<void> {
  return notYet();
}

export async function resendInvite(_vaultId: string, _membershipId: string): Promise<void> {
  return notYet();
}

/** The signed-in member leaves the vault (shown only when another owner exists). */
export async function leaveVault(_vaultId: string): Promise<void> {
  return notYet();
}

/** The invite page's 'Accept terms' / automatic acceptance. */
export async function acceptInvite(_vaultId: string, _membershipId: string): Promise<void> {
  return notYet();
}

export async function rejectInvite(_vaultId: string, _membershipId: string): Promise<void> {
  return notYet();
}

/** The confirm page's 'Confirm access' (INVITED -> PENDING, ring sealed to the member). */
export async function confirmMember(_vaultId: string, _membershipId: string): Promise<void> {
  return notYet();
}

/** A membership by id (the invite and confirm pages), from the server. */
export async function fetchMembership(_membershipId: string): Promise<MembershipResponse> {
  return notYet();
}
