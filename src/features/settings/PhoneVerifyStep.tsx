import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { authService } from '../account/authService';
import { errorCodeOf, errorMessageOf } from '../signup/errorCode';
import { OtpCodeInput } from './OtpCodeInput';
import { getSmsPhone, setSmsPhone } from './twoFactorDraft';
import { isOtpCode } from './twoFactorRules';

/** SMS step 'verify': the 6-digit code from the text message. */
export function PhoneVerifyStep() {
  const navigate = useNavigate();
  const hasPhone = getSmsPhone() !== null;
  const [code, setCode] = useState('');
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canSubmit = isOtpCode(code) && !isLoading;

  useEffect(() => {
    if (!hasPhone) {
      void navigate({ to: '/account/security/two-factor-authentication/phone-number', replace: true });
    }
  }, [hasPhone, navigate]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setLoading(true);
    setError(null);
    try {
      // The service updates the session's user.
      await authService.enableSms(code);
      setSmsPhone(null);
      notifications.show({ message: 'Two-factor authentication is on.', color: 'teal' });
      await navigate({ to: '/account/security/two-factor-authentication' });
    } catch (err) {
      setError(errorCodeOf(err) === 'WRONG_CODE' ? 'Wrong code. Please check and try again.' : errorMessageOf(err));
      setLoading(false);
    }
  }

  if (!hasPhone) return null;

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">Enter the 6-digit code we sent you.</Text>
        <OtpCodeInput
          value={code}
          onChange={(next) => {
            setCode(next);
            setError(null);
          }}
          error={error}
        />
        <Button type="submit" disabled={!canSubmit} loading={isLoading}>
          Turn on
        </Button>
      </Stack>
    </form>
  );
}
