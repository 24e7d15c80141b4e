import { Alert, Anchor, Button, Group, Paper, Stack, Switch, Text, Textarea } from '@mantine/core';
import { Link, Navigate, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import {
  canSendInvites,
  DEFAULT_INVITE_ROLE,
  filledInviteRows,
  type InviteFormRow,
  inviteRowFailureText,
  isAlreadyInVault,
  memberMenuEntries,
  withTrailingEmptyRow,
} from '../../domain/memberRules';
import { INVITE_LIMITS } from '../../protocol/members';
import { useSyncStatus } from '../../sync';
import { inviteMembers, MemberLimitError, OfflineError } from '../../sync/memberActions';
import { showErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { SendErrorReportLink } from '../errors/SendErrorReportLink';
import { actionErrorText } from '../vaults/vaultErrors';
import { useVaultRoom } from '../files/VaultRoomContext';
import { AirdropInvite } from './airdrop/AirdropInvite';
import { InviteRows, VAULT_ROLE_OPTIONS } from './InviteRows';
import { isRateLimited, memberErrorText } from './memberCommands';
import { MemberLimitModal } from './MemberLimitModal';
import { MemberPageHeader } from './MemberPageHeader';
import { ApiError } from '../../protocol/errors';
import { PRICING_PLANS_PATH } from '../billing/UpgradeTierModal';

const FAILURE_TEXT = actionErrorText('sending the invitation');

let rowCounter = 0;
const makeRowKey = () => `row-${++rowCounter}`;
const emptyRows = (): InviteFormRow[] => [{ key: makeRowKey(), email: '', role: DEFAULT_INVITE_ROLE }];

/** /vaults/{status}/{vaultId}/invite-to-vault (spec 001 sections 2 and 5): OWNERs only. */
export function InviteToVaultPage() {
  const { vault, status } = useVaultRoom();
  const { isReadOnly } = useServerConfig();
  const isOffline = useSyncStatus() === 'offline';
  const navigate = useNavigate();
  const [rows, setRows] = useState<InviteFormRow[]>(emptyRows);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [isAirdrop, setIsAirdrop] = useState(false);
  const [isSending, setIsSending] = useState(false);
  const [isLimitOpen, setIsLimitOpen] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  /** R122: the plan does not include inviting members; the server's text names the plan. */
  const [notInPlan, setNotInPlan] = useState<string | null>(null);
  const params = { status, vaultId: vault.vaultId };

  const entries = memberMenuEntries({ role: vault.role, vaultStatus: vault.status, isReadOnly });
  if (!entries.invite.isShown || entries.invite.isDisabled || vault.isPending) {
    return <Navigate to="/vaults/$status/$vaultId/assets" params={params} replace />;
  }

  function changeRow(key: string, change: Partial<Pick<InviteFormRow, 'email' | 'role'>>) {
    setRows((current) => withTrailingEmptyRow(current.map((row) => (row.key === key ? { ...row, ...change } : row)), makeRowKey, INVITE_LIMITS.ROWS_MAX));
    if (change.email !== undefined) setErrors(({ [key]: _, ...rest }) => rest);
  }

  function removeRow(key: string) {
    setRows((current) => withTrailingEmptyRow(current.filter((row) => row.key !== key), makeRowKey, INVITE_LIMITS.ROWS_MAX));
    setErrors(({ [key]: _, ...rest }) => rest);
  }

  async function send() {
    const toSend = filledInviteRows(rows);
    setIsSending(true);
    setFailure(null);
    try {
      const results = await inviteMembers(
        vault.vaultId,
        toSend.map((row) => ({ email: row.email.trim(), role: row.role })),
        message.trim() || undefined,
      );
      const keyByEmail = new Map(toSend.map((row) => [row.email.trim().toLowerCase(), row.key]));
      const failed = new Map<string, string>();
      let isAnyUnexplained = false;
      for (const result of results) {
        const key = keyByEmail.get(result.email.trim().toLowerCase());
        if (result.status === 'failed' && key) failed.set(key, inviteRowFailureText(result.code));
        if (result.status === 'failed' && !isAlreadyInVault(result.code)) isAnyUnexplained = true;
      }
      const sentCount = results.length - failed.size;
      if (sentCount > 0) showSnackbar(sentCount === 1 ? 'Invitation sent.' : `${sentCount} invitations sent.`);
      if (failed.size === 0) {
        void navigate({ to: '/vaults/$status/$vaultId/assets', params });
        return;
      }
      if (isAnyUnexplained) showErrorSnackbar(FAILURE_TEXT);
      setErrors(Object.fromEntries(failed));
      setRows((current) => withTrailingEmptyRow(current.filter((row) => failed.has(row.key) || row.email.trim() === ''), makeRowKey, INVITE_LIMITS.ROWS_MAX));
    } catch (error) {
      if (error instanceof MemberLimitError) {
        setIsLimitOpen(true);
      } else if (error instanceof ApiError && error.code === 'FEATURE_NOT_IN_PLAN') {
        setNotInPlan(error.message);
      } else {
        console.warn(FAILURE_TEXT, error);
        showErrorSnackbar(memberErrorText(error, 'sending the invitation'));
        // Offline and the hourly e-mail limit are said by the snackbar; they are nothing to report.
        if (!(error instanceof OfflineError) && !isRateLimited(error)) setFailure(error);
      }
    } finally {
      setIsSending(false);
    }
  }

  const isSendDisabled = isOffline || !canSendInvites(rows);

  return (
    <>
      <MemberPageHeader title="Invite to vault" />
      <Paper withBorder radius="md" p={{ base: 'md', xs: 'lg' }} maw={720}>
        <Stack gap="md">
          <Switch
            label="Invite with an airdrop link"
            description="For someone without a Cairn account: they open the vault from a link, no sign-up needed."
            checked={isAirdrop}
            onChange={(event) => setIsAirdrop(event.currentTarget.checked)}
          />
          {isAirdrop ? (
            <AirdropInvite vaultId={vault.vaultId} isPublic={vault.isPublic} />
          ) : (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                if (!isSendDisabled && !isSending) void send();
              }}
            >
              <Stack gap="md">
                <Text size="sm" c="dimmed">
                  Invite people who already have a Cairn account. Each invitee accepts the vault's terms of access before
                  they can open it.
                </Text>
                <InviteRows rows={rows} roleOptions={VAULT_ROLE_OPTIONS} errors={errors} isDisabled={isSending} onChange={changeRow} onRemove={removeRow} />
                <Textarea
                  label="Message (optional)"
                  description="Sent unencrypted in the invitation e-mail: do not include anything private."
                  autosize
                  minRows={2}
                  maxLength={INVITE_LIMITS.MESSAGE_MAX}
                  value={message}
                  disabled={isSending}
                  onChange={(event) => setMessage(event.currentTarget.value)}
                />
                {notInPlan !== null && (
                  <Alert color="yellow" role="alert">
                    {notInPlan}{' '}
                    <Anchor renderRoot={(props) => <Link to={PRICING_PLANS_PATH} {...props} />}>Upgrade</Anchor>
                  </Alert>
                )}
                {failure !== null && (
                  <Alert color="red" role="alert">
                    {FAILURE_TEXT} <SendErrorReportLink report={{ action: 'member.invite', error: failure }} />
                  </Alert>
                )}
                {isOffline && (
                  <Text size="sm" c="dimmed" role="status">
                    You are offline. Invitations can be sent once you are back online.
                  </Text>
                )}
                <Group justify="flex-end">
                  <Button type="submit" disabled={isSendDisabled} loading={isSending}>
                    Send
                  </Button>
                </Group>
              </Stack>
            </form>
          )}
        </Stack>
      </Paper>
      <MemberLimitModal opened={isLimitOpen} onClose={() => setIsLimitOpen(false)} />
    </>
  );
}
