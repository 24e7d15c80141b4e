import { TextInput } from '@mantine/core';
import { normalizeOtpInput } from './twoFactorRules';

interface OtpCodeInputProps {
  value: string;
  onChange: (code: string) => void;
  error?: string | null;
}

/** A 6-digit one-time code field (digits only; the code's paste or autofill works). */
export function OtpCodeInput({ value, onChange, error }: OtpCodeInputProps) {
  return (
    <TextInput
      label="6-digit code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      maxLength={6}
      required
      value={value}
      onChange={(e) => onChange(normalizeOtpInput(e.currentTarget.value))}
      error={error ?? undefined}
      styles={{ input: { letterSpacing: '0.3em', fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );
}
