import { Alert, Button, Loader, Paper, PasswordInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { ACCOUNT_PASSWORD_MIN, canChangePassword } from '../../domain/password';
import { emailUserInputs } from '../../domain/passwordStrength';
import { PasswordStrength, usePasswordScore } from '../../ui/PasswordStrength';
import { authService } from '../account/authService';
import { useSession } from '../account/useSession';
import { errorMessageOf } from '../signup/errorCode';
import { BACK_TO_SECURITY, SettingsPage } from './SettingsPage';
import { useCurrentPasswordCheck } from './useCurrentPasswordCheck';

/** /account/security/change-password. */
export function ChangePasswordPage() {
  const navigate = useNavigate();
  const { user } = useSession();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const check = useCurrentPasswordCheck(currentPassword);
  const score = usePasswordScore(newPassword, user ? emailUserInputs(user.email) : []);

  const canSubmit = canChangePassword({
    currentPassword,
    isCurrentConfirmed: check.status === 'valid',
    newPassword,
    isLoading: isLoading || check.status === 'checking',
  });

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setLoading(true);
    setError(null);
    try {
      await authService.changePassword(currentPassword, newPassword);
      notifications.show({ message: 'Your password was changed.', color: 'teal' });
      await navigate({ to: '/account/security' });
    } catch (err) {
      setError(errorMessageOf(err));
      setLoading(false);
    }
  }

  const currentError =
    check.status === 'invalid'
      ? 'This is not your current password.'
      : check.status === 'error'
        ? check.message
        : undefined;
  const newError =
    newPassword && newPassword === currentPassword
      ? 'Your new password must be different from the current one.'
      : newPassword && newPassword.length < ACCOUNT_PASSWORD_MIN
        ? `Use at least ${ACCOUNT_PASSWORD_MIN} characters.`
        : undefined;

  return (
    <SettingsPage title="Change password" back={BACK_TO_SECURITY}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <PasswordInput
              label="Current password"
              autoComplete="current-password"
              required
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.currentTarget.value)}
              error={currentError}
              description={check.status === 'valid' ? 'Password confirmed.' : undefined}
              leftSection={check.status === 'checking' ? <Loader size={14} aria-label="Checking password" /> : null}
            />
            <Stack gap={6}>
              <PasswordInput
                label="New password"
                autoComplete="new-password"
                required
                value={newPassword}
                onChange={(e) => setNewPassword(e.currentTarget.value)}
                error={newError}
              />
              <PasswordStrength password={newPassword} score={score} />
            </Stack>
            <Button type="submit" disabled={!canSubmit} loading={isLoading}>
              Change password
            </Button>
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
          </Stack>
        </form>
      </Paper>
    </SettingsPage>
  );
}
