/**
 * Members and sharing on the device (spec 001 sections 2-6, DESIGN.md section 3). CONTRACT for
 * issue 5: the screens (src/features/members/) call these; the bodies are written in the sync
 * layer's branch. Membership changes are signed member.* operations pushed online at once (never
 * queued offline); the member list is fetched into Dexie and screens read it from there.
 */
import { ApiError } from '../protocol/errors';
import { InviteResponse, MembershipResponse, UserLookupResponse } from '../protocol/members';
import { Email, Ok } from '../protocol/primitives';
import type { MemberRole, Operation } from '../protocol/vaults';
import { type MemberRecord, useVaultMembers } from '../storage/memberStore';
import { requireSync } from './currentSync';
import { fetchMembers } from './memberList';
import {
  isPrivateVault,
  ownMembershipId,
  pushMemberOps,
  pushWithRotation,
  refreshRing,
  sealRingFor,
  signMemberOp,
  syncVaultNow,
  whileOnline,
} from './members';
import type { SyncContext } from './SyncContext';

export type { MemberRecord } from '../storage/memberStore';
export { MEMBERS_OFFLINE_MESSAGE, OfflineError } from './members';

export interface InviteRow {
  email: string;
  role: MemberRole;
}

/**
 * One form row's outcome. `code` ALREADY_MEMBER: 'This person has already been invited.';
 * USER_NOT_FOUND: no account; SELF: the inviter's own e-mail; ACCEPTED_MEMBER: someone who already
 * accepted (the last two are found on the device and never sent).
 */
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

/** What a row says when the e-mail has no account (spec 001: an account is needed to be invited). */
export const NO_ACCOUNT_MESSAGE = 'There is no Cairn account with this e-mail. An account is needed to be invited.';

