import { Paper } from '@mantine/core';
import { BACK_TO_TWO_FACTOR, SettingsPage } from './SettingsPage';
import { TotpSetupStep } from './TotpSetupStep';
import { TotpVerifyStep } from './TotpVerifyStep';

/** /account/security/two-factor-authentication/totp and /totp/verify. */
export function TwoFactorTotpPage({ step }: { step: 'setup' | 'verify' }) {
  return (
    <SettingsPage title="Authenticator app" back={BACK_TO_TWO_FACTOR}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        {step === 'verify' ? <TotpVerifyStep /> : <TotpSetupStep />}
      </Paper>
    </SettingsPage>
  );
}
