import { Button, Checkbox, Group, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { Navigate, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { canAcceptTerms, invitePageView, ROLE_LABELS, roleCardText } from '../../domain/memberRules';
import type { MembershipResponse } from '../../protocol/members';
import { acceptInvite, rejectInvite } from '../../sync/memberActions';
import { showErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { InvitationLayout, InvitationLoader } from './InvitationLayout';
import { MembershipGate } from './MembershipGate';
import { useVaultTerms } from './useVaultTerms';

const TITLE = 'Terms of access';

/** /invite?membershipId= (spec 001 sections 2, 4 and 8): the invitee accepts or rejects the terms. */
export function InvitePage() {
  return <MembershipGate title={TITLE}>{(membership) => <InviteByStatus membership={membership} />}</MembershipGate>;
}

function InviteByStatus({ membership }: { membership: MembershipResponse }) {
  const { vaultId, member } = membership;
  const navigate = useNavigate();
  const terms = useVaultTerms(vaultId);
  const view = invitePageView(member.membershipId, member.status, terms);
  const [isChecked, setIsChecked] = useState(false);
  const [busy, setBusy] = useState<'accept' | 'reject' | null>(null);

  async function accept() {
    setBusy('accept');
    try {
      await acceptInvite(vaultId, member.membershipId);
      showSnackbar('Access accepted. The vault is now in your list.');
      void navigate({ to: '/vaults/$status/$vaultId/assets', params: { status: 'active', vaultId } });
    } catch (error) {
      console.warn('Accepting the invitation failed', error);
      showErrorSnackbar('Something went wrong!');
      void navigate({ to: '/vaults/$status', params: { status: 'active' } });
    }
  }

  async function reject() {
    setBusy('reject');
    try {
      await rejectInvite(vaultId, member.membershipId);
      void navigate({ to: '/reject-invite' });
    } catch (error) {
      // Spec 001 section 8: a reject failure only goes back to the vaults.
      console.warn('Rejecting the invitation failed', error);
      void navigate({ to: '/vaults/$status', params: { status: 'active' } });
    }
  }

  switch (view.kind) {
    case 'home':
      return <Navigate to="/" replace />;
    case 'vault':
      return <Navigate to="/vaults/$status/$vaultId/assets" params={{ status: 'active', vaultId }} replace />;
    case 'revoked':
      return <Navigate to="/reject-invite" state={{ from: 'REVOKED' }} replace />;
    case 'rejected':
      return <Navigate to="/reject-invite" state={{ from: 'REJECTED' }} replace />;
    case 'loading':
      return (
        <InvitationLayout title={TITLE}>
          <InvitationLoader label="Loading the terms of access" />
          {terms.isSlow && <Text c="dimmed">This is taking longer than usual. Check your connection: the terms show here as soon as they arrive.</Text>}
        </InvitationLayout>
      );
    case 'awaitingConfirmation':
      return (
        <InvitationLayout title={TITLE}>
          <Text>The vault owner has to confirm your access before you can accept the invitation. You will find it in your vaults once they have.</Text>
          <Group justify="flex-end">
            <Button onClick={() => void navigate({ to: '/' })}>View your vaults</Button>
          </Group>
        </InvitationLayout>
      );
    case 'noTerms':
      // Spec 001 section 2: who invited and as what, then the invitee decides (R72).
      return (
        <InvitationLayout title={TITLE}>
          <RoleCard role={member.role} />
          <Text>{invitedByText(membership.invitedByEmail)}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => void reject()} loading={busy === 'reject'} disabled={busy !== null}>
              Reject terms
            </Button>
            <Button onClick={() => void accept()} loading={busy === 'accept'} disabled={busy !== null}>
              Accept invitation
            </Button>
          </Group>
        </InvitationLayout>
      );
    case 'terms':
      return (
        <InvitationLayout title={TITLE}>
          <RoleCard role={member.role} />
          <Text size="sm">{invitedByText(membership.invitedByEmail)}</Text>
          <Stack gap={6}>
            <Text fw={600} id="terms-heading">
              Terms
            </Text>
            <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars>
              <Paper withBorder radius="md" p="md" aria-labelledby="terms-heading" role="document" tabIndex={0}>
                {/* The terms are text from another person: rendered as text, never as HTML. */}
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="terms-text">
                  {view.text}
                </Text>
              </Paper>
            </ScrollArea.Autosize>
          </Stack>
          <Checkbox
            label="By checking this box you are agreeing to digitally sign and accept the terms."
            checked={isChecked}
            onChange={(event) => setIsChecked(event.currentTarget.checked)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => void reject()} loading={busy === 'reject'} disabled={busy !== null}>
              Reject terms
            </Button>
            <Button onClick={() => void accept()} loading={busy === 'accept'} disabled={busy !== null || !canAcceptTerms(view.text, isChecked)}>
              Accept terms
            </Button>
          </Group>
        </InvitationLayout>
      );
  }
}

/** Spec 001 section 2's line; an inviter whose account is gone leaves only the invitation. */
function invitedByText(email: string | null | undefined): string {
  return email ? `You have been invited by ${email} to their vault.` : 'You have been invited to a vault.';
}

/** The role the invitation gives, named, with the spec's card text for it. */
function RoleCard({ role }: { role: MembershipResponse['member']['role'] }) {
  return (
    <Paper withBorder radius="md" p="md" bg="var(--mantine-color-default-hover)" aria-label="Your role" component="section">
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        Your role
      </Text>
      <Text fw={700}>{ROLE_LABELS[role]}</Text>
      <Text size="sm">{roleCardText(role)}</Text>
    </Paper>
  );
}
