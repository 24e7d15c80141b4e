import { Alert, Box, Button, Center, Group, Loader, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { formatDateTime } from '../../domain/formatting';
import { vaultListStatus } from '../../domain/memberRules';
import { describeNotification, NOTIFICATIONS_PAGE_SIZE, type NotificationView } from '../../domain/notificationRules';
import type { Notification } from '../../protocol/members';
import { useVaults } from '../../storage/vaultStore';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconBell } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { fetchNotifications, markNotificationRead } from './notificationApi';

type Load = { state: 'loading' } | { state: 'loaded'; notifications: Notification[] } | { state: 'failed' };

/**
 * /notifications (spec 000 sections 2-3): the signed-in user's membership notifications, newest
 * first; clicking one marks it read and opens what it is about. The rest of the spec's page
 * (bulk actions, other events) comes with the notifications issue.
 */
export function NotificationsPage() {
  const navigate = useNavigate();
  const active = useVaults('active');
  const inactive = useVaults('inactive');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [shown, setShown] = useState(NOTIFICATIONS_PAGE_SIZE);

  useEffect(() => {
    let isCurrent = true;
    fetchNotifications().then(
      (notifications) => isCurrent && setLoad({ state: 'loaded', notifications }),
      (error: unknown) => {
        console.warn('The notifications could not be loaded', error);
        if (isCurrent) setLoad({ state: 'failed' });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, []);

  const vaults = useMemo(() => new Map([...(active ?? []), ...(inactive ?? [])].map((vault) => [vault.vaultId, vault])), [active, inactive]);

  function open(notification: Notification, view: NotificationView) {
    if (notification.status === 'UNREAD') {
      setLoad((current) =>
        current.state === 'loaded'
          ? { ...current, notifications: current.notifications.map((n) => (n.id === notification.id ? { ...n, status: 'READ' } : n)) }
          : current,
      );
      markNotificationRead(notification.id).catch((error: unknown) => console.warn('Marking the notification read failed', error));
    }
    const { target } = view;
    if (target.to === 'invite') void navigate({ to: '/invite', search: { membershipId: target.membershipId } });
    else if (target.to === 'vaults') void navigate({ to: '/vaults/$status', params: { status: 'active' } });
    else {
      const vault = vaults.get(target.vaultId);
      const params = { status: vault ? vaultListStatus(vault.status) : 'active', vaultId: target.vaultId };
      if (target.to === 'manageAccess') void navigate({ to: '/vaults/$status/$vaultId/manage-access', params });
      else void navigate({ to: '/vaults/$status/$vaultId/assets', params });
    }
  }

  return (
    <>
      <PageHeader title="Notifications" />
      {load.state === 'loading' ? (
        <Center py="xl">
          <Loader aria-label="Loading notifications" />
        </Center>
      ) : load.state === 'failed' ? (
        <Alert color="red" role="alert">
          Your notifications could not be loaded. Check your connection and open this page again.
        </Alert>
      ) : load.notifications.length === 0 ? (
        <EmptyPanel
          icon={<IconBell size={28} />}
          title="All clear"
          description="Invitations, new files and messages in your vaults will show up here."
        />
      ) : (
        <>
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Notifications">
            {load.notifications.slice(0, shown).map((notification) => {
              const vaultName = notification.vaultId ? vaults.get(notification.vaultId)?.name || undefined : undefined;
              const view = describeNotification(notification, vaultName);
              const isUnread = notification.status === 'UNREAD';
              return (
                <Paper key={notification.id} component="li" withBorder radius="md">
                  <UnstyledButton w="100%" p="md" onClick={() => open(notification, view)} aria-label={`${isUnread ? 'Unread: ' : ''}${view.text}`}>
                    <Group gap="sm" wrap="nowrap" align="flex-start">
                      <Box
                        mt={7}
                        w={8}
                        h={8}
                        style={{ borderRadius: '50%', flexShrink: 0, background: isUnread ? 'var(--mantine-primary-color-filled)' : 'transparent' }}
                        aria-hidden
                      />
                      <Stack gap={2} miw={0}>
                        <Text fw={isUnread ? 600 : 400} style={{ wordBreak: 'break-word' }}>
                          {view.text}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {formatDateTime(notification.createdAt)}
                        </Text>
                      </Stack>
                    </Group>
                  </UnstyledButton>
                </Paper>
              );
            })}
          </Stack>
          {load.notifications.length > shown && (
            <Group justify="center" mt="md">
              <Button variant="default" onClick={() => setShown((n) => n + NOTIFICATIONS_PAGE_SIZE)}>
                Load more
              </Button>
            </Group>
          )}
        </>
      )}
    </>
  );
}
