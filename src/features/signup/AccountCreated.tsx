import { Button, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { AuthLayout } from '../../ui/AuthLayout';
import { FlashActionLink } from '../../ui/FlashActionLink';
import { authService } from '../account/authService';
import { getSignupDraft } from './signupDraft';

/** How long the 'Resent!' flag shows (spec 001 section 9). */
const RESENT_FLAG_MS = 1_000;

/** Step 'account-created': asks the user to verify the e-mail, with a resend link. */
export function AccountCreated() {
  const navigate = useNavigate();
  const email = getSignupDraft()?.email;

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
            <FlashActionLink
              label="Resend email"
              doneLabel="Resent!"
              flashMs={RESENT_FLAG_MS}
              onAction={() => authService.resendVerification(email)}
            />
          </Text>
        )}
        <Button fullWidth onClick={() => void navigate({ to: '/' })}>
          Go to log in
        </Button>
      </Stack>
    </AuthLayout>
  );
}
