import { Alert, Anchor, Button, Checkbox, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import {
  canSubmitSignup,
  EDGE_WHITESPACE_ERROR,
  isValidEmail,
  showsEdgeWhitespaceError,
} from '../../domain/password';
import { emailUserInputs } from '../../domain/passwordStrength';
import { LIMITS } from '../../protocol/primitives';
import { AuthLayout } from '../../ui/AuthLayout';
import { PasswordStrength, usePasswordScore } from '../../ui/PasswordStrength';
import { authService } from '../account/authService';
import { PRIVACY_POLICY_URL, TERMS_OF_SERVICE_URL } from './legalLinks';
import { getSignupDraft, setSignupDraft } from './signupDraft';

function referrerIdOf(search: Record<string, unknown>): string | undefined {
  const value = search.referrerId;
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.length > 0 && value.length <= 64 ? value : undefined;
}

/** Step 'signup': e-mail, password with strength meter, the two agreements, Next. */
export function SignupForm() {
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

  const userInputs = useMemo(() => emailUserInputs(email), [email]);
  const score = usePasswordScore(password, userInputs);
  const canSubmit = !isLoading && canSubmitSignup({ email, password, score, acceptTerms, withdrawalRight });

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setLoading(true);
    setError(null);
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
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" disabled={!canSubmit} loading={isLoading} fullWidth>
            Next
          </Button>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to="/login">
              Log in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
