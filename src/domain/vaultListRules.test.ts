import { describe, expect, it } from 'vitest';
import { isListedMembership, shouldRedirectToVaultSetup } from './vaultListRules';

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

describe('vault list rows by membership state', () => {
  it('lists accepted vaults and open invitations, not revoked, left or rejected memberships', () => {
    expect(['ACCEPTED', 'PENDING', 'INVITED'].every((s) => isListedMembership(s as 'ACCEPTED'))).toBe(true);
    expect(isListedMembership('REVOKED')).toBe(false);
    expect(isListedMembership('REJECTED')).toBe(false);
  });
});
