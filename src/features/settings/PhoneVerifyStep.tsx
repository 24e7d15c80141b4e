import { Button, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { authService } from '../account/authService';
import { OtpCodeInput } from './OtpCodeInput';
import { useEnableTwoFactor } from './useEnableTwoFactor';
import { getSmsPhone, setSmsPhone } from './twoFactorDraft';
import { isOtpCode } from './twoFactorRules';

/** SMS step 'verify': the 6-digit code from the text message. */
export function PhoneVerifyStep() {
  const navigate = useNavigate();
  const hasPhone = getSmsPhone() !== null;
  const [code, setCode] = useState('');
  const { isLoading, error, setError, enable } = useEnableTwoFactor(() => setSmsPhone(null));
  const canSubmit = isOtpCode(code) && !isLoading;

  useEffect(() => {
    if (!hasPhone) {
      void navigate({ to: '/account/security/two-factor-authentication/phone-number', replace: true });
    }
  }, [hasPhone, navigate]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    await enable(() => authService.enableSms(code));
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
