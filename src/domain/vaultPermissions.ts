/**
 * Vault actions by role (spec 000 section 6): OWNER-only vault actions; VIEWER and read-only mode
 * cannot add, rename, move, hide, restore or delete; nobody adds to an archived vault; an airdrop
 * link made with no storage (spec 001 section 5) lets its member do what the role allows except
 * add file content.
 */
import type { Role, VaultStatus } from '../protocol/vaults';

export interface VaultAccess {
  role: Role;
  status: VaultStatus;
  isReadOnly: boolean;
  /**
   * The caller's membership upload allowance in bytes (VaultSummary.membership.storageAllowance):
   * 0 allows no uploads at all; null or absent, no cap of its own.
   */
  storageAllowance?: number | null;
}

function canWrite({ role, isReadOnly }: VaultAccess): boolean {
  return !isReadOnly && (role === 'OWNER' || role === 'CONTRIBUTOR');
}

/** Create folders (and, with canUploadFiles, files). */
export function canAddAssets(access: VaultAccess): boolean {
  return canWrite(access) && access.status === 'ACTIVE';
}

/**
 * Upload files, folders of files, a zip to unpack, new versions. The server refuses every upload
 * announcement of a membership whose allowance is 0, so the screens do not offer one. A spent
 * non-zero allowance is the upload confirmation's to say (its available space).
 */
export function canUploadFiles(access: VaultAccess): boolean {
  return canAddAssets(access) && access.storageAllowance !== 0;
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
