import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { canLeaveVault, changedRoles, isSaveEnabled, sortMembersForList, visibleMembers } from '../../domain/memberRules';
import type { MemberRole, Role } from '../../protocol/vaults';
import { useSyncStatus } from '../../sync';
import { refreshMembers, resendInvite, saveRoleChanges, useMembers } from '../../sync/memberActions';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconUser } from '../../ui/icons';
import { showErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { useUser } from '../account/useSession';
import { useVaultRoom } from '../files/VaultRoomContext';
import { confirmLeaveVault, confirmRevokeMember, memberErrorText, runMemberAction } from './memberCommands';
import { MemberPageHeader } from './MemberPageHeader';
import { memberDisplayName, MemberRow } from './MemberRow';

/**
 * /vaults/{status}/{vaultId}/manage-access (spec 001 sections 2, 4-6): OWNERs change roles,
 * resend and revoke; everyone else sees 'View members' with read-only roles.
 */
export function ManageAccessPage() {
  const { vault } = useVaultRoom();
  const user = useUser();
  const navigate = useNavigate();
  const { isReadOnly } = useServerConfig();
  const isOffline = useSyncStatus() === 'offline';
  const cached = useMembers(vault.vaultId);
  const [chosen, setChosen] = useState<Record<string, MemberRole>>({});
  const [isSaving, setIsSaving] = useState(false);
  const [refreshFailed, setRefreshFailed] = useState(false);

  const isOwner = vault.role === 'OWNER';
  const canEdit = isOwner && !isReadOnly && !isOffline;

  useEffect(() => {
    let isCurrent = true;
    refreshMembers(vault.vaultId).then(
      () => isCurrent && setRefreshFailed(false),
      (error: unknown) => {
        console.warn('The member list could not be refreshed', error);
        if (isCurrent) setRefreshFailed(true);
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [vault.vaultId]);

  const members = useMemo(() => (cached ? sortMembersForList(visibleMembers(cached, vault.role)) : undefined), [cached, vault.role]);

  function chooseRole(membershipId: string, role: Role) {
    const member = members?.find((m) => m.membershipId === membershipId);
    if (!member) return;
    // Spec 001 section 4: REVOKED opens the revoke confirmation instead of being saved.
    if (role === 'REVOKED') {
      confirmRevokeMember(vault.vaultId, membershipId, memberDisplayName(member), member.status !== 'ACCEPTED');
      return;
    }
    setChosen((current) => ({ ...current, [membershipId]: role }));
  }

  async function save() {
    if (!members) return;
    setIsSaving(true);
    const changes = changedRoles(members, chosen);
    const isSaved = await runMemberAction(() => saveRoleChanges(vault.vaultId, changes), 'saving the changes');
    setIsSaving(false);
    if (isSaved) {
      setChosen({});
      showSnackbar(changes.length === 1 ? 'Access updated.' : `Access updated for ${changes.length} members.`);
    }
  }

  const title = isOwner ? 'Manage access' : 'View members';
  const vaultName = vault.name || 'Untitled vault';

  return (
    <>
      <MemberPageHeader title={title} />
      <Stack gap="md" maw={820}>
        <Text size="sm" c="dimmed">
          Each member has a safety number made from their keys on your device. To be sure nobody stands between you,
          compare it with the member by phone or in person: they see the same number for themselves in this list.
        </Text>
        {isOffline && (
          <Alert color="yellow" role="status">
            You are offline: this is the member list last seen on this device, and changes wait until you are back online.
          </Alert>
        )}
        {!isOffline && refreshFailed && (
          <Alert color="yellow" role="status">
            The member list could not be refreshed. It shows the members last seen on this device.
          </Alert>
        )}
        {members === undefined ? (
          <Center py="xl">
            <Loader aria-label="Loading members" />
          </Center>
        ) : members.length === 0 ? (
          <EmptyPanel icon={<IconUser size={28} />} title="No members yet" description="Members appear here once the list has loaded." />
        ) : (
          <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Members">
            {members.map((member) => (
              <MemberRow
                key={member.membershipId}
                member={member}
                isMe={member.userId === user.id}
                isEditable={canEdit && member.userId !== user.id}
                chosenRole={chosen[member.membershipId]}
                onChooseRole={(role) => chooseRole(member.membershipId, role)}
                onResend={() => resendInvite(vault.vaultId, member.membershipId)}
                onResendError={(error) => {
                  console.warn('Resending the invitation failed', error);
                  showErrorSnackbar(memberErrorText(error, 'sending the invitation'));
                }}
                onRevoke={() => confirmRevokeMember(vault.vaultId, member.membershipId, memberDisplayName(member), member.status !== 'ACCEPTED')}
              />
            ))}
          </Stack>
        )}
        <Group justify="space-between" gap="sm">
          {members && canLeaveVault(members, user.id) && !isReadOnly ? (
            <Button variant="default" color="red" disabled={isOffline} onClick={() => confirmLeaveVault(vault.vaultId, vaultName, () => void navigate({ to: '/vaults/$status', params: { status: 'active' } }))}>
              Leave vault
            </Button>
          ) : (
            <span />
          )}
          {isOwner && (
            <Button onClick={() => void save()} loading={isSaving} disabled={!canEdit || !members || !isSaveEnabled(members, chosen)}>
              Save changes
            </Button>
          )}
        </Group>
      </Stack>
    </>
  );
}
