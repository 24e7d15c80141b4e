import { Center, Loader } from '@mantine/core';
import { Navigate, Outlet, useParams, useRouterState } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { canAddAssets, canEditAssets, canUploadFiles } from '../../domain/vaultPermissions';
import { useVault, useVaults } from '../../storage/vaultStore';
import { useMarkVaultRead } from '../notifications/useMarkVaultRead';
import { type VaultRoom, VaultRoomContext } from './VaultRoomContext';
import { tabOfPath, VaultRoomTabs } from './VaultRoomTabs';

/** /vaults/$status/$vaultId/*: loads the vault; a vault that cannot be found goes to /404 (spec 000 section 8). */
export function VaultRoomLayout() {
  const { vaultId = '', status = 'active' } = useParams({ strict: false });
  const { isReadOnly } = useServerConfig();
  const vault = useVault(vaultId);
  const active = useVaults('active');
  const inactive = useVaults('inactive');
  useMarkVaultRead(vault ? vaultId : '');
  const tab = tabOfPath(useRouterState({ select: (s) => s.location.pathname }));

  const room = useMemo<VaultRoom | null>(() => {
    if (!vault) return null;
    const access = { role: vault.role, status: vault.status, isReadOnly, storageAllowance: vault.membershipStorageAllowance };
    const canAdd = canAddAssets(access) && !vault.isPending;
    return { vault, status, canAdd, canUpload: canAdd && canUploadFiles(access), canEdit: canEditAssets(access) };
  }, [vault, status, isReadOnly]);

  if (!room) {
    const isListed = [...(active ?? []), ...(inactive ?? [])].some((v) => v.vaultId === vaultId);
    if (active !== undefined && inactive !== undefined && !isListed) return <Navigate to="/404" replace />;
    return (
      <Center py="xl">
        <Loader aria-label="Loading vault" />
      </Center>
    );
  }
  if (room.vault.status === 'DELETED') return <Navigate to="/vaults/$status" params={{ status: 'active' }} replace />;

  return (
    <VaultRoomContext.Provider value={room}>
      {tab && <VaultRoomTabs vault={room.vault} status={status} current={tab} />}
      <Outlet />
    </VaultRoomContext.Provider>
  );
}
