import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { authService } from '../account/authService';
import { OtpCodeInput } from './OtpCodeInput';
import { useEnableTwoFactor } from './useEnableTwoFactor';
import { getTotpDraft, setTotpDraft } from './twoFactorDraft';
import { isOtpCode } from './twoFactorRules';

const DEVICE_MAX = 60;

/** TOTP step 'verify': the first code from the app and a name for the device. */
export function TotpVerifyStep() {
  const navigate = useNavigate();
  const hasDraft = getTotpDraft() !== null;
  const [code, setCode] = useState('');
  const [device, setDevice] = useState('Authenticator app');
  const { isLoading, error, setError, enable } = useEnableTwoFactor(() => setTotpDraft(null));
  const canSubmit = isOtpCode(code) && device.trim().length > 0 && !isLoading;

  useEffect(() => {
    // The secret lives only in memory: after a reload the setup starts again.
    if (!hasDraft) void navigate({ to: '/account/security/two-factor-authentication/totp', replace: true });
  }, [hasDraft, navigate]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    await enable(() => authService.enableTotp(code, device.trim()));
  }

  if (!hasDraft) return null;

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">Enter the 6-digit code your authenticator app shows for Cairn.</Text>
        <OtpCodeInput
          value={code}
          onChange={(next) => {
            setCode(next);
            setError(null);
          }}
          error={error}
        />
        <TextInput
          label="Device name"
          description="So you know which app to open when you log in."
          required
          maxLength={DEVICE_MAX}
          value={device}
          onChange={(e) => setDevice(e.currentTarget.value)}
        />
        <Button type="submit" disabled={!canSubmit} loading={isLoading}>
          Turn on
        </Button>
      </Stack>
    </form>
  );
}
