import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, useNavigate, useRouter } from '@tanstack/react-router';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../protocol/errors';
import { REFERRAL_LIMITS, ReferralInviteResponse, ReferralSummary } from '../../protocol/referrals';
import { getApiClient, NetworkError } from '../../platform/apiClient';
import { CopyableCode } from '../../ui/CopyableCode';
import { PageHeader } from '../../ui/PageHeader';
import { showSnackbar } from '../../ui/snackbar';
import { isValidEmail } from '../../domain/memberRules';
import { emailsToSend, growRows, referralLink } from './referralRules';

const REWARD_MB = REFERRAL_LIMITS.REWARD_BYTES / 1_000_000;

function failureText(error: unknown): string {
  if (error instanceof NetworkError) return 'You are offline. Invitations are sent when you are online: try again then.';
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong, please try again later.';
}

/**
 * /referral, 'Referral Reward' (spec 001 sections 2, 5 and 9; SYNC_SPEC R132-R134): 100 MB of
 * permanent storage for each person who signs up with the user's link, up to 10; the link to copy
 * and 'Invite now' to e-mail it.
 */
export function ReferralPage() {
  const navigate = useNavigate();
  const router = useRouter();
  const [summary, setSummary] = useState<ReferralSummary | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [rows, setRows] = useState<string[]>(['']);
  // Rows left at least once: their mistakes are shown (the one being typed is not judged yet).
  const [left, setLeft] = useState<ReadonlySet<number>>(new Set());
  const [isSending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      setSummary(await getApiClient().get('/referrals', ReferralSummary));
    } catch (error) {
      setLoadError(failureText(error));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const cap = summary?.left ?? 0;
  const emails = emailsToSend(rows);

  function change(index: number, value: string) {
    setSendError(null);
    setRows((current) => growRows(current.map((row, i) => (i === index ? value : row)), cap));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!emails || isSending) return;
    setSending(true);
    setSendError(null);
    try {
      const { sent } = await getApiClient().post('/referrals', { emails }, ReferralInviteResponse);
      showSnackbar(sent === 1 ? 'Referral invite sent.' : `${sent} referral invites sent.`);
      // Spec: on success it goes back.
      if (router.history.length > 1) router.history.back();
      else void navigate({ to: '/rewards' });
    } catch (error) {
      setSendError(failureText(error));
      setSending(false);
    }
  }

  return (
    <Stack gap="lg" maw={720}>
      <PageHeader title="Referral Reward" description="Invite people to Cairn and earn free permanent storage for each who signs up." />
      {loadError && (
        <Alert color="red" title="The referral programme could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{loadError}</Text>
            <Button size="xs" variant="default" onClick={() => void load()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      )}
      {!summary && !loadError && <Loader aria-label="Loading the referral programme" />}
      {summary && (
        <>
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
            <Stack gap="xs">
              <Title order={2} fz="xl">
                {REWARD_MB} MB per referral
              </Title>
              <Text>
                For each person who signs up with your link and verifies their e-mail, you get {REWARD_MB} MB of permanent storage, up to{' '}
                {REFERRAL_LIMITS.MAX_REWARDS} times.
              </Text>
              <Text fw={600} data-testid="referral-rewards-left">
                {summary.left === 0
                  ? `You have had all ${REFERRAL_LIMITS.MAX_REWARDS} rewards.`
                  : `${summary.left} of ${REFERRAL_LIMITS.MAX_REWARDS} rewards left`}
              </Text>
            </Stack>
          </Paper>

          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
            <Stack gap="sm">
              <Title order={2} fz="lg" id="referral-link-title">
                Your referral link
              </Title>
              <CopyableCode value={referralLink(window.location.origin, summary.referralId)} copyLabel="Copy referral link" codeProps={{ 'aria-labelledby': 'referral-link-title' }} />
            </Stack>
          </Paper>

          {summary.left > 0 && (
            <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="form" onSubmit={(event: FormEvent) => void submit(event)} aria-label="Invite by e-mail">
              <Stack gap="sm">
                <Title order={2} fz="lg">
                  Invite by e-mail
                </Title>
                <Text size="sm" c="dimmed">
                  We e-mail your link to each address. A new row appears when you have typed an address.
                </Text>
                {rows.map((row, index) => (
                  <TextInput
                    key={index}
                    label={`E-mail ${index + 1}`}
                    type="email"
                    inputMode="email"
                    autoComplete="off"
                    placeholder="name@example.com"
                    value={row}
                    onChange={(event) => change(index, event.currentTarget.value)}
                    onBlur={() => setLeft((current) => new Set(current).add(index))}
                    error={row.trim().length > 0 && !isValidEmail(row) && left.has(index) ? 'Enter a valid e-mail address' : undefined}
                  />
                ))}
                {sendError && (
                  <Alert color="red" role="alert">
                    {sendError}
                  </Alert>
                )}
                <Group justify="flex-end">
                  <Button type="submit" disabled={!emails} loading={isSending}>
                    Invite now
                  </Button>
                </Group>
              </Stack>
            </Paper>
          )}
          <Anchor component={Link} to="/storage" size="sm">
            See your storage
          </Anchor>
        </>
      )}
    </Stack>
  );
}
