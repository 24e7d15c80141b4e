import { Button, Group, Text } from '@mantine/core';
import { Navigate, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { confirmPageView, vaultListStatus } from '../../domain/memberRules';
import type { MembershipResponse } from '../../protocol/members';
import { confirmMember, revokeMember } from '../../sync/memberActions';
import { showSnackbar } from '../../ui/snackbar';
import { InvitationLayout } from './InvitationLayout';
import { MembershipGate } from './MembershipGate';
import { runMemberAction } from './memberCommands';
import { memberDisplayName } from './MemberRow';

const TITLE = 'Confirm access';

/** /confirm?membershipId= (spec 001 section 4, 'Confirm page by membership status'): for the inviter. */
export function ConfirmPage() {
  return <MembershipGate title={TITLE}>{(membership, reload) => <ConfirmByStatus membership={membership} onChanged={reload} />}</MembershipGate>;
}

function ConfirmByStatus({ membership, onChanged }: { membership: MembershipResponse; onChanged: () => void }) {
  const { vaultId, member } = membership;
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'confirm' | 'revoke' | null>(null);
  const view = confirmPageView(member.status);
  const vaultParams = { status: vaultListStatus(membership.vaultStatus), vaultId };
  const name = memberDisplayName(member);

  // PENDING: access was already confirmed; the note shows briefly, then the vault opens.
  useEffect(() => {
    if (view !== 'pending') return;
    const timer = setTimeout(() => void navigate({ to: '/vaults/$status/$vaultId/assets', params: vaultParams }), 2_000);
    return () => clearTimeout(timer);
  }, [view, navigate, vaultParams.status, vaultParams.vaultId]);

  async function confirm() {
    setBusy('confirm');
    // Spec 001 section 8: a confirm failure only stops the loading state (the snackbar says why).
    const isDone = await runMemberAction(() => confirmMember(vaultId, member.membershipId));
    setBusy(null);
    if (!isDone) return;
    showSnackbar('Access confirmed.');
    void navigate({ to: '/vaults/$status/$vaultId/assets', params: vaultParams });
  }

  async function revoke() {
    setBusy('revoke');
    const isDone = await runMemberAction(() => revokeMember(vaultId, member.membershipId), 'revoking an access');
    setBusy(null);
    if (!isDone) return;
    showSnackbar('Invite revoked.');
    onChanged();
  }

  if (view === 'vault') return <Navigate to="/vaults/$status/$vaultId/assets" params={vaultParams} replace />;
  const notes = {
    pending: 'Access is pending: you have already confirmed it, and the invitee still has to accept the terms. Opening the vault…',
    revoked: `The invite of ${name} was revoked. They cannot open this vault.`,
    accepted: `${name} has accepted the invitation and is a member of this vault.`,
  } as const;
  return (
    <InvitationLayout title={TITLE}>
      {view === 'confirm' ? (
        <>
          <Text>
            <Text span fw={600} inherit style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Text>{' '}
            has created an account. You can now confirm their access to the vault.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="outline" color="red" onClick={() => void revoke()} loading={busy === 'revoke'} disabled={busy !== null}>
              Revoke
            </Button>
            <Button onClick={() => void confirm()} loading={busy === 'confirm'} disabled={busy !== null}>
              Confirm access
            </Button>
          </Group>
        </>
      ) : (
        <>
          <Text role="status">{notes[view]}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void navigate({ to: '/vaults/$status/$vaultId/assets', params: vaultParams })}>
              Open the vault
            </Button>
          </Group>
        </>
      )}
    </InvitationLayout>
  );
}
