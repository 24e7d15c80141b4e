import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { LIMITS } from '../../protocol/primitives';
import { authService } from '../account/authService';
import { errorCodeOf, errorMessageOf } from '../signup/errorCode';
import { setSmsPhone } from './twoFactorDraft';
import { canSubmitPhoneSetup, COUNTRY_CODES, toInternationalNumber } from './twoFactorRules';
import { ConfirmPasswordInput } from './ConfirmPasswordInput';

const COUNTRY_OPTIONS = COUNTRY_CODES.map(({ code, country }) => ({ value: code, label: `${country} (${code})` }));

/** SMS step 'setup': the phone number and the password; the server then texts a code. */
export function PhoneSetupStep() {
  const navigate = useNavigate();
  const [countryCode, setCountryCode] = useState<string | null>(null);
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [isLoading, setLoading] = useState(false);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const canSubmit = canSubmitPhoneSetup({ countryCode, phone, password }) && !isLoading;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit || !countryCode) return;
    setLoading(true);
    setError(null);
    setPasswordError(null);
    const phoneNumber = toInternationalNumber(countryCode, phone);
    try {
      await authService.startSmsSetup(password, phoneNumber);
      setSmsPhone(phoneNumber);
      await navigate({ to: '/account/security/two-factor-authentication/phone-number/verify' });
    } catch (err) {
      if (errorCodeOf(err) === 'INVALID_CREDENTIALS') setPasswordError('Wrong password. Please check and try again.');
      else setError(errorMessageOf(err));
      setLoading(false);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">We will text a 6-digit code to this number each time you log in.</Text>
        <Group gap="sm" align="flex-start" grow preventGrowOverflow={false} wrap="wrap">
          <Select
            label="Country code"
            placeholder="Choose"
            data={COUNTRY_OPTIONS}
            value={countryCode}
            onChange={setCountryCode}
            searchable
            required
            miw={180}
            comboboxProps={{ withinPortal: true }}
          />
          <TextInput
            label="Phone number"
            type="tel"
            autoComplete="tel-national"
            required
            maxLength={LIMITS.PHONE_MAX}
            value={phone}
            onChange={(e) => setPhone(e.currentTarget.value)}
            error={error ?? undefined}
            miw={180}
          />
        </Group>
        <ConfirmPasswordInput
          value={password}
          onChange={(next) => {
            setPassword(next);
            setPasswordError(null);
          }}
          error={passwordError}
        />
        <Button type="submit" disabled={!canSubmit} loading={isLoading}>
          Send code
        </Button>
      </Stack>
    </form>
  );
}
