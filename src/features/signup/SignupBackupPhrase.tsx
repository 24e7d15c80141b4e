import { Alert, Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { AuthLayout } from '../../ui/AuthLayout';
import { authService } from '../account/authService';
import { errorCodeOf } from './errorCode';
import { RecoveryPhraseActions, RecoveryPhraseWords } from './RecoveryPhrase';
import { forgetSignupPassword, getSignupDraft } from './signupDraft';

function signupErrorText(error: unknown): string {
  const code = errorCodeOf(error);
  // The operator's rule (sign-ups closed, or only some e-mail domains): the server's sentence names it.
  if (code === 'SIGNUPS_CLOSED' && error instanceof Error) return error.message;
  if (code === 'EMAIL_TAKEN' || (error instanceof Error && /e-?mail/i.test(error.message))) {
    return 'This email address is already registered.';
  }
  return 'Unknown error.';
}

/** Step 'backup-phrase': shows the new wallet's 12 words and registers the account. */
export function SignupBackupPhrase() {
  const navigate = useNavigate();
  const [words, setWords] = useState<string[] | null>(null);
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let isCurrent = true;
    const draft = getSignupDraft();
    authService
      .getSignupWords()
      .catch(() => null)
      .then((pending) => {
        if (!isCurrent) return;
        // After a reload the wallet and the typed password are gone: start again.
        if (!pending || !draft?.password) void navigate({ to: '/signup', replace: true });
        else setWords(pending);
      });
    return () => {
      isCurrent = false;
    };
  }, [navigate]);

  async function handleSetup() {
    const draft = getSignupDraft();
    if (!draft?.password) {
      await navigate({ to: '/signup', replace: true });
      return;
    }
    setLoading(true);
    setError(null);
    try {
      await authService.registerAccount(draft.email, draft.password, draft.referrerId);
      forgetSignupPassword();
      await navigate({ to: '/signup/$step', params: { step: 'account-created' }, replace: true });
    } catch (err) {
      setError(signupErrorText(err));
      setLoading(false);
    }
  }

  if (!words) {
    return (
      <AuthLayout title="Your recovery phrase">
        <Center py="xl">
          <Loader aria-label="Loading" />
        </Center>
      </AuthLayout>
    );
  }

  // Wider than the other sign-up cards, so the words stand in 4 even columns.
  return (
    <AuthLayout title="Your recovery phrase" width={600}>
      <Stack gap="md">
        <Text size="sm">
          These 12 words are the key to your account. Write them down or download them, and keep them
          somewhere safe and offline. If you forget your password, they are the only way back in.
        </Text>
        <RecoveryPhraseWords words={words} />
        <RecoveryPhraseActions words={words} />
        <Anchor component={Link} to="/signup/backup-info" size="sm">
          What is a recovery phrase?
        </Anchor>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button onClick={handleSetup} loading={isLoading} fullWidth>
          Setup account
        </Button>
      </Stack>
    </AuthLayout>
  );
}
