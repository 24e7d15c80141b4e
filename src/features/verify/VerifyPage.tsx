import { Alert, Anchor, Button, Center, PinInput, Stack, Text } from '@mantine/core';
import { getRouteApi, Link, Navigate, useRouter } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { isOtpCode } from '../../domain/loginRules';
import { safeRedirectPath } from '../../domain/redirectPath';
import { ApiError } from '../../protocol/errors';
import { LIMITS } from '../../protocol/primitives';
import { AuthLayout } from '../../ui/AuthLayout';
import { FlashActionLink } from '../../ui/FlashActionLink';
import { authService } from '../account/authService';
import { useSession } from '../account/useSession';
import { loginErrorView } from '../login/loginErrorView';
import { VERIFY_TEXTS, verifyInstruction } from './verifyTexts';

const route = getRouteApi('/verify');

function errorText(error: unknown): string | null {
  if (error instanceof ApiError && error.code === 'WRONG_CODE') return VERIFY_TEXTS.wrongCode;
  if (error instanceof ApiError && error.code === 'EXPIRED') return VERIFY_TEXTS.expired;
  return loginErrorView(error).text;
}

/** /verify: the second factor of a login (spec 001 sections 2, 4, 5 and 8). */
export function VerifyPage() {
  const search = route.useSearch();
  const router = useRouter();
  const session = useSession();
  const [pending] = useState(() => authService.getPendingMfa());
  const [code, setCode] = useState('');
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isExpired, setExpired] = useState(false);
  const redirectTo = safeRedirectPath(search.redirect);

  useEffect(() => {
    if (session.status === 'signedIn') router.history.replace(redirectTo);
  }, [session.status, redirectTo, router]);

  if (!pending && session.status !== 'signedIn') {
    // No login waiting for a code (e.g. after a reload): start again.
    return <Navigate to="/login" search={{ redirect: search.redirect }} replace />;
  }

  async function submit(value: string) {
    if (!isOtpCode(value) || isLoading) return;
    setLoading(true);
    setError(null);
    try {
      await authService.verifyMfa(value);
      // The session effect navigates.
    } catch (caught) {
      setError(errorText(caught));
      setExpired(caught instanceof ApiError && caught.code === 'EXPIRED');
      // Empty boxes for the next try: the code is sent again when the sixth digit is typed.
      setCode('');
      setLoading(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(code);
  }

  function onChange(value: string) {
    setCode(value);
    // Spec: any change to the code clears the error.
    if (error && !isExpired) setError(null);
  }

  return (
    <AuthLayout title={VERIFY_TEXTS.title}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Text ta="center" id="verify-instruction">
            {pending ? verifyInstruction(pending.mfaType, pending.device) : ''}
          </Text>
          <Center>
            <PinInput
              length={LIMITS.OTP_LENGTH}
              type="number"
              inputMode="numeric"
              oneTimeCode
              autoFocus
              size="md"
              gap="xs"
              value={code}
              onChange={onChange}
              onComplete={(value) => void submit(value)}
              error={Boolean(error)}
              disabled={isExpired}
              ariaLabel="6-digit code"
              getInputProps={(index) => ({ 'aria-label': `Digit ${index + 1} of 6`, 'aria-describedby': 'verify-instruction' })}
            />
          </Center>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
              {isExpired && (
                <>
                  {' '}
                  <Anchor inherit c="inherit" underline="always" fw={600} renderRoot={(props) => <Link to="/login" search={{ redirect: search.redirect }} {...props} />}>
                    Log in
                  </Anchor>
                </>
              )}
            </Alert>
          )}
          {pending?.mfaType === 'SMS' && !isExpired && (
            <Text size="sm" ta="center">
              <FlashActionLink
                label={VERIFY_TEXTS.resendCode}
                doneLabel={VERIFY_TEXTS.codeSent}
                onAction={() => authService.resendMfaCode()}
                onError={(caught) => setError(errorText(caught))}
              />
            </Text>
          )}
          <Button type="submit" size="md" fullWidth disabled={!isOtpCode(code) || isExpired} loading={isLoading}>
            {VERIFY_TEXTS.authenticate}
          </Button>
          <Text size="sm" ta="center">
            <Anchor renderRoot={(props) => <Link to="/recover/$step" params={{ step: 'recover' }} {...props} />}>
              {VERIFY_TEXTS.recover}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
