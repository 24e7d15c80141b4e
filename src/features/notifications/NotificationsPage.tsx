import { ActionIcon, Box, Button, Center, Group, Loader, Menu, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { formatDateTime } from '../../domain/formatting';
import { vaultListStatus } from '../../domain/memberRules';
import { describeNotification, NOTIFICATIONS_PAGE_SIZE, type NotificationView } from '../../domain/notificationRules';
import type { Notification } from '../../protocol/members';
import { useNotifications } from '../../storage/notificationStore';
import { useShownVaults } from '../branding/useShownVaults';
import { notificationActions, useNotificationsLoadAttempted } from '../../sync/notificationSync';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconBell, IconDots } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { useNotificationNames } from './useNotificationNames';

/**
 * /notifications (spec 000 sections 2-4): the signed-in user's notifications from this device's
 * cache (docs/SYNC_SPEC.md R31), newest first, 10 at a time. Clicking one marks it read and opens
 * what it is about; the menu marks all read or clears them (not in read-only mode). Names come
 * from the device's own projection; the server sends ids only.
 */
export function NotificationsPage() {
  const navigate = useNavigate();
  const notifications = useNotifications();
  const active = useShownVaults('active');
  const inactive = useShownVaults('inactive');
  const { isReadOnly } = useServerConfig();
  const [shown, setShown] = useState(NOTIFICATIONS_PAGE_SIZE);
  const visible = useMemo(() => (notifications ?? []).slice(0, shown), [notifications, shown]);
  const names = useNotificationNames(visible);

  const vaults = useMemo(() => new Map([...(active ?? []), ...(inactive ?? [])].map((vault) => [vault.vaultId, vault])), [active, inactive]);

  function open(notification: Notification, view: NotificationView) {
    if (notification.status === 'UNREAD') void notificationActions().act({ kind: 'read', id: notification.id });
    const { target } = view;
    if (target.to === 'invite') {
      void navigate({ to: '/invite', search: { membershipId: target.membershipId } });
      return;
    }
    if (target.to === 'vaults') {
      void navigate({ to: '/vaults/$status', params: { status: 'active' } });
      return;
    }
    if (target.to === 'storage') {
      void navigate({ to: '/storage' });
      return;
    }
    const vault = vaults.get(target.vaultId);
    const params = { status: vault ? vaultListStatus(vault.status) : 'active', vaultId: target.vaultId };
    if (target.to === 'manageAccess') void navigate({ to: '/vaults/$status/$vaultId/manage-access', params });
    else if (target.to === 'revokedFiles') void navigate({ to: '/vaults/$status/$vaultId/revoked-files', params });
    // The chat route comes with the chat slice; until then the vault room's catch-all opens the assets.
    else if (target.to === 'chat') void navigate({ href: `/vaults/${params.status}/${encodeURIComponent(params.vaultId)}/chat` });
    else void navigate({ to: '/vaults/$status/$vaultId/assets', params });
  }

  const hasRead = (notifications ?? []).some((n) => n.status === 'READ');
  const hasUnread = (notifications ?? []).some((n) => n.status === 'UNREAD');
  const loadAttempted = useNotificationsLoadAttempted();
  const isEmpty = notifications !== undefined && notifications.length === 0;
  const menu = (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label="Notification actions" disabled={isEmpty}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item disabled={isReadOnly || !hasUnread} onClick={() => void notificationActions().act({ kind: 'readAll' })}>
          Mark all as read
        </Menu.Item>
        <Menu.Item disabled={isReadOnly || !hasRead} onClick={() => void notificationActions().act({ kind: 'deleteRead' })}>
          Clear all read notifications
        </Menu.Item>
        <Menu.Item color="red" disabled={isReadOnly} onClick={() => void notificationActions().act({ kind: 'deleteAll' })}>
          Clear all notifications
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );

  return (
    <>
      <PageHeader title="Notifications" actions={menu} />
      {notifications === undefined || (isEmpty && !loadAttempted) ? (
        <Center py="xl">
          <Loader aria-label="Loading notifications" />
        </Center>
      ) : isEmpty ? (
        <EmptyPanel
          icon={<IconBell size={28} />}
          title="All clear"
          description="Invitations, new files and messages in your vaults will show up here."
        />
      ) : (
        <>
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Notifications">
            {visible.map((notification) => {
              const vaultName = notification.vaultId ? vaults.get(notification.vaultId)?.name || undefined : undefined;
              const view = describeNotification(notification, vaultName, names.of(notification));
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
          {notifications.length > shown && (
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
