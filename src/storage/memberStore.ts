/**
 * Vaults' members as the device last fetched them (GET /vaults/{id}/members, src/sync/members.ts).
 * The member list is the server's answer, not a projection of operations: the server alone knows
 * who holds keys and which public keys each account has, so the cache is replaced whole on each
 * fetch. Screens read it through `useVaultMembers` (DESIGN.md section 4: the UI reads Dexie only).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Member } from '../protocol/members';
import { getDb, type CairnDb } from './db';
import { useStoreAccount } from './vaultStore';

/** A vault's member as cached in Dexie. */
export type MemberRecord = Member & { accountId: string; vaultId: string };

/** Owners first, then contributors, viewers and revoked members; by e-mail within a role. */
const ROLE_ORDER = { OWNER: 0, CONTRIBUTOR: 1, VIEWER: 2, REVOKED: 3 } as const;

export function sortMembers(members: MemberRecord[]): MemberRecord[] {
  return [...members].sort(
    (a, b) =>
      ROLE_ORDER[a.role] - ROLE_ORDER[b.role] ||
      (a.email ?? a.profileName ?? '').localeCompare(b.email ?? b.profileName ?? '') ||
      a.membershipId.localeCompare(b.membershipId),
  );
}

export async function getMembers(db: CairnDb, accountId: string, vaultId: string): Promise<MemberRecord[]> {
  return sortMembers(await db.members.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray());
}

/** Replaces the vault's cached members with `members`, in one transaction (no half-old list). */
export async function replaceMembers(db: CairnDb, accountId: string, vaultId: string, members: Member[]): Promise<MemberRecord[]> {
  const records = members.map((member) => ({ ...member, accountId, vaultId }));
  await db.transaction('rw', [db.members], async () => {
    await db.members.where('[accountId+vaultId]').equals([accountId, vaultId]).delete();
    await db.members.bulkPut(records);
  });
  return records;
}

/** The vault's cached members (undefined while the first read is in flight), live. */
export function useVaultMembers(vaultId: string): MemberRecord[] | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(() => (accountId ? getMembers(getDb(), accountId, vaultId) : []), [accountId, vaultId]);
}
