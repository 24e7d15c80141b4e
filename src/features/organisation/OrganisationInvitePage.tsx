import { Alert, Button, Group, List, Paper, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { filledInviteRows, isValidEmail, withTrailingRow } from '../../domain/memberRules';
import { ORGANISATION_TEXTS } from '../../protocol/organisations';
import { showSnackbar } from '../../ui/snackbar';
import { inviteOrganisationMember, organisationErrorText } from './organisationApi';
import { InviteRows } from '../members/InviteRows';
import { airdropIntoMyVaults, type VaultFailure } from './organisationVaults';
import { useMyOrganisationValue } from './useMyOrganisation';

interface OrgInviteRow {
  key: string;
  email: string;
  /** Owner: an admin of the organisation (isAdmin), airdropped into the inviter's vaults (R128). */
  role: 'OWNER' | 'MEMBER';
}

const ROLE_OPTIONS: readonly { value: OrgInviteRow['role']; label: string }[] = [
  { value: 'MEMBER', label: 'Member' },
  { value: 'OWNER', label: 'Owner' },
];

const ROWS_MAX = 20;
let rowCounter = 0;
const newRow = (): OrgInviteRow => ({ key: `org-row-${++rowCounter}`, email: '', role: 'MEMBER' });

/** Spec 001 section 5: a new empty row appears once the last one holds a valid e-mail. */
const withBlankRow = (rows: OrgInviteRow[]) => withTrailingRow(rows, newRow, ROWS_MAX);

interface AirdropReport {
  email: string;
  done: number;
  total: number;
  failures: VaultFailure[];
  isRunning: boolean;
}

/** /account/organisation/invite (spec 001 sections 2, 5 and 6). */
/** E-mail addresses are one long word: on a phone they wrap rather than run off the card. */
const LONG_ADDRESSES_WRAP = { overflowWrap: 'anywhere' } as const;

export function OrganisationInvitePage() {
  const value = useMyOrganisationValue();
  const organisation = value?.organisation ?? null;
  const [rows, setRows] = useState<OrgInviteRow[]>(() => [newRow()]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  const [airdrops, setAirdrops] = useState<AirdropReport[]>([]);

  const filled = filledInviteRows(rows);
  const canSend = filled.length > 0 && filled.every((row) => isValidEmail(row.email)) && !isSending;
  const isNameMissing = !organisation || !organisation.name.trim();

  function change(key: string, next: Partial<OrgInviteRow>) {
    setRows((current) => withBlankRow(current.map((row) => (row.key === key ? { ...row, ...next } : row))));
    setErrors(({ [key]: _, ...rest }) => rest);
    setFormError(null);
  }

  function remove(key: string) {
    setRows((current) => {
      const left = current.filter((row) => row.key !== key);
      return withBlankRow(left.length ? left : [newRow()]);
    });
  }

  function track(email: string, update: Partial<AirdropReport>) {
    setAirdrops((current) => current.map((report) => (report.email === email ? { ...report, ...update } : report)));
  }

  async function send() {
    if (isNameMissing || !organisation) {
      setFormError(ORGANISATION_TEXTS.nameMissing);
      return;
    }
    setIsSending(true);
    setFormError(null);
    const failed: Record<string, string> = {};
    const owners: { email: string; userId: string; address: string }[] = [];
    let sent = 0;
    for (const row of filled) {
      const email = row.email.trim().toLowerCase();
      try {
        const member = await inviteOrganisationMember(organisation.id, email, row.role === 'OWNER');
        sent += 1;
        if (row.role === 'OWNER') owners.push({ email: member.email, userId: member.userId, address: member.address });
      } catch (error) {
        const text = organisationErrorText(error);
        if (text === ORGANISATION_TEXTS.nameMissing) setFormError(text);
        failed[row.key] = text;
      }
    }
    if (sent > 0) showSnackbar(sent === 1 ? 'Invitation sent.' : `${sent} invitations sent.`);
    setErrors(failed);
    setRows((current) => withBlankRow(current.filter((row) => failed[row.key] || row.email.trim() === '')));
    setIsSending(false);
    // R128: each new owner is airdropped into the vaults this device owns, one person after the other.
    for (const owner of owners) {
      setAirdrops((current) => [...current.filter((r) => r.email !== owner.email), { email: owner.email, done: 0, total: 0, failures: [], isRunning: true }]);
      try {
        const result = await airdropIntoMyVaults(owner, (done, total) => track(owner.email, { done, total }));
        track(owner.email, { failures: result.failures, isRunning: false });
      } catch (error) {
        track(owner.email, { failures: [{ vaultId: '', vaultName: 'All vaults', message: organisationErrorText(error) }], isRunning: false });
      }
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', xs: 'lg' }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (canSend) void send();
        }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Invite people who already have a Cairn account. An owner becomes an admin of the organisation and is added to all
            of your vaults as an owner; a member uses the organisation's storage for the vaults they create.
          </Text>
          {isNameMissing && (
            <Alert color="yellow" role="alert">
              {ORGANISATION_TEXTS.nameMissing}
            </Alert>
          )}
          <InviteRows
            rows={rows}
            roleOptions={ROLE_OPTIONS}
            errors={errors}
            isDisabled={isSending}
            onChange={(key, next) => change(key, next)}
            onRemove={remove}
          />
          {formError && !isNameMissing && (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" disabled={!canSend || isNameMissing} loading={isSending}>
              Send invitations
            </Button>
          </Group>
          {airdrops.map((report) => (
            <AirdropProgress key={report.email} report={report} />
          ))}
        </Stack>
      </form>
    </Paper>
  );
}

function AirdropProgress({ report }: { report: AirdropReport }) {
  if (report.isRunning) {
    return (
      <Stack gap={4} role="status" aria-label={`Adding ${report.email} to your vaults`}>
        <Text size="sm" style={LONG_ADDRESSES_WRAP}>
          Adding {report.email} to your vaults: {report.done} of {report.total}
        </Text>
        <Progress value={report.total ? (100 * report.done) / report.total : 0} aria-hidden />
      </Stack>
    );
  }
  const added = report.total - report.failures.length;
  if (!report.failures.length) {
    return (
      <Alert color="green" role="status" style={LONG_ADDRESSES_WRAP}>
        {report.total === 0
          ? `${report.email} is an owner of the organisation. You have no vaults to add them to yet.`
          : `${report.email} was added to ${added === 1 ? '1 of your vaults' : `${added} of your vaults`} as an owner.`}
      </Alert>
    );
  }
  return (
    <Alert color="red" role="alert" style={LONG_ADDRESSES_WRAP} title={`${report.email} was added to ${added} of ${report.total} vaults`}>
      <Text size="sm">These vaults could not be shared with them; invite them from each vault's Invite to vault page:</Text>
      <List size="sm">
        {report.failures.map((failure) => (
          <List.Item key={failure.vaultId || failure.vaultName}>
            {failure.vaultName}: {failure.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
