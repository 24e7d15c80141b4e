import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { isValidEmail } from '../../domain/password';
import { LIMITS } from '../../protocol/primitives';
import { AuthLayout } from '../../ui/AuthLayout';
import { authService } from '../account/authService';
import { errorCodeOf, errorMessageOf } from '../signup/errorCode';

/** Step 'recover': sends a verification link to the account's e-mail. */
export function RecoverEmailStep() {
  const [email, setEmail] = useState('');
  const [isLoading, setLoading] = useState(false);
  const [isSent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canSubmit = isValidEmail(email) && !isLoading;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setLoading(true);
    setError(null);
    try {
      await authService.sendRecovery(email.trim().toLowerCase());
      setSent(true);
    } catch (err) {
      setError(
        errorCodeOf(err) === 'USER_NOT_FOUND'
          ? 'An account with this email address does not exist.'
          : errorMessageOf(err),
      );
    } finally {
      setLoading(false);
    }
  }

  return (
    <AuthLayout title="Recover your account">
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Text size="sm">
            Enter the email address of your account. We will send you a link to reset your password with your
            recovery phrase.
          </Text>
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            maxLength={LIMITS.EMAIL_MAX}
            value={email}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              setSent(false);
            }}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {isSent && (
            <Alert color="teal" role="status">
              Check your email for a verification link.
            </Alert>
          )}
          <Button type="submit" disabled={!canSubmit} loading={isLoading} fullWidth>
            Send verification
          </Button>
          <Anchor component={Link} to="/login" size="sm" ta="center">
            Back to log in
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
