import { Alert, Badge, Button, Flex, Group, List, NativeSelect, Paper, Progress, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import type { OrganisationMember, OrganisationMembersResponse } from '../../protocol/organisations';
import { useUser } from '../account/useSession';
import { confirmAction } from '../../ui/confirmAction';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconUser } from '../../ui/icons';
import { showSnackbar } from '../../ui/snackbar';
import { fetchOrganisationMembers, organisationErrorText, removeOrganisationMember } from './organisationApi';
import { revokedChoices } from './organisationRules';
import { revokeFromMyVaults, type VaultFailure } from './organisationVaults';
import { useMyOrganisationValue } from './useMyOrganisation';

const ROLE_OPTIONS = [
  { value: 'OWNER', label: 'Owner' },
  { value: 'MEMBER', label: 'Member' },
  { value: 'REVOKED', label: 'Revoked' },
];

interface RevokeReport {
  email: string;
  done: number;
  total: number;
  failures: VaultFailure[];
  state: 'running' | 'done' | 'failed';
  message?: string;
}

function nameOf(person: OrganisationMember): string {
  return person.profileName ? `${person.profileName} (${person.email})` : person.email;
}

/** /account/organisation/members (spec 001 sections 3, 4 and 6). */
export function OrganisationMembersPage() {
  const value = useMyOrganisationValue();
  const organisation = value?.organisation ?? null;
  const [list, setList] = useState<OrganisationMembersResponse | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [reports, setReports] = useState<RevokeReport[]>([]);
  const orgId = organisation?.id;
  const myEmail = useUser().email;

  const load = useCallback(async () => {
    if (!orgId) return;
    try {
      setList(await fetchOrganisationMembers(orgId));
      setLoadError(null);
    } catch (error) {
      setLoadError(organisationErrorText(error));
    }
  }, [orgId]);

  useEffect(() => void load(), [load]);

  if (!organisation) {
    return <EmptyPanel icon={<IconUser size={28} />} title="No organisation yet" description="Add your organisation's details first, then invite people to it." />;
  }
  if (loadError) return <Alert color="red" role="alert">{loadError}</Alert>;
  if (!list) return <Text c="dimmed">Loading members…</Text>;

  const others = [...list.admins, ...list.members].filter((p) => p.email.toLowerCase() !== myEmail.toLowerCase());
  if (others.length === 0) {
    return <EmptyPanel icon={<IconUser size={28} />} title="Nobody else yet" description="People you invite to the organisation are listed here." />;
  }

  const toRevoke = revokedChoices(chosen);
  const track = (email: string, update: Partial<RevokeReport>) =>
    setReports((current) => current.map((r) => (r.email === email ? { ...r, ...update } : r)));

  async function revoke(person: OrganisationMember) {
    setReports((current) => [...current.filter((r) => r.email !== person.email), { email: person.email, done: 0, total: 0, failures: [], state: 'running' }]);
    try {
      const result = await revokeFromMyVaults(person, (done, total) => track(person.email, { done, total }));
      if (result.failures.length) {
        // Still in some vault: the person stays in the organisation so the admin can try again.
        track(person.email, { failures: result.failures, state: 'failed', message: 'Not removed from the organisation: some vaults still have them.' });
        return;
      }
      await removeOrganisationMember(organisation!.id, person.email);
      track(person.email, { state: 'done' });
      showSnackbar(`${person.email} was removed from the organisation.`);
      setChosen(({ [person.email]: _, ...rest }) => rest);
      await load();
    } catch (error) {
      track(person.email, { state: 'failed', message: organisationErrorText(error) });
    }
  }

  /** Spec 001 section 4: one revoke confirmation per member set to REVOKED, one after the other. */
  function confirmNext(emails: string[]) {
    const [email, ...rest] = emails;
    const person = [...list!.admins, ...list!.members].find((p) => p.email === email);
    if (!person) return;
    confirmAction({
      title: 'Revoke organisation member',
      message: (
        <Stack gap="xs">
          <Text size="sm">
            Revoke{' '}
            <Text span fw={600} inherit style={{ overflowWrap: 'anywhere' }}>
              {nameOf(person)}
            </Text>
            ? They are removed from every vault you share with them, except vaults they created, and then from the organisation.
          </Text>
          <Text size="sm">What they already opened or downloaded stays readable to them.</Text>
        </Stack>
      ),
      confirmLabel: 'Revoke',
      isDanger: true,
      onConfirm: () => {
        void revoke(person).finally(() => confirmNext(rest));
      },
    });
  }

  const row = (person: OrganisationMember, isAdmin: boolean) => (
    <Flex
      key={person.userId}
      direction={{ base: 'column', xs: 'row' }}
      justify="space-between"
      align={{ base: 'stretch', xs: 'center' }}
      gap="xs"
      py="xs"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {person.profileName ?? person.email}
        </Text>
        {person.profileName && (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {person.email}
          </Text>
        )}
      </Stack>
      <Group gap="xs" wrap="nowrap" justify="space-between" style={{ flexShrink: 0 }}>
        {isAdmin ? (
          <Badge variant="light" style={{ flexShrink: 0 }}>
            Admin
          </Badge>
        ) : (
          <span />
        )}
        {person.isOwner ? (
          <Text size="sm" c="dimmed">
            Creator
          </Text>
        ) : (
          <NativeSelect
            aria-label={`Role of ${person.email}`}
            data={ROLE_OPTIONS}
            w={120}
            value={chosen[person.email] ?? person.role}
            onChange={(event) => {
              const next = event.currentTarget.value;
              setChosen((current) => ({ ...current, [person.email]: next }));
            }}
          />
        )}
      </Group>
    </Flex>
  );

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" px="md" py="xs" component="section" aria-label="Admins">
        <Text fw={600} size="sm" py="xs">
          Admins
        </Text>
        {list.admins.map((p) => row(p, true))}
      </Paper>
      <Paper withBorder radius="md" px="md" py="xs" component="section" aria-label="Members">
        <Text fw={600} size="sm" py="xs">
          Members
        </Text>
        {list.members.length ? list.members.map((p) => row(p, false)) : <Text size="sm" c="dimmed" py="xs">No members yet.</Text>}
      </Paper>
      <Text size="xs" c="dimmed">
        Only revoking is saved here: set a person to Revoked and press Save changes.
      </Text>
      <Group justify="flex-end">
        <Button disabled={toRevoke.length === 0} onClick={() => confirmNext(toRevoke)}>
          Save changes
        </Button>
      </Group>
      {reports.map((report) => (
        <RevokeProgress key={report.email} report={report} />
      ))}
    </Stack>
  );
}

function RevokeProgress({ report }: { report: RevokeReport }) {
  if (report.state === 'running') {
    return (
      <Stack gap={4} role="status" aria-label={`Removing ${report.email} from your vaults`}>
        <Text size="sm">
          Removing {report.email} from your vaults: {report.done} of {report.total}
        </Text>
        <Progress value={report.total ? (100 * report.done) / report.total : 0} aria-hidden />
      </Stack>
    );
  }
  if (report.state === 'done') {
    return (
      <Alert color="green" role="status">
        {report.email} was removed from {report.total === 1 ? '1 vault' : `${report.total} vaults`} and from the organisation.
      </Alert>
    );
  }
  return (
    <Alert color="red" role="alert" title={`${report.email}: ${report.message ?? 'not revoked'}`}>
      {report.failures.length > 0 && (
        <List size="sm">
          {report.failures.map((failure) => (
            <List.Item key={failure.vaultId}>
              {failure.vaultName}: {failure.message}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
