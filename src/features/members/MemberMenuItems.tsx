import { Menu } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { canLeaveVault, memberMenuEntries, vaultListStatus } from '../../domain/memberRules';
import type { VaultRecord } from '../../storage/vaultRecords';
import { refreshMembers, useMembers } from '../../sync/memberActions';
import { useUser } from '../account/useSession';
import { confirmLeaveVault } from './memberCommands';

/**
 * The vault menu's member entries (spec 001 section 6): 'Invite to vault' and 'Manage access'
 * for OWNERs, 'View members' for others, 'Leave vault' when another accepted OWNER remains.
 * Rendered only while the menu is open, so the member list is read (and refreshed) on demand.
 */
export function MemberMenuItems({ vault }: { vault: VaultRecord }) {
  const navigate = useNavigate();
  const user = useUser();
  const { isReadOnly } = useServerConfig();
  const members = useMembers(vault.vaultId);
  useEffect(() => {
    refreshMembers(vault.vaultId).catch((error: unknown) => console.warn('The member list could not be refreshed', error));
  }, [vault.vaultId]);

  if (vault.isPending || vault.membershipStatus !== 'ACCEPTED') return null;
  const entries = memberMenuEntries({ role: vault.role, vaultStatus: vault.status, isReadOnly });
  const params = { status: vaultListStatus(vault.status), vaultId: vault.vaultId };
  const isLeaveShown = !isReadOnly && members !== undefined && canLeaveVault(members, user.id);
  const name = vault.name || 'Untitled vault';
  return (
    <>
      <Menu.Divider />
      {entries.invite.isShown && (
        <Menu.Item disabled={entries.invite.isDisabled} onClick={() => void navigate({ to: '/vaults/$status/$vaultId/invite-to-vault', params })}>
          Invite to vault
        </Menu.Item>
      )}
      <Menu.Item disabled={entries.members.isDisabled} onClick={() => void navigate({ to: '/vaults/$status/$vaultId/manage-access', params })}>
        {entries.members.label}
      </Menu.Item>
      {isLeaveShown && (
        <Menu.Item color="red" onClick={() => confirmLeaveVault(vault.vaultId, name, () => void navigate({ to: '/vaults/$status', params: { status: 'active' } }))}>
          Leave vault
        </Menu.Item>
      )}
    </>
  );
}
