import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { decodeLinkPayload } from '../../domain/linkPayload';
import { canResetPassword } from '../../domain/password';
import { emailUserInputs } from '../../domain/passwordStrength';
import { AuthLayout } from '../../ui/AuthLayout';
import { PasswordStrength, usePasswordScore } from '../../ui/PasswordStrength';
import { authService } from '../account/authService';
import { errorCodeOf, errorMessageOf } from '../signup/errorCode';
import { clearPhraseChecked, isPhraseChecked } from './recoveryDraft';
import { recoveryLinkOf } from './recoverySearch';

/** Step 'reset-password': a new password, then straight into the app with a fresh session. */
export function RecoverResetStep() {
  const navigate = useNavigate();
  const link = recoveryLinkOf(useSearch({ strict: false }) as Record<string, unknown>);
  const uid = link?.uid;
  const code = link?.code;
  const isReady = link !== null && isPhraseChecked(link.uid);
  const [password, setPassword] = useState('');
  const userInputs = useMemo(() => emailUserInputs(decodeLinkPayload(uid)?.email ?? ''), [uid]);
  const score = usePasswordScore(password, userInputs);
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canSubmit = isReady && canResetPassword(password, score) && !isLoading;

  useEffect(() => {
    // After a reload the phrase is no longer in memory: ask for it again, keeping the link.
    if (isReady) return;
    void navigate({
      to: '/recover/$step',
      params: { step: uid && code ? 'backup-phrase' : 'recover' },
      search: uid && code ? { uid, code } : {},
      replace: true,
    });
  }, [isReady, uid, code, navigate]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit || !link) return;
    setLoading(true);
    setError(null);
    try {
      await authService.resetPassword(link.uid, link.code, password);
      clearPhraseChecked();
      notifications.show({ message: 'Your password was changed.', color: 'teal' });
      await navigate({ to: '/vaults/$status', params: { status: 'active' }, replace: true });
    } catch (err) {
      setError(errorCodeOf(err) === 'INVALID_SIGNATURE' ? 'Invalid recovery phrase.' : errorMessageOf(err));
      setLoading(false);
    }
  }

  if (!isReady) return null;

  return (
    <AuthLayout title="Reset your password">
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Text size="sm">Choose a new password for your account.</Text>
          <Stack gap={6}>
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <PasswordStrength password={password} score={score} />
          </Stack>
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" disabled={!canSubmit} loading={isLoading} fullWidth>
            Reset Password
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
