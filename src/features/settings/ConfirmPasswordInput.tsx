import { PasswordInput } from '@mantine/core';

interface ConfirmPasswordInputProps {
  value: string;
  /** Called with the new value; the caller also clears its error, since any edit makes it stale. */
  onChange: (value: string) => void;
  error: string | null;
}

/** The "confirm your password" field of the security screens (reveal phrase, two-factor setup). */
export function ConfirmPasswordInput({ value, onChange, error }: ConfirmPasswordInputProps) {
  return (
    <PasswordInput
      label="Password"
      autoComplete="current-password"
      required
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}
