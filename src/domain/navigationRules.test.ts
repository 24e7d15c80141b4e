import { describe, expect, it } from 'vitest';
import { canCreateVault, isHiddenForPasswordless, nodePath, vaultRoomPath, visibleAvatarMenuEntries, visibleNavSections } from './navigationRules';

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

  it('opens an archived vault under /vaults/inactive and any other under /vaults/active', () => {
    expect(vaultRoomPath({ vaultId: 'v1', status: 'ACTIVE' })).toBe('/vaults/active/v1');
    expect(vaultRoomPath({ vaultId: 'v1', status: 'ARCHIVED' })).toBe('/vaults/inactive/v1');
  });

  it('opens a folder as its list and a file in the viewer', () => {
    expect(nodePath('/vaults/active/v1', { kind: 'folder', id: 'f1' })).toBe('/vaults/active/v1/assets/folders/f1');
    expect(nodePath('/vaults/inactive/v1', { kind: 'file', id: 's1' })).toBe('/vaults/inactive/v1/stack/s1');
  });
});
