/**
 * Who may do what in a vault (spec 000 section 6), checked on the server for every read and write.
 *
 * A caller without a membership gets 404 NOT_FOUND, the same answer as for a vault that does not
 * exist, so ids cannot be probed for existence. A member whose access was removed (role or status
 * REVOKED) gets 403 FORBIDDEN, as does a member whose role does not allow the action. An airdrop
 * membership past its expiry gets 410 EXPIRED on every read and write (docs/decisions.md).
 */
import { ApiError } from '../../src/protocol/errors';
import type { Role } from '../../src/protocol/vaults';
import { type Db, findMembership, findVault, isRemoved, type Membership, type Vault } from './vaultRows';

/**
 * read: pull (an invitee reads the terms there before accepting). content: download file bytes,
 * once the terms are accepted. self: act on one's own membership (accept, reject, leave), which an
 * invitee does before the membership is accepted, whatever its role. write: upload and change
 * folders and files. own: the vault itself and its members.
 */
export type AccessLevel = 'read' | 'content' | 'self' | 'write' | 'own';

const ROLES_FOR: Record<AccessLevel, readonly Role[]> = {
  read: ['OWNER', 'CONTRIBUTOR', 'VIEWER'],
  content: ['OWNER', 'CONTRIBUTOR', 'VIEWER'],
  self: ['OWNER', 'CONTRIBUTOR', 'VIEWER'],
  write: ['OWNER', 'CONTRIBUTOR'],
  own: ['OWNER'],
};

export function vaultNotFound(): ApiError {
  return new ApiError('NOT_FOUND', 'Vault not found');
}

export const ACCESS_EXPIRED_MESSAGE = 'Your access to this vault has expired.';

/** Whether an airdrop membership has ended at `now` (ms): it lasts to its last millisecond. */
export function hasExpired(membership: Pick<Membership, 'expiresAt'>, now: number): boolean {
  return membership.expiresAt !== null && membership.expiresAt < now;
}

/** Throws unless `membership` grants `level` at `now` (ms, the server's clock). */
export function assertRole(membership: Membership | null, level: AccessLevel, now: number): asserts membership is Membership {
  if (!membership) throw vaultNotFound();
  if (membership.status === 'REJECTED') throw new ApiError('FORBIDDEN', 'You rejected the invitation to this vault');
  if (isRemoved(membership)) throw new ApiError('FORBIDDEN', 'Your access to this vault was removed');
  if (hasExpired(membership, now)) throw new ApiError('EXPIRED', ACCESS_EXPIRED_MESSAGE);
  // Pulling and acting on one's own membership are open to any membership not removed (an
  // invitee reads the terms before accepting); file bytes and changes need an accepted membership
  // with the right role.
  const accepted = level === 'read' || level === 'self' || membership.status === 'ACCEPTED';
  if (!accepted || !ROLES_FOR[level].includes(membership.role)) {
    throw new ApiError('FORBIDDEN', 'Your role in this vault does not allow this');
  }
}

/** The vault and the caller's membership, or the access error. */
export async function requireAccess(
  db: Db,
  vaultId: string,
  userId: string,
  level: AccessLevel,
  now: number,
): Promise<{ vault: Vault; membership: Membership }> {
  const vault = await findVault(db, vaultId);
  const membership = vault ? await findMembership(db, vaultId, userId) : null;
  if (!vault) throw vaultNotFound();
  assertRole(membership, level, now);
  return { vault, membership };
}

/** Uploads and additions need an ACTIVE vault. */
export function assertVaultOpen(vault: Vault): void {
  if (vault.status === 'ARCHIVED') throw new ApiError('VAULT_ARCHIVED', 'The vault is archived');
  if (vault.status === 'DELETED') throw new ApiError('INVALID_OPERATION', 'The vault is deleted');
}
