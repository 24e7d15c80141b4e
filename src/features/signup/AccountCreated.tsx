import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { AuthLayout } from '../../ui/AuthLayout';
import { authService } from '../account/authService';
import { getSignupDraft } from './signupDraft';

/** How long the 'Resent!' flag shows (spec 001 section 9). */
const RESENT_FLAG_MS = 1_000;

/** Step 'account-created': asks the user to verify the e-mail, with a resend link. */
export function AccountCreated() {
  const navigate = useNavigate();
  const email = getSignupDraft()?.email;
  const [isResent, setResent] = useState(false);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function handleResend() {
    if (!email) return;
    try {
      await authService.resendVerification(email);
      setResent(true);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setResent(false), RESENT_FLAG_MS);
    } catch {
      // The resend endpoint answers ok for any address; a network failure leaves the link as is.
    }
  }

  return (
    <AuthLayout title="Final step – verify your email">
      <Stack gap="md">
        <Text>Check your email for a verification link.</Text>
        {email && (
          <Text size="sm" c="dimmed">
            We sent it to{' '}
            <Text span fw={600} inherit>
              {email}
            </Text>
            . Didn&apos;t get it?{' '}
            <Anchor component="button" type="button" size="sm" onClick={handleResend} aria-live="polite">
              {isResent ? 'Resent!' : 'Resend email'}
            </Anchor>
          </Text>
        )}
        <Button fullWidth onClick={() => void navigate({ to: '/' })}>
          Go to log in
        </Button>
      </Stack>
    </AuthLayout>
  );
}
