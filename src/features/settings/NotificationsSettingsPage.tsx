import { Paper, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { authService } from '../account/authService';
import { useSession } from '../account/useSession';
import { errorMessageOf } from '../signup/errorCode';
import { BACK_TO_ACCOUNT, SettingsPage } from './SettingsPage';

/** /account/notifications: the e-mail notification toggle (attribute `notifications`). */
export function NotificationsSettingsPage() {
  const { user } = useSession();
  const [pending, setPending] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  const checked = pending ?? user?.notifications ?? false;

  async function handleChange(next: boolean) {
    setPending(next);
    setError(null);
    try {
      await authService.updateAttributes({ notifications: next });
    } catch (err) {
      setError(errorMessageOf(err));
    } finally {
      setPending(null);
    }
  }

  return (
    <SettingsPage title="Notifications" back={BACK_TO_ACCOUNT}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="sm">
          <Switch
            label="Email notifications"
            description="Get an email when something happens in your vaults, such as a new invitation or a new member."
            checked={checked}
            disabled={pending !== null || !user}
            onChange={(e) => void handleChange(e.currentTarget.checked)}
          />
          {error && (
            <Text c="red" size="sm" role="alert">
              {error}
            </Text>
          )}
        </Stack>
      </Paper>
    </SettingsPage>
  );
}
