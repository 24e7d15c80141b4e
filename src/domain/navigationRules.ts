/**
 * What the navigation chrome shows (spec 000 section 2, spec 001 section 6 "Passwordless users").
 */

export const NAV_SECTIONS = ['vaults', 'storage', 'rewards', 'notifications'] as const;
export type NavSection = (typeof NAV_SECTIONS)[number];

/** Storage and Rewards are hidden for passwordless users. */
export function visibleNavSections(isPasswordless: boolean): NavSection[] {
  return NAV_SECTIONS.filter((section) => !isPasswordless || (section !== 'storage' && section !== 'rewards'));
}

export const AVATAR_MENU_ENTRIES = ['profile', 'account', 'plans', 'developers', 'support', 'community', 'logout'] as const;
export type AvatarMenuEntry = (typeof AVATAR_MENU_ENTRIES)[number];

/** All but 'Join our Discord' and 'Log out' are hidden for passwordless users. */
export function visibleAvatarMenuEntries(isPasswordless: boolean): AvatarMenuEntry[] {
  return AVATAR_MENU_ENTRIES.filter((entry) => !isPasswordless || entry === 'community' || entry === 'logout');
}

/** Pages behind the entries hidden for passwordless users: typing their address opens the vault list. */
const PASSWORDLESS_HIDDEN_PATHS = /^\/(profile|account|storage|rewards)(\/|$)/;

export function isHiddenForPasswordless(pathname: string): boolean {
  return PASSWORDLESS_HIDDEN_PATHS.test(pathname);
}

/** What the avatar menu calls a passwordless user, whose account has no e-mail of its own. */
export const PASSWORDLESS_DISPLAY_NAME = 'Airdrop guest';

/** The New vault buttons and the `v` shortcut do nothing in read-only mode. */
export function canCreateVault(isReadOnly: boolean): boolean {
  return !isReadOnly;
}

/** A vault room's address: /vaults/active/{id}, or /vaults/inactive/{id} for an archived vault. */
export function vaultRoomPath(vault: { vaultId: string; status: string }): string {
  return `/vaults/${vault.status === 'ARCHIVED' ? 'inactive' : 'active'}/${vault.vaultId}`;
}

/** Where a folder (its list) or a file (its viewer) opens, under its vault room's address. */
export function nodePath(roomPath: string, node: { kind: 'folder' | 'file'; id: string }): string {
  return node.kind === 'folder' ? `${roomPath}/assets/folders/${node.id}` : `${roomPath}/stack/${node.id}`;
}
