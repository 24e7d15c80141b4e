import { Badge, Button, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { MfaType } from '../../protocol/auth';
import { useServerConfig } from '../../app/serverConfigStore';
import { useSession } from '../account/useSession';
import { DisableMfaModal } from './DisableMfaModal';
import { BACK_TO_SECURITY, SettingsPage } from './SettingsPage';
import { describeTwoFactorMethod } from './twoFactorStatus';

const BASE = '/account/security/two-factor-authentication';

/** /account/security/two-factor-authentication: the current state and the method to set up. */
export function TwoFactorPage() {
  const navigate = useNavigate();
  const { user } = useSession();
  const current = user?.mfaType ?? null;
  // SMS only where the server can send text messages: otherwise the codes reach no phone and
  // turning it on would lock the user out (issue 20).
  const isSmsAvailable = useServerConfig().config?.smsAvailable ?? false;
  const [picked, setChoice] = useState<MfaType>(current === 'TOTP' && isSmsAvailable ? 'SMS' : 'TOTP');
  const choice: MfaType = picked === 'SMS' && !isSmsAvailable ? 'TOTP' : picked;
  // With the authenticator app on and no SMS, there is no other method to switch to.
  const hasOtherMethod = isSmsAvailable || current !== 'TOTP';
  const [isDisableOpen, disableModal] = useDisclosure(false);

  function handleSetup() {
    void navigate({ to: choice === 'TOTP' ? `${BASE}/totp` : `${BASE}/phone-number` });
  }

  return (
    <SettingsPage title="Two-factor authentication" back={BACK_TO_SECURITY}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="md">
          <Group gap="xs">
            <Text fw={500}>Status</Text>
            <Badge color={current ? 'teal' : 'gray'} variant="light">
              {current ? 'On' : 'Off'}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {current
              ? `Method: ${describeTwoFactorMethod(user) ?? ''}`
              : isSmsAvailable
                ? 'Add a second step to logging in: a code from an authenticator app or a text message.'
                : 'Add a second step to logging in: a code from an authenticator app.'}
          </Text>
          {hasOtherMethod && (
            <Radio.Group
              label={current ? 'Switch to another method' : 'Choose a method'}
              value={choice}
              onChange={(value) => setChoice(value === 'SMS' ? 'SMS' : 'TOTP')}
            >
              <Stack gap="xs" mt="xs">
                <Radio value="TOTP" label="Authenticator app" description="Recommended. Works offline." />
                {isSmsAvailable && <Radio value="SMS" label="SMS" description="A code sent to your phone by text message." />}
              </Stack>
            </Radio.Group>
          )}
          <Group gap="sm">
            {hasOtherMethod && (
              <Button onClick={handleSetup} disabled={choice === current}>
                Set up
              </Button>
            )}
            {current && (
              <Button variant="light" color="red" onClick={disableModal.open}>
                Turn off
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>
      <DisableMfaModal opened={isDisableOpen} onClose={disableModal.close} />
    </SettingsPage>
  );
}
