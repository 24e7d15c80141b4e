import { Badge, Button, Group, Paper, Radio, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { MfaType } from '../../protocol/auth';
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
  const [choice, setChoice] = useState<MfaType>(current === 'TOTP' ? 'SMS' : 'TOTP');
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
              : 'Add a second step to logging in: a code from an authenticator app or a text message.'}
          </Text>
          <Radio.Group
            label={current ? 'Switch to another method' : 'Choose a method'}
            value={choice}
            onChange={(value) => setChoice(value === 'SMS' ? 'SMS' : 'TOTP')}
          >
            <Stack gap="xs" mt="xs">
              <Radio value="TOTP" label="Authenticator app" description="Recommended. Works offline." />
              <Radio value="SMS" label="SMS" description="A code sent to your phone by text message." />
            </Stack>
          </Radio.Group>
          <Group gap="sm">
            <Button onClick={handleSetup} disabled={choice === current}>
              Set up
            </Button>
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
