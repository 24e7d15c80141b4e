import { describe, expect, it } from 'vitest';
import { shouldRedirectToVaultSetup } from './vaultListRules';

const none = { activeVaults: 0, archivedVaults: 0, pendingMemberships: 0, vaultsBeingCreated: 0 };

describe('vault list routing rule', () => {
  it('sends a user with nothing at all to /create-vault/setup', () => {
    expect(shouldRedirectToVaultSetup(none)).toBe(true);
  });

  it('keeps the list when anything is there', () => {
    expect(shouldRedirectToVaultSetup({ ...none, activeVaults: 1 })).toBe(false);
    expect(shouldRedirectToVaultSetup({ ...none, archivedVaults: 1 })).toBe(false);
    expect(shouldRedirectToVaultSetup({ ...none, pendingMemberships: 1 })).toBe(false);
    expect(shouldRedirectToVaultSetup({ ...none, vaultsBeingCreated: 1 })).toBe(false);
  });
});
