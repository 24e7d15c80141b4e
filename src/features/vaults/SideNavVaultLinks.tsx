import { Box, NavLink, Text } from '@mantine/core';
import { Link, useLocation } from '@tanstack/react-router';
import { useUnreadNotifications } from '../../storage/notificationStore';
import { useShownVaults } from '../branding/useShownVaults';

/** The side navigation's list of active vaults, each with a dot while it has unread notifications (spec 000 section 2). */
export function SideNavVaultLinks() {
  const vaults = useShownVaults('active');
  const unread = useUnreadNotifications().vaultIds;
  const { pathname } = useLocation();
  // A vault the server refused to create (R101) is listed, with its reason, on the vault list only.
  const openable = (vaults ?? []).filter((v) => v.membershipStatus === 'ACCEPTED' && v.rejection?.type !== 'vault.create');
  if (vaults !== undefined && openable.length === 0) {
    return (
      <Text size="xs" c="dimmed" px="sm" py={6}>
        Your active vaults will be listed here.
      </Text>
    );
  }
  return (
    <>
      {openable.map((vault) => {
        const prefix = `/vaults/active/${vault.vaultId}`;
        const hasUnread = unread.has(vault.vaultId);
        const name = vault.isPending ? `${vault.name} (Creating...)` : vault.name || 'Untitled vault';
        return (
          <NavLink
            key={vault.vaultId}
            label={name}
            aria-label={hasUnread ? `${name}, unread notifications` : undefined}
            rightSection={hasUnread ? <Box w={8} h={8} mr={4} style={{ borderRadius: '50%', background: 'var(--mantine-color-red-filled)' }} aria-hidden /> : undefined}
            active={pathname.startsWith(prefix)}
            disabled={vault.isPending}
            renderRoot={(props) => <Link to="/vaults/$status/$vaultId/assets" params={{ status: 'active', vaultId: vault.vaultId }} {...props} />}
            styles={{ label: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }}
          />
        );
      })}
    </>
  );
}
