import { Alert, Anchor, Button, Checkbox, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import {
  canSubmitSignup,
  EDGE_WHITESPACE_ERROR,
  isValidEmail,
  showsEdgeWhitespaceError,
} from '../../domain/password';
import { isPhraseComplete, PHRASE_WORD_COUNT } from '../../domain/backupText';
import { emailUserInputs } from '../../domain/passwordStrength';
import { LIMITS } from '../../protocol/primitives';
import { useServerConfig } from '../../app/serverConfigStore';
import { AuthLayout } from '../../ui/AuthLayout';
import { PasswordStrength, usePasswordScore } from '../../ui/PasswordStrength';
import { authService } from '../account/authService';
import { PhraseInputGrid } from '../recovery/PhraseInputGrid';
import { errorCodeOf } from './errorCode';
import { PRIVACY_POLICY_URL, TERMS_OF_SERVICE_URL } from './legalLinks';
import { forgetSignupPassword, getSignupDraft, setSignupDraft } from './signupDraft';

/** The recovery pages' text for words that fail the BIP39 checks (spec 001, recovery reset failure). */
export const INVALID_PHRASE_TEXT = 'Invalid recovery phrase.';
export const PHRASE_TAKEN_TEXT =
  'An account with this recovery phrase already exists on this server. Log in, or recover your account with the phrase.';

function phraseSignupErrorText(error: unknown): string {
  const code = errorCodeOf(error);
  if (code === 'INVALID_PHRASE') return INVALID_PHRASE_TEXT;
  if (code === 'PHRASE_TAKEN') return PHRASE_TAKEN_TEXT;
  if (code === 'EMAIL_TAKEN') return 'This email address is already registered.';
  if (code === 'SIGNUPS_CLOSED' && error instanceof Error) return error.message;
  return 'Unknown error.';
}

function referrerIdOf(search: Record<string, unknown>): string | undefined {
  const value = search.referrerId;
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.length > 0 && value.length <= 64 ? value : undefined;
}

/** What the sign-up page says when the operator closed sign-ups (SIGNUPS_ALLOWED=false; no spec text). */
export const SIGNUPS_CLOSED_TEXT = 'Sign-ups are closed on this server.';

/** Step 'signup': e-mail, password with strength meter, the two agreements, Next. */
export function SignupForm() {
  const { config } = useServerConfig();
  if (config?.signupsAllowed === false) return <SignupsClosed />;
  return <OpenSignupForm />;
}

function SignupsClosed() {
  return (
    <AuthLayout title="Sign up for Cairn">
      <Stack gap="md">
        <Alert color="gray" role="status">
          {SIGNUPS_CLOSED_TEXT}
        </Alert>
        <LogInLink />
      </Stack>
    </AuthLayout>
  );
}

function OpenSignupForm() {
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const draft = getSignupDraft();
  const [email, setEmail] = useState(draft?.email ?? '');
  const [password, setPassword] = useState(draft?.password ?? '');
  const [acceptTerms, setAcceptTerms] = useState(draft?.acceptTerms ?? false);
  const [withdrawalRight, setWithdrawalRight] = useState(draft?.withdrawalRight ?? false);
  const [isEmailTouched, setEmailTouched] = useState(false);
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Issue 19: sign up with a phrase the user already has (e.g. to restore a vault on a new
  // server). The words stay in this component's memory only, never in the draft.
  const [hasPhrase, setHasPhrase] = useState(false);
  const [words, setWords] = useState<string[]>(() => Array<string>(PHRASE_WORD_COUNT).fill(''));

  const userInputs = useMemo(() => emailUserInputs(email), [email]);
  const score = usePasswordScore(password, userInputs);
  const canSubmit =
    !isLoading && canSubmitSignup({ email, password, score, acceptTerms, withdrawalRight }) && (!hasPhrase || isPhraseComplete(words));

  function togglePhrase() {
    setHasPhrase((was) => !was);
    setWords(Array<string>(PHRASE_WORD_COUNT).fill(''));
    setError(null);
  }

  async function registerWithPhrase() {
    const referrerId = referrerIdOf(search) ?? draft?.referrerId;
    const normalized = email.trim().toLowerCase();
    try {
      await authService.registerAccountWithPhrase(normalized, password, words, referrerId);
    } catch (err) {
      setError(phraseSignupErrorText(err));
      setLoading(false);
      return;
    }
    // 'account-created' reads the e-mail for 'Resend email'; the password is not kept.
    setSignupDraft({ email: normalized, password, acceptTerms, withdrawalRight, referrerId });
    forgetSignupPassword();
    await navigate({ to: '/signup/$step', params: { step: 'account-created' }, replace: true });
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setLoading(true);
    setError(null);
    if (hasPhrase) {
      await registerWithPhrase();
      return;
    }
    try {
      await authService.createWallet();
      setSignupDraft({
        email: email.trim().toLowerCase(),
        password,
        acceptTerms,
        withdrawalRight,
        referrerId: referrerIdOf(search) ?? draft?.referrerId,
      });
      await navigate({ to: '/signup/$step', params: { step: 'backup-phrase' } });
    } catch {
      setError('Unknown error.');
      setLoading(false);
    }
  }

  return (
    <AuthLayout title="Sign up for Cairn">
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Get 100 MB of permanent storage and 1 GB of cloud storage free of charge.
          </Text>
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            required
            maxLength={LIMITS.EMAIL_MAX}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            onBlur={() => setEmailTouched(true)}
            error={isEmailTouched && email && !isValidEmail(email) ? 'Enter a valid email address.' : undefined}
          />
          <Stack gap={6}>
            <PasswordInput
              label="Password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={showsEdgeWhitespaceError(password) ? EDGE_WHITESPACE_ERROR : undefined}
            />
            <PasswordStrength password={password} score={score} />
          </Stack>
          <Checkbox
            checked={acceptTerms}
            onChange={(e) => setAcceptTerms(e.currentTarget.checked)}
            label={
              <>
                I agree to the{' '}
                <Anchor href={TERMS_OF_SERVICE_URL} target="_blank" rel="noopener noreferrer" inherit>
                  Terms of Service
                </Anchor>{' '}
                and the{' '}
                <Anchor href={PRIVACY_POLICY_URL} target="_blank" rel="noopener noreferrer" inherit>
                  Privacy Policy
                </Anchor>
                .
              </>
            }
          />
          <Checkbox
            checked={withdrawalRight}
            onChange={(e) => setWithdrawalRight(e.currentTarget.checked)}
            label="I ask Cairn to start providing the service straight away and understand that I thereby waive my right of withdrawal."
          />
          {hasPhrase && (
            <Stack gap="xs" role="group" aria-label="Your recovery phrase">
              <Text size="sm">
                Type the 12 words of your recovery phrase in order, or paste the whole phrase into any box. Your
                account gets the keys and the address of this phrase.
              </Text>
              <PhraseInputGrid
                words={words}
                onChange={(next) => {
                  setWords(next);
                  setError(null);
                }}
              />
            </Stack>
          )}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" disabled={!canSubmit} loading={isLoading} fullWidth>
            {hasPhrase ? 'Setup account' : 'Next'}
          </Button>
          <Text size="sm" ta="center">
            <Anchor component="button" type="button" onClick={togglePhrase} inherit>
              {hasPhrase ? 'Create a new recovery phrase instead' : 'I already have a recovery phrase'}
            </Anchor>
          </Text>
          <LogInLink />
        </Stack>
      </form>
    </AuthLayout>
  );
}

/** The way to the login page for someone who has an account already. */
function LogInLink() {
  return (
    <Text size="sm" ta="center">
      Already have an account?{' '}
      <Anchor component={Link} to="/login">
        Log in
      </Anchor>
    </Text>
  );
}
