import { Paper, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useThemeMode } from '../../app/theme';
import { ThemeMode } from '../../protocol/auth';
import { errorMessageOf } from '../signup/errorCode';
import { BACK_TO_ACCOUNT, SettingsPage } from './SettingsPage';

const OPTIONS: { value: ThemeMode; label: string; description: string }[] = [
  { value: 'dark', label: 'Dark mode', description: 'Light text on a dark background.' },
  { value: 'light', label: 'Light mode', description: 'Dark text on a light background.' },
  { value: 'auto', label: 'Auto', description: 'Follows your device’s setting.' },
];

/** /account/display: Dark mode, Light mode or Auto, applied at once and saved to the account. */
export function DisplayPage() {
  const { mode, setMode } = useThemeMode();
  const [error, setError] = useState<string | null>(null);

  function handleChange(value: string) {
    const parsed = ThemeMode.safeParse(value);
    if (!parsed.success) return;
    setError(null);
    setMode(parsed.data).catch((err: unknown) => setError(errorMessageOf(err)));
  }

  return (
    <SettingsPage title="Display" back={BACK_TO_ACCOUNT}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="sm">
          <Radio.Group label="Theme" value={mode} onChange={handleChange}>
            <Stack gap="sm" mt="xs">
              {OPTIONS.map((option) => (
                <Radio key={option.value} value={option.value} label={option.label} description={option.description} />
              ))}
            </Stack>
          </Radio.Group>
          {error && (
            <Text c="red" size="sm" role="alert">
              {error}
            </Text>
          )}
        </Stack>
      </Paper>
    </SettingsPage>
  );
}
