import { Navigate, Outlet, useParams, useRouterState } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { isListedMembership } from '../../domain/vaultListRules';
import { canAddAssets, canEditAssets, canUploadFiles } from '../../domain/vaultPermissions';
import type { VaultRecord } from '../../storage/vaultRecords';
import { getDb } from '../../storage/db';
import { getStoreAccount, getVault, useVault } from '../../storage/vaultStore';
import { useAbsentOnServer } from '../../sync/useAbsentOnServer';
import { LinkPending } from './LinkPending';
import { useMarkVaultRead } from '../notifications/useMarkVaultRead';
import { VaultAccessEnded } from './VaultAccessEnded';
import { VaultHistoryNotice } from './VaultHistoryNotice';
import { type VaultRoom, VaultRoomContext } from './VaultRoomContext';
import { tabOfPath, VaultRoomTabs } from './VaultRoomTabs';

/**
 * The vault record as the room shows it: the same object until a field other than the sync's own
 * bookkeeping changes. The cursor, the server's head and the projection stamp move with every
 * operation applied (a pick of 300 files moved them about 700 times), and each new record
 * re-rendered the whole room; no screen of the room shows them (the timeline reads its own).
 */
function useShownVault(vault: VaultRecord | undefined): VaultRecord | undefined {
  // The judged log moves with every operation too; the room shows only its problem.
  const shown = vault && JSON.stringify({ ...vault, cursor: 0, headSeq: 0, projectionStamp: '', log: vault.log?.problem ?? null });
  // Keyed by what is shown: the record of the last change that showed.
  return useMemo(() => vault, [shown]);
}

/**
 * No vault to show yet: fetching while the server has not answered (a link opened on a new device
 * lands here before the first sync), /404 once it says this user has no such vault (R70).
 */
function VaultPending({ vaultId }: { vaultId: string }) {
  const isAbsent = useAbsentOnServer(`vault:${vaultId}`, true, async () => {
    const accountId = getStoreAccount();
    return accountId !== null && (await getVault(getDb(), accountId, vaultId)) !== undefined;
  });
  if (isAbsent) return <Navigate to="/404" replace />;
  return <LinkPending target="vault" />;
}

/** /vaults/$status/$vaultId/*: loads the vault; a vault that cannot be found goes to /404 (spec 000 section 8). */
export function VaultRoomLayout() {
  const { vaultId = '', status = 'active' } = useParams({ strict: false });
  const { isReadOnly } = useServerConfig();
  const vault = useShownVault(useVault(vaultId));
  // A membership that ended shows no content (R56), and marks nothing read on its behalf.
  const hasAccessEnded = vault !== undefined && !isListedMembership(vault.membershipStatus);
  useMarkVaultRead(vault && !hasAccessEnded ? vaultId : '');
  const tab = tabOfPath(useRouterState({ select: (s) => s.location.pathname }));

  const room = useMemo<VaultRoom | null>(() => {
    if (!vault) return null;
    const access = { role: vault.role, status: vault.status, isReadOnly, storageAllowance: vault.membershipStorageAllowance };
    const canAdd = canAddAssets(access) && !vault.isPending;
    return { vault, status, canAdd, canUpload: canAdd && canUploadFiles(access), canEdit: canEditAssets(access) };
  }, [vault, status, isReadOnly]);

  if (!room) return <VaultPending vaultId={vaultId} />;
  // Before the tabs and the page: none of them may render the vault's names (R56).
  if (hasAccessEnded) return <VaultAccessEnded membershipStatus={room.vault.membershipStatus} />;
  if (room.vault.status === 'DELETED') return <Navigate to="/vaults/$status" params={{ status: 'active' }} replace />;

  return (
    <VaultRoomContext.Provider value={room}>
      {tab && <VaultRoomTabs vault={room.vault} status={status} current={tab} />}
      {room.vault.log?.problem && <VaultHistoryNotice problem={room.vault.log.problem} />}
      <Outlet />
    </VaultRoomContext.Provider>
  );
}
