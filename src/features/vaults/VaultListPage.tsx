import { Button, Center, Group, Loader, Pagination, Tabs } from '@mantine/core';
import { Link, Navigate, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { canCreateVault } from '../../domain/navigationRules';
import { shouldRedirectToVaultSetup } from '../../domain/vaultListRules';
import { VAULT_LIMITS } from '../../protocol/vaults';
import type { VaultRecord } from '../../storage/vaultRecords';
import { useShownVaults } from '../branding/useShownVaults';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconArchive, IconDownload, IconPlus, IconVaults } from '../../ui/icons';
import { NameModal } from '../../ui/NameModal';
import { PageHeader } from '../../ui/PageHeader';
import { usePage } from '../../ui/usePage';
import { submitVaultRename } from './vaultCommands';
import { VaultInfoDrawer } from './VaultInfoDrawer';
import { VaultListTable } from './VaultListTable';
import { useHasSynced, useSyncStatus } from '../../sync';

function NewVaultButton({ isDisabled }: { isDisabled: boolean }) {
  return (
    <Button component={Link} to="/create-vault/setup" leftSection={<IconPlus size={18} />} disabled={isDisabled} aria-keyshortcuts="v">
      New vault
    </Button>
  );
}

/** Issue 19: a permanent vault rebuilt on this server from its history on the network (R96). */
function RestoreVaultButton({ isDisabled }: { isDisabled: boolean }) {
  return (
    <Button component={Link} to="/restore-vault" variant="default" leftSection={<IconDownload size={18} />} disabled={isDisabled}>
      Restore from network
    </Button>
  );
}

/** /vaults/active and /vaults/inactive (spec 000 section 2). */
export function VaultListPage() {
  const { status = 'active' } = useParams({ strict: false });
  const { refresh } = useSearch({ strict: false });
  const navigate = useNavigate();
  const { isReadOnly } = useServerConfig();
  const hasSynced = useHasSynced();
  const syncStatus = useSyncStatus();
  const active = useShownVaults('active');
  const inactive = useShownVaults('inactive');
  const [renaming, setRenaming] = useState<VaultRecord | null>(null);
  const [infoVaultId, setInfoVaultId] = useState<string | null>(null);

  const list = (status === 'inactive' ? inactive : active) ?? [];
  const { page, setPage, pageCount, pageItems } = usePage(list, VAULT_LIMITS.VAULT_PAGE_SIZE, status);

  // The list is live (IndexedDB), so 'reloading' it is re-reading; the parameter is then dropped.
  useEffect(() => {
    if (refresh !== undefined) void navigate({ to: '/vaults/$status', params: { status }, search: {}, replace: true });
  }, [refresh, status, navigate]);

  const shown = status === 'inactive' ? inactive : active;
  // A new device has nothing cached: wait for the first sync rather than flash an empty state
  // (offline, or when sync fails, the cached list is all there is).
  const isWaitingForFirstSync = !hasSynced && syncStatus !== 'offline' && syncStatus !== 'error' && shown?.length === 0;
  const isLoading = shown === undefined || isWaitingForFirstSync;
  // An empty list only means "no vaults" once sync has asked the server (a new device starts empty).
  if (status === 'active' && hasSynced && active !== undefined && inactive !== undefined) {
    const counts = {
      activeVaults: active.filter((v) => v.membershipStatus === 'ACCEPTED' && !v.isPending).length,
      archivedVaults: inactive.length,
      pendingMemberships: active.filter((v) => v.membershipStatus === 'PENDING' || v.membershipStatus === 'INVITED').length,
      vaultsBeingCreated: active.filter((v) => v.isPending).length,
    };
    if (shouldRedirectToVaultSetup(counts)) return <Navigate to="/create-vault/setup" replace />;
  }

  const infoVault = [...(active ?? []), ...(inactive ?? [])].find((v) => v.vaultId === infoVaultId) ?? null;
  const isCreateDisabled = !canCreateVault(isReadOnly);

  return (
    <>
      <PageHeader
        title="Vaults"
        actions={
          <Group gap="sm">
            <RestoreVaultButton isDisabled={isCreateDisabled} />
            <NewVaultButton isDisabled={isCreateDisabled} />
          </Group>
        }
      />
      <Tabs value={status} onChange={(value) => value && void navigate({ to: '/vaults/$status', params: { status: value } })} mb="lg">
        <Tabs.List>
          <Tabs.Tab value="active">Active</Tabs.Tab>
          <Tabs.Tab value="inactive">Inactive</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {isLoading ? (
        <Center py="xl">
          <Loader aria-label="Loading vaults" />
        </Center>
      ) : list.length === 0 ? (
        status === 'inactive' ? (
          <EmptyPanel
            icon={<IconArchive size={28} />}
            title="No inactive vaults"
            description="Vaults you deactivate are kept here. You can restore them to active, or remove them for good."
          />
        ) : (
          <EmptyPanel
            icon={<IconVaults size={28} />}
            title="No active vaults"
            description="Create a vault to start storing files, or restore one from your inactive vaults."
            actions={<NewVaultButton isDisabled={isCreateDisabled} />}
          />
        )
      ) : (
        <>
          <VaultListTable vaults={pageItems} status={status} onRename={setRenaming} onShowInfo={(v) => setInfoVaultId(v.vaultId)} />
          {pageCount > 1 && (
            <Group justify="center" mt="md">
              <Pagination total={pageCount} value={page} onChange={setPage} aria-label="Vault pages" />
            </Group>
          )}
        </>
      )}
      <NameModal
        opened={renaming !== null}
        title="Rename vault"
        label="Vault name"
        initialValue={renaming?.name ?? ''}
        submitLabel="Rename"
        maxLength={VAULT_LIMITS.TITLE_MAX}
        onClose={() => setRenaming(null)}
        onSubmit={(name) => (renaming ? submitVaultRename(renaming, name) : Promise.resolve(false))}
      />
      <VaultInfoDrawer vault={infoVault} onClose={() => setInfoVaultId(null)} />
    </>
  );
}