async function lookup(ctx: SyncContext, email: string): Promise<UserLookupResponse | null> {
  try {
    return await ctx.api.get(`/users/lookup?email=${encodeURIComponent(email)}`, UserLookupResponse);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The account with that e-mail, or null when there is none. Online only. */
export async function lookupAccount(email: string): Promise<UserLookupResponse | null> {
  const { ctx } = requireSync();
  return whileOnline(() => lookup(ctx, email));
}

/** A REJECTED or REVOKED membership of the same person is reused by a new invitation (vaults.ts). */
function reusableMembershipId(members: MemberRecord[], account: UserLookupResponse): string | undefined {
  return members.find((m) => m.userId === account.userId && (m.status === 'REJECTED' || m.status === 'REVOKED'))?.membershipId;
}

/** Invites each row (looked up, ring sealed to them), sending `message` in the e-mail. Online only. */
export async function inviteMembers(vaultId: string, rows: InviteRow[], message?: string): Promise<InviteRowResult[]> {
  const { ctx } = requireSync();
  return whileOnline(async () => {
    const isPrivate = await isPrivateVault(ctx, vaultId);
    // The ring as the server has it, once for every row (it must be the vault's whole current ring).
    if (isPrivate) await refreshRing(ctx, vaultId);
    // Fresh, so a person revoked or rejected meanwhile is invited again under their membership id.
    const members = await fetchMembers(ctx, vaultId);
    const results: (InviteRowResult | null)[] = [];
    const ops: { row: number; op: Operation }[] = [];
    for (const [index, row] of rows.entries()) {
      const email = Email.safeParse(row.email);
      if (!email.success) {
        results.push({ email: row.email, status: 'failed', code: 'VALIDATION_FAILED', message: 'Invalid e-mail address' });
        continue;
      }
      const account = await lookup(ctx, email.data);
      if (!account) {
        results.push({ email: row.email, status: 'failed', code: 'USER_NOT_FOUND', message: NO_ACCOUNT_MESSAGE });
        continue;
      }
      // Already in the vault: said as such, and nothing is sent (the server would answer
      // ALREADY_MEMBER, which reads 'already invited').
      if (account.userId === ctx.user.id) {
        results.push({ email: row.email, status: 'failed', code: 'SELF', message: 'You are already a member of this vault.' });
        continue;
      }
      if (members.some((m) => m.userId === account.userId && m.status === 'ACCEPTED')) {
        results.push({ email: row.email, status: 'failed', code: 'ACCEPTED_MEMBER', message: 'This person is already a member of this vault.' });
        continue;
      }
      const sealed = isPrivate ? await sealRingFor(ctx, vaultId, account.publicEncryptionKey) : null;
      const membershipId = reusableMembershipId(members, account) ?? ctx.newId();
      const op = await signMemberOp(ctx, vaultId, {
        objectId: membershipId,
        // By key only: the e-mail would stay in the vault's log for every member to read (R55).
        body: { type: 'member.invite', role: row.role, memberKey: account.publicSigningKey, ...(sealed ?? {}) },
      });
      results.push(null);
      ops.push({ row: index, op });
    }
    if (ops.length) {
      let answer;
      try {
        answer = await ctx.api.post(
          `/vaults/${encodeURIComponent(vaultId)}/invitations`,
          { ops: ops.map((o) => o.op), ...(message?.trim() ? { message: message.trim() } : {}) },
          InviteResponse,
        );
      } catch (error) {
        if (error instanceof ApiError && error.code === 'MEMBER_LIMIT') throw new MemberLimitError();
        throw error;
      }
      const byId = new Map(answer.results.map((r) => [r.id, r]));
      for (const { row, op } of ops) {
        const result = byId.get(op.id);
        const email = rows[row]!.email;
        if (result?.status === 'accepted') results[row] = { email, status: 'invited', membershipId: op.objectId };
        else if (result?.status === 'rejected') results[row] = { email, status: 'failed', code: result.error.code, message: result.error.message };
        else results[row] = { email, status: 'failed', code: 'INTERNAL', message: 'The server did not answer this invitation.' };
      }
      await syncVaultNow(ctx, vaultId).catch((error: unknown) => ctx.log(`Vault ${vaultId} not pulled after invitations`, error));
    }
    return results.map((r, i) => r ?? { email: rows[i]!.email, status: 'failed', code: 'INTERNAL', message: 'Not sent.' });
  });
}

/** Fetches the vault's members into Dexie (called by screens on open and by sync after member.* operations). */
export async function refreshMembers(vaultId: string): Promise<void> {
  const { ctx } = requireSync();
  await whileOnline(() => fetchMembers(ctx, vaultId));
}

/** The vault's cached members (undefined while loading), live. */
export function useMembers(vaultId: string): MemberRecord[] | undefined {
  return useVaultMembers(vaultId);
}

/** 'Save changes' on manage access: one member.changeRole per changed member. */
export async function saveRoleChanges(vaultId: string, changes: { membershipId: string; role: MemberRole }[]): Promise<void> {
  const { ctx } = requireSync();
  if (!changes.length) return;
  await whileOnline(() =>
    pushMemberOps(
      ctx,
      vaultId,
      changes.map(({ membershipId, role }) => ({ objectId: membershipId, body: { type: 'member.changeRole', role } })),
    ),
  );
}

/** Revokes a member or an invitation, rotating the vault key of a private vault. */
export async function revokeMember(vaultId: string, membershipId: string): Promise<void> {
  const { ctx } = requireSync();
  await whileOnline(async () => {
    const members = await fetchMembers(ctx, vaultId);
    const target = members.find((m) => m.membershipId === membershipId);
    if ((await isPrivateVault(ctx, vaultId)) && target?.holdsKeys) {
      await pushWithRotation(ctx, vaultId, membershipId, (rotation) => ({ type: 'member.revoke', rotation }), membershipId, true);
    } else {
      await pushMemberOps(ctx, vaultId, [{ objectId: membershipId, body: { type: 'member.revoke' } }]);
    }
  });
}

export async function resendInvite(vaultId: string, membershipId: string): Promise<void> {
  const { ctx } = requireSync();
  await whileOnline(() =>
    ctx.api.post(`/vaults/${encodeURIComponent(vaultId)}/members/${encodeURIComponent(membershipId)}/resend`, {}, Ok),
  );
}

/** The signed-in member leaves the vault (shown only when another owner exists). */
export async function leaveVault(vaultId: string): Promise<void> {
  const { ctx } = requireSync();
  await whileOnline(async () => {
    const membershipId = await ownMembershipId(ctx, vaultId);
    await pushMemberOps(ctx, vaultId, [{ objectId: membershipId, body: { type: 'member.leave' } }]);
  });
}

/** The invite page's 'Accept terms' / automatic acceptance. */
export async function acceptInvite(vaultId: string, membershipId: string): Promise<void> {
  const { ctx } = requireSync();
  await acceptInviteIn(ctx, vaultId, membershipId);
}

/** acceptInvite with a given session (the sync cycle's automatic acceptance of organisation airdrops, R131). */
export async function acceptInviteIn(ctx: SyncContext, vaultId: string, membershipId: string): Promise<void> {
  await whileOnline(() => pushMemberOps(ctx, vaultId, [{ objectId: membershipId, body: { type: 'member.accept' } }]));
}

export async function rejectInvite(vaultId: string, membershipId: string): Promise<void> {
  const { ctx } = requireSync();
  await whileOnline(() => pushMemberOps(ctx, vaultId, [{ objectId: membershipId, body: { type: 'member.reject' } }]));
}

/** The confirm page's 'Confirm access' (INVITED -> PENDING, ring sealed to the member). */
export async function confirmMember(vaultId: string, membershipId: string): Promise<void> {
  const { ctx } = requireSync();
  await whileOnline(async () => {
    const { member } = await getMembership(ctx, membershipId);
    let sealed: { keys: string; keyCount: number } | null = null;
    if (await isPrivateVault(ctx, vaultId)) {
      await refreshRing(ctx, vaultId);
      sealed = await sealRingFor(ctx, vaultId, member.publicEncryptionKey);
    }
    await pushMemberOps(ctx, vaultId, [{ objectId: membershipId, body: { type: 'member.confirm', ...(sealed ?? {}) } }]);
  });
}

function getMembership(ctx: SyncContext, membershipId: string): Promise<MembershipResponse> {
  return ctx.api.get(`/memberships/${encodeURIComponent(membershipId)}`, MembershipResponse);
}

/** A membership by id (the invite and confirm pages), from the server. */
export async function fetchMembership(membershipId: string): Promise<MembershipResponse> {
  const { ctx } = requireSync();
  return whileOnline(() => getMembership(ctx, membershipId));
}
