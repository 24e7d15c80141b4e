import { Paper } from '@mantine/core';
import { PhoneSetupStep } from './PhoneSetupStep';
import { PhoneVerifyStep } from './PhoneVerifyStep';
import { BACK_TO_TWO_FACTOR, SettingsPage } from './SettingsPage';

/** /account/security/two-factor-authentication/phone-number and /phone-number/verify. */
export function TwoFactorPhonePage({ step }: { step: 'setup' | 'verify' }) {
  return (
    <SettingsPage title="SMS" back={BACK_TO_TWO_FACTOR}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        {step === 'verify' ? <PhoneVerifyStep /> : <PhoneSetupStep />}
      </Paper>
    </SettingsPage>
  );
}
