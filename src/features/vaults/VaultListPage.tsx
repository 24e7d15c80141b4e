import { Button, Tabs } from '@mantine/core';
import { Link, Navigate, useNavigate, useParams } from '@tanstack/react-router';
import { useServerConfig } from '../../app/serverConfigStore';
import { canCreateVault } from '../../domain/navigationRules';
import { shouldRedirectToVaultSetup } from '../../domain/vaultListRules';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconArchive, IconPlus } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';

/**
 * /vaults/active and /vaults/inactive. Vaults arrive in the next release, so every account has
 * none yet and the active list follows the routing rule to /create-vault/setup.
 */
export function VaultListPage() {
  const { status } = useParams({ strict: false });
  const navigate = useNavigate();
  const { isReadOnly } = useServerConfig();
  // Until the vault store exists there is nothing on this device or the server to count.
  const counts = { activeVaults: 0, archivedVaults: 0, pendingMemberships: 0, vaultsBeingCreated: 0 };

  if (status === 'active' && shouldRedirectToVaultSetup(counts)) {
    return <Navigate to="/create-vault/setup" replace />;
  }

  return (
    <>
      <PageHeader
        title="Vaults"
        actions={
          <Button
            component={Link}
            to="/create-vault/setup"
            leftSection={<IconPlus size={18} />}
            disabled={!canCreateVault(isReadOnly)}
            visibleFrom="xs"
          >
            New vault
          </Button>
        }
      />
      <Tabs
        value={status ?? 'active'}
        onChange={(value) => value && void navigate({ to: '/vaults/$status', params: { status: value } })}
        mb="lg"
      >
        <Tabs.List>
          <Tabs.Tab value="active">Active</Tabs.Tab>
          <Tabs.Tab value="inactive">Inactive</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <EmptyPanel
        icon={<IconArchive size={28} />}
        title="No inactive vaults"
        description="Vaults you deactivate are kept here. You can restore them to active, or remove them for good."
      />
    </>
  );
}
