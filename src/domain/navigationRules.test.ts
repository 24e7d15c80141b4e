import { describe, expect, it } from 'vitest';
import { canCreateVault, isHiddenForPasswordless, visibleAvatarMenuEntries, visibleNavSections } from './navigationRules';

describe('navigation rules (spec 000 section 2, spec 001 section 6)', () => {
  it('shows every section to password users', () => {
    expect(visibleNavSections(false)).toEqual(['vaults', 'storage', 'rewards', 'notifications']);
  });

  it('hides Storage and Rewards from passwordless users', () => {
    expect(visibleNavSections(true)).toEqual(['vaults', 'notifications']);
  });

  it('trims the avatar menu to Discord and Log out for passwordless users', () => {
    expect(visibleAvatarMenuEntries(false)).toEqual(['profile', 'account', 'plans', 'developers', 'support', 'community', 'logout']);
    expect(visibleAvatarMenuEntries(true)).toEqual(['community', 'logout']);
  });

  it('disables vault creation in read-only mode', () => {
    expect(canCreateVault(false)).toBe(true);
    expect(canCreateVault(true)).toBe(false);
  });

  it('sends passwordless users away from the pages their menus hide', () => {
    for (const path of ['/profile', '/account', '/account/security', '/storage', '/rewards']) expect(isHiddenForPasswordless(path)).toBe(true);
    for (const path of ['/vaults/active', '/notifications', '/accounts-x', '/search']) expect(isHiddenForPasswordless(path)).toBe(false);
  });
});
