/**
 * Vault list routing rules (spec 000 section 2, spec 002 "Vault creation").
 */

export interface VaultListCounts {
  activeVaults: number;
  archivedVaults: number;
  pendingMemberships: number;
  vaultsBeingCreated: number;
}

/**
 * A user with no vaults, no archived vaults, no pending memberships and no vaults being created
 * is sent from the vault list to /create-vault/setup.
 */
export function shouldRedirectToVaultSetup(counts: VaultListCounts): boolean {
  return (
    counts.activeVaults === 0 &&
    counts.archivedVaults === 0 &&
    counts.pendingMemberships === 0 &&
    counts.vaultsBeingCreated === 0
  );
}

/**
 * Whether a vault shows in the vault lists for the signed-in user's membership state: a revoked
 * membership (removed, or the user left) and a rejected invitation no longer do, whatever the
 * device still holds of the vault. Invitations (PENDING, INVITED) show, to be accepted.
 */
export function isListedMembership(status: 'ACCEPTED' | 'PENDING' | 'INVITED' | 'REJECTED' | 'REVOKED'): boolean {
  return status !== 'REVOKED' && status !== 'REJECTED';
}
