import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { isPhraseComplete, PHRASE_WORD_COUNT } from '../../domain/backupText';
import { AuthLayout } from '../../ui/AuthLayout';
import { authService } from '../account/authService';
import { errorCodeOf, errorMessageOf } from '../signup/errorCode';
import { PhraseInputGrid } from './PhraseInputGrid';
import { markPhraseChecked } from './recoveryDraft';
import { recoveryLinkOf } from './recoverySearch';

const MISMATCH = "Backup phrase doesn't match the account you are trying to reset.";
const INVALID_LINK = 'This recovery link is not valid. Open the link from the latest email, or request a new one.';

/** Step 'backup-phrase': the 12 words, checked against the account of the e-mailed link. */
export function RecoverPhraseStep() {
  const navigate = useNavigate();
  const link = recoveryLinkOf(useSearch({ strict: false }) as Record<string, unknown>);
  const [words, setWords] = useState<string[]>(() => Array<string>(PHRASE_WORD_COUNT).fill(''));
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canSubmit = link !== null && isPhraseComplete(words) && !isLoading;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit || !link) return;
    setLoading(true);
    setError(null);
    try {
      await authService.checkRecoveryPhrase(link.uid, words.map((word) => word.trim().toLowerCase()));
      markPhraseChecked(link.uid);
      await navigate({ to: '/recover/$step', params: { step: 'reset-password' }, search: link });
    } catch (err) {
      const code = errorCodeOf(err);
      setError(
        code === 'PHRASE_MISMATCH' || code === 'INVALID_PHRASE'
          ? MISMATCH
          : code === 'INVALID_LINK'
            ? INVALID_LINK
            : errorMessageOf(err),
      );
      setLoading(false);
    }
  }

  if (!link) {
    return (
      <AuthLayout title="Enter your recovery phrase">
        <Stack gap="md">
          <Alert color="red" role="alert">
            This recovery link is incomplete. Open the link from the latest email again, or request a new one.
          </Alert>
          <Anchor component={Link} to="/recover/recover">
            Request a new link
          </Anchor>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Enter your recovery phrase">
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Text size="sm">
            Type the 12 words of your recovery phrase in order, or paste the whole phrase into any box.
          </Text>
          <PhraseInputGrid
            words={words}
            onChange={(next) => {
              setWords(next);
              setError(null);
            }}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" disabled={!canSubmit} loading={isLoading} fullWidth>
            Next
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
