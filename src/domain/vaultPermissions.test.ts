import { describe, expect, it } from 'vitest';
import { canAddAssets, canEditAssets, canManageVault, canRemoveVault } from './vaultPermissions';

describe('vault roles (spec 000 section 6)', () => {
  it('VIEWER and read-only mode cannot add or edit', () => {
    expect(canAddAssets({ role: 'VIEWER', status: 'ACTIVE', isReadOnly: false })).toBe(false);
    expect(canEditAssets({ role: 'OWNER', status: 'ACTIVE', isReadOnly: true })).toBe(false);
    expect(canAddAssets({ role: 'CONTRIBUTOR', status: 'ACTIVE', isReadOnly: false })).toBe(true);
  });
  it('nobody adds to an archived vault', () => {
    expect(canAddAssets({ role: 'OWNER', status: 'ARCHIVED', isReadOnly: false })).toBe(false);
  });
  it('only the OWNER manages the vault; remove only when archived', () => {
    expect(canManageVault({ role: 'CONTRIBUTOR', status: 'ACTIVE', isReadOnly: false })).toBe(false);
    expect(canRemoveVault({ role: 'OWNER', status: 'ACTIVE', isReadOnly: false })).toBe(false);
    expect(canRemoveVault({ role: 'OWNER', status: 'ARCHIVED', isReadOnly: false })).toBe(true);
  });
});
