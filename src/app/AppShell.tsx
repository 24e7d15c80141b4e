import { useEffect } from 'react';
import { ActionIcon, AppShell as MantineAppShell, Box, Group } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { canCreateVault } from '../domain/navigationRules';
import { useSession } from '../features/account/useSession';
import { UploadProgressBox } from '../features/files/upload/UploadProgressBox';
import { useStartSync, useSyncStatus } from '../sync';
import { BrandLogo } from '../features/branding/BrandLogo';
import { OrganisationHostGuard } from '../features/branding/OrganisationHostGuard';
import { InAppShellContext } from '../ui/InAppShellContext';
import { IconSearch } from '../ui/icons';
import { NoticeBar } from '../ui/NoticeBar';
import { useUnreadNotifications } from '../storage/notificationStore';
import { notificationActions } from '../sync/notificationSync';
import { useUploadFailedSnackbar } from '../features/storage/useUploadFailedSnackbar';
import { AvatarMenu } from './AvatarMenu';
import { BottomNav } from './BottomNav';
import { useServerConfig } from './serverConfigStore';
import { SideNav } from './SideNav';
import { SyncIndicator } from './SyncIndicator';
import { clearDecryptedBlobs } from '../features/files/viewer/decryptedBlobs';
import { SearchBox } from '../features/search/SearchBox';
import { useStartSearch } from '../search';
import { isSearchActive } from '../search/searchActive';
import { SHELL_LAYOUT } from '../ui/shellLayout';
import { hasRewardBadge } from '../domain/tokenRules';
import { useTokenBalance } from '../sync/tokenSync';

/** The serious-issue banner, verbatim (spec 000 section 2, spec 001 section 8). */
export const SERIOUS_ISSUE_TEXT =
  "We're having some issues. You may find some features in the app are not working. Don't worry, we're on it!";

/**
 * The signed-in chrome (spec 000 section 2): a 250 px side navigation from 668 px up; below it a
 * top bar (logo, search, avatar) and a bottom bar (Vaults, Storage, Rewards, Notifications).
 */
export function AppShell() {
  const navigate = useNavigate();
  const { isReadOnly, hasSeriousIssue } = useServerConfig();
  const { isOffline, user } = useSession();
  // Vault sync runs for as long as the signed-in shell is shown.
  useStartSync(user);
  // The on-device search index follows the same session (src/search).
  useStartSearch(user?.id ?? null);
  // A storage transaction turning REJECTED shows its snackbar wherever the user is (spec 000 section 8).
  useUploadFailedSnackbar();
  const syncStatus = useSyncStatus();
  const unread = useUnreadNotifications();
  const token = useTokenBalance();
  // The Rewards dot: a balance over 100 millionths (spec 002 section 9; docs/decisions.md).
  const unreadSections = { notifications: unread.any, rewards: hasRewardBadge(token.balance) };
  // Decrypted previews live in memory only; none outlives the session that opened them.
  useEffect(() => clearDecryptedBlobs, [user?.id]);

  // 'v' opens vault creation; Mantine ignores it while typing in inputs, textareas and selects,
  // and it stays off while search is active (spec 000 routing rules).
  useHotkeys([
    [
      'v',
      () => {
        if (canCreateVault(isReadOnly) && !isSearchActive()) void navigate({ to: '/create-vault/setup' });
      },
    ],
  ]);

  // Between the end of a session and the guard's redirect to /login there is no user to show.
  if (!user) return null;

  return (
    <MantineAppShell {...SHELL_LAYOUT}>
      <MantineAppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Box hiddenFrom="xs">
            <Link to="/vaults/$status" params={{ status: 'active' }} aria-label="Cairn: your vaults" style={{ textDecoration: 'none' }}>
              <BrandLogo size={30} withWordmark />
            </Link>
          </Box>
          <Box visibleFrom="xs" flex={1} maw={560}>
            <SearchBox compact />
          </Box>
          <Group gap="sm" wrap="nowrap">
            <SyncIndicator />
            <ActionIcon component={Link} to="/search" variant="subtle" color="gray" size="lg" aria-label="Search" hiddenFrom="xs">
              <IconSearch size={20} />
            </ActionIcon>
            <AvatarMenu />
          </Group>
        </Group>
      </MantineAppShell.Header>

      <MantineAppShell.Navbar visibleFrom="xs">
        <SideNav unread={unreadSections} />
      </MantineAppShell.Navbar>

      <MantineAppShell.Main>
        {(hasSeriousIssue || unread.priority) && (
          <NoticeBar
            onClose={unread.priority ? () => unread.priority && void notificationActions().act({ kind: 'read', id: unread.priority.id }) : undefined}
          >
            {SERIOUS_ISSUE_TEXT}
          </NoticeBar>
        )}
        {(isOffline || syncStatus === 'offline') && (
          <NoticeBar color="gray">
            You're offline. Cairn is showing what is saved on this device, and sends your changes when you're back online.
          </NoticeBar>
        )}
        <Box px={{ base: 'md', xs: 'xl' }} py={{ base: 'md', xs: 'xl' }}>
          <InAppShellContext.Provider value={true}>
            <Outlet />
          </InAppShellContext.Provider>
        </Box>
      </MantineAppShell.Main>

      <UploadProgressBox />
      <OrganisationHostGuard />

      <MantineAppShell.Footer hiddenFrom="xs">
        <BottomNav unread={unreadSections} />
      </MantineAppShell.Footer>
    </MantineAppShell>
  );
}
