import { NavLink, Text } from '@mantine/core';
import { Link, useLocation } from '@tanstack/react-router';
import { useVaults } from '../../storage/vaultStore';

/** The side navigation's list of active vaults (spec 000 section 2, navigation chrome). */
export function SideNavVaultLinks() {
  const vaults = useVaults('active');
  const { pathname } = useLocation();
  const openable = (vaults ?? []).filter((v) => v.membershipStatus === 'ACCEPTED');
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
        return (
          <NavLink
            key={vault.vaultId}
            label={vault.isPending ? `${vault.name} (Creating...)` : vault.name || 'Untitled vault'}
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
