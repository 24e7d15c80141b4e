import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { formatDateTime } from '../../domain/formatting';
import { ApiError } from '../../protocol/errors';
import { EndOtherSessionsResponse, type SessionInfo, SessionListResponse } from '../../protocol/sessions';
import { getApiClient } from '../../platform/apiClient';
import { showSnackbar } from '../../ui/snackbar';
import { z } from 'zod';

const Acknowledged = z.unknown();

type ListState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; sessions: SessionInfo[] };

function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'The list of devices could not be loaded. Check your connection and try again.';
}

/**
 * Account > Security: the account's signed-in sessions (SYNC_SPEC R80), each with its browser and
 * system, when it signed in and was last active, this device marked, with 'Log out' for each other
 * one and 'Log out other devices'. The list is the server's answer, read when the page opens
 * (online only: it is not cached on the device).
 */
export function SignedInDevices() {
  const [state, setState] = useState<ListState>({ status: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const { sessions } = await getApiClient().get('/account/sessions', SessionListResponse);
      setState({ status: 'ready', sessions });
    } catch (error) {
      setState({ status: 'error', message: errorText(error) });
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function run(key: string, action: () => Promise<string>) {
    setBusy(key);
    try {
      showSnackbar(await action());
    } catch (error) {
      setState({ status: 'error', message: errorText(error) });
    } finally {
      setBusy(null);
      await load();
    }
  }

  const endOne = (session: SessionInfo) =>
    run(session.id, async () => {
      await getApiClient().delete(`/account/sessions/${session.id}`, undefined, Acknowledged);
      return `${session.device} was logged out.`;
    });
  const endOthers = () =>
    run('others', async () => {
      const { ended } = await getApiClient().post('/account/sessions/end-others', undefined, EndOtherSessionsResponse);
      return ended === 1 ? '1 other device was logged out.' : `${ended} other devices were logged out.`;
    });

  const others = state.status === 'ready' ? state.sessions.filter((s) => !s.isCurrent) : [];

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="signed-in-devices-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4" id="signed-in-devices-title">
            Signed-in devices
          </Title>
          <Button
            variant="light"
            color="red"
            size="xs"
            onClick={() => void endOthers()}
            loading={busy === 'others'}
            disabled={state.status !== 'ready' || others.length === 0 || busy !== null}
          >
            Log out other devices
          </Button>
        </Group>
        {state.status === 'loading' && <Loader size="sm" aria-label="Loading devices" />}
        {state.status === 'error' && (
          <Alert color="red" role="alert">
            {state.message}
          </Alert>
        )}
        {state.status === 'ready' && (
          <Stack gap={0} component="ul" aria-label="Signed-in devices" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {state.sessions.map((session, index) => (
              <Group
                key={session.id}
                component="li"
                justify="space-between"
                wrap="nowrap"
                gap="sm"
                py="sm"
                aria-label={session.isCurrent ? `${session.device} (this device)` : session.device}
                style={index > 0 ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}
              >
                <div style={{ minWidth: 0 }}>
                  <Group gap="xs" wrap="wrap">
                    <Text fw={500}>{session.device}</Text>
                    {session.isCurrent && (
                      <Badge size="sm" variant="light">
                        This device
                      </Badge>
                    )}
                  </Group>
                  <Text size="sm" c="dimmed">
                    Signed in {formatDateTime(session.createdAt)}
                  </Text>
                  {!session.isCurrent && (
                    <Text size="sm" c="dimmed">
                      {session.lastSeenAt === null ? 'Not used since' : `Last active ${formatDateTime(session.lastSeenAt)}`}
                    </Text>
                  )}
                </div>
                {!session.isCurrent && (
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    aria-label={`Log out ${session.device}`}
                    style={{ flexShrink: 0 }}
                    onClick={() => void endOne(session)}
                    loading={busy === session.id}
                    disabled={busy !== null}
                  >
                    Log out
                  </Button>
                )}
              </Group>
            ))}
          </Stack>
        )}
        {state.status === 'ready' && others.length === 0 && (
          <Text size="sm" c="dimmed">
            You are signed in on this device only.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
