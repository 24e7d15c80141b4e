import { describe, expect, it } from 'vitest';
import { canAddAssets, canEditAssets, canManageVault, canRemoveVault, canUploadFiles } from './vaultPermissions';

describe('vault roles (spec 000 section 6)', () => {
  it('VIEWER and read-only mode cannot add or edit', () => {
    expect(canAddAssets({ role: 'VIEWER', status: 'ACTIVE', isReadOnly: false })).toBe(false);
    expect(canEditAssets({ role: 'OWNER', status: 'ACTIVE', isReadOnly: true })).toBe(false);
    expect(canAddAssets({ role: 'CONTRIBUTOR', status: 'ACTIVE', isReadOnly: false })).toBe(true);
  });
  it('nobody adds to an archived vault', () => {
    expect(canAddAssets({ role: 'OWNER', status: 'ARCHIVED', isReadOnly: false })).toBe(false);
  });
  it('an airdrop member with no storage cannot upload but still makes folders, renames and moves (spec 001 section 5)', () => {
    const noStorage = { role: 'CONTRIBUTOR', status: 'ACTIVE', isReadOnly: false, storageAllowance: 0 } as const;
    expect(canUploadFiles(noStorage)).toBe(false);
    expect(canAddAssets(noStorage)).toBe(true);
    expect(canEditAssets(noStorage)).toBe(true);
    expect(canUploadFiles({ ...noStorage, storageAllowance: 1 })).toBe(true);
    expect(canUploadFiles({ ...noStorage, storageAllowance: null })).toBe(true);
    expect(canUploadFiles({ role: 'CONTRIBUTOR', status: 'ACTIVE', isReadOnly: false })).toBe(true);
    // The allowance never widens what the role or the vault allow.
    expect(canUploadFiles({ ...noStorage, role: 'VIEWER', storageAllowance: 1 })).toBe(false);
    expect(canUploadFiles({ ...noStorage, status: 'ARCHIVED', storageAllowance: null })).toBe(false);
  });
  it('only the OWNER manages the vault; remove only when archived', () => {
    expect(canManageVault({ role: 'CONTRIBUTOR', status: 'ACTIVE', isReadOnly: false })).toBe(false);
    expect(canRemoveVault({ role: 'OWNER', status: 'ACTIVE', isReadOnly: false })).toBe(false);
    expect(canRemoveVault({ role: 'OWNER', status: 'ARCHIVED', isReadOnly: false })).toBe(true);
  });
});
