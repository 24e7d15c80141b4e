import { Alert, Anchor, Button, Checkbox, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { getRouteApi, Link, useNavigate, useRouter } from '@tanstack/react-router';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { decodeLinkPayload } from '../../domain/linkPayload';
import { canSubmitLogin, normalizeEmail } from '../../domain/loginRules';
import { safeRedirectPath } from '../../domain/redirectPath';
import { LIMITS } from '../../protocol/primitives';
import { AuthLayout } from '../../ui/AuthLayout';
import { FlashActionLink } from '../../ui/FlashActionLink';
import { authService } from '../account/authService';
import { useSession } from '../account/useSession';
import { LOGIN_TEXTS, type LoginErrorView, loginErrorView } from './loginErrorView';
import { AirdropSignIn } from './AirdropSignIn';
import { SunsetBanner } from './SunsetBanner';
import { useEmailVerification } from './useEmailVerification';

const route = getRouteApi('/login');

/** /login (spec 001 sections 2, 4, 5 and 8). */
export function LoginPage() {
  const search = route.useSearch();
  const navigate = useNavigate();
  const router = useRouter();
  const session = useSession();
  const { sunsetBannerUrl } = useServerConfig();
  const linkEmail = decodeLinkPayload(search.uid)?.email ?? '';
  const verification = useEmailVerification(search.uid, search.code);

  const [email, setEmail] = useState(linkEmail);
  const [password, setPassword] = useState('');
  const [keepSignedIn, setKeepSignedIn] = useState(false);
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<LoginErrorView | null>(null);

  const redirectTo = safeRedirectPath(search.redirect);
  // An airdrop link's wallet, kept here only: it leaves the address bar (and the history) at once.
  const [wallet, setWallet] = useState(search.wallet);

  useEffect(() => {
    if (search.wallet) void navigate({ to: '/login', search: { redirect: search.redirect }, replace: true });
  }, [search.wallet, search.redirect, navigate]);

  // Signed in (by this form, a link, or another tab): go to the saved origin or the vault list.
  useEffect(() => {
    if (session.status === 'signedIn' && !wallet) router.history.replace(redirectTo);
  }, [session.status, wallet, redirectTo, router]);

  const onWalletSignedIn = useCallback(() => setWallet(undefined), []);
  const onWalletFailed = useCallback((caught: unknown) => {
    setWallet(undefined);
    if (caught !== null) setError(loginErrorView(caught));
  }, []);

  useEffect(() => {
    if (linkEmail) setEmail((current) => current || linkEmail);
  }, [linkEmail]);

  const verificationError = verification.status === 'failed' ? loginErrorView(verification.error) : null;
  const shownError = error ?? verificationError;
  const canSubmit = canSubmitLogin({ email, password, isLoading });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setLoading(true);
    setError(null);
    try {
      const outcome = await authService.login(email, password, keepSignedIn);
      if (outcome.status === 'mfa') {
        await navigate({ to: '/verify', search: { redirect: search.redirect } });
      }
      // 'ok': the session effect above navigates.
    } catch (caught) {
      setError(loginErrorView(caught));
      setLoading(false);
    }
  }

  const resendTo = normalizeEmail(email) || linkEmail;

  if (wallet) {
    return (
      <AuthLayout title="Open airdrop link">
        <AirdropSignIn wallet={wallet} onSignedIn={onWalletSignedIn} onFailed={onWalletFailed} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Log in" banner={sunsetBannerUrl ? <SunsetBanner href={sunsetBannerUrl} /> : undefined}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          {verification.status === 'verifying' && (
            <Group gap="xs" c="dimmed" role="status">
              <Loader size="xs" />
              <Text size="sm">Verifying your email…</Text>
            </Group>
          )}
          {verification.status === 'verified' && !error && (
            <Alert color="teal" variant="light" role="status">
              {LOGIN_TEXTS.verified}
            </Alert>
          )}
          {session.notice && !shownError && (
            <Alert color="red" variant="light" role="alert">
              {session.notice}
            </Alert>
          )}
          {shownError?.text && (
            <Alert color="red" variant="light" role="alert">
              {shownError.text}
              {shownError.canResendVerification && resendTo && (
                <>
                  {' '}
                  <FlashActionLink
                    label={LOGIN_TEXTS.resendEmail}
                    doneLabel={LOGIN_TEXTS.emailSent}
                    onAction={() => authService.resendVerification(resendTo)}
                  />
                </>
              )}
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            inputMode="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            maxLength={LIMITS.EMAIL_MAX}
            autoFocus={!linkEmail}
            required
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            autoFocus={Boolean(linkEmail)}
            visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the password' }}
            visibilityToggleFocusable
            required
          />
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Checkbox
              label="Keep me signed in"
              checked={keepSignedIn}
              onChange={(event) => setKeepSignedIn(event.currentTarget.checked)}
            />
            <Anchor size="sm" renderRoot={(props) => <Link to="/recover/$step" params={{ step: 'recover' }} {...props} />}>
              Recover account
            </Anchor>
          </Group>
          <Button type="submit" size="md" fullWidth disabled={!canSubmit} loading={isLoading}>
            Log in
          </Button>
          <Text size="sm" ta="center" c="dimmed">
            New to Cairn?{' '}
            <Anchor component={Link} to="/signup" fw={600}>
              Sign up
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
