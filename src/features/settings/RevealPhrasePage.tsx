import { Alert, Button, Paper, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { canRevealPhrase } from '../../domain/password';
import { authService } from '../account/authService';
import { errorCodeOf, errorMessageOf } from '../signup/errorCode';
import { RecoveryPhraseActions, RecoveryPhraseWords } from '../signup/RecoveryPhrase';
import { BACK_TO_SECURITY, SettingsPage } from './SettingsPage';
import { ConfirmPasswordInput } from './ConfirmPasswordInput';

const WRONG_PASSWORD = 'Your login details are not recognised. Please check your password.';

/** /account/security/backup-phrase: the words after the password is proven again. */
export function RevealPhrasePage() {
  const [password, setPassword] = useState('');
  const [words, setWords] = useState<string[] | null>(null);
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canSubmit = canRevealPhrase(password) && !isLoading;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setLoading(true);
    setError(null);
    try {
      setWords(await authService.revealPhrase(password));
      setPassword('');
    } catch (err) {
      setError(errorCodeOf(err) === 'INVALID_CREDENTIALS' ? WRONG_PASSWORD : errorMessageOf(err));
    } finally {
      setLoading(false);
    }
  }

  return (
    <SettingsPage title="Reveal recovery phrase" back={BACK_TO_SECURITY}>
      {words ? (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap="md">
            <Alert color="yellow" title="Keep these words private">
              Anyone who has your recovery phrase can open your account. Make sure nobody can see your screen.
            </Alert>
            <RecoveryPhraseWords words={words} />
            <RecoveryPhraseActions words={words} />
            <Button variant="subtle" onClick={() => setWords(null)}>
              Hide recovery phrase
            </Button>
          </Stack>
        </Paper>
      ) : (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <form onSubmit={handleSubmit} noValidate>
            <Stack gap="md">
              <Text size="sm">Enter your password to show your 12-word recovery phrase.</Text>
              <ConfirmPasswordInput
                value={password}
                onChange={(next) => {
                  setPassword(next);
                  setError(null);
                }}
                error={error}
              />
              <Button type="submit" disabled={!canSubmit} loading={isLoading}>
                Reveal recovery phrase
              </Button>
            </Stack>
          </form>
        </Paper>
      )}
    </SettingsPage>
  );
}
