/**
 * Vault actions by role (spec 000 section 6): OWNER-only vault actions; VIEWER and read-only mode
 * cannot add, rename, move, hide, restore or delete; nobody adds to an archived vault.
 */
import type { Role, VaultStatus } from '../protocol/vaults';

export interface VaultAccess {
  role: Role;
  status: VaultStatus;
  isReadOnly: boolean;
}

function canWrite({ role, isReadOnly }: VaultAccess): boolean {
  return !isReadOnly && (role === 'OWNER' || role === 'CONTRIBUTOR');
}

/** Upload, create folder, add versions. */
export function canAddAssets(access: VaultAccess): boolean {
  return canWrite(access) && access.status === 'ACTIVE';
}

/** Rename, move, hide, restore, delete files and folders (archived vaults block most edits). */
export function canEditAssets(access: VaultAccess): boolean {
  return canWrite(access) && access.status === 'ACTIVE';
}

/** Rename, deactivate, restore, remove the vault. */
export function canManageVault(access: VaultAccess): boolean {
  return !access.isReadOnly && access.role === 'OWNER';
}

/** Remove only an archived vault. */
export function canRemoveVault(access: VaultAccess): boolean {
  return canManageVault(access) && access.status === 'ARCHIVED';
}
