import { Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { authService } from '../account/authService';
import { errorMessageOf } from '../signup/errorCode';
import { ConfirmFooter } from '../../ui/ConfirmFooter';

interface DisableMfaModalProps {
  opened: boolean;
  onClose: () => void;
}

/** Confirmation before two-factor authentication is turned off. */
export function DisableMfaModal({ opened, onClose }: DisableMfaModalProps) {
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleConfirm() {
    setLoading(true);
    setError(null);
    try {
      // The service updates the session's user.
      await authService.disableMfa();
      notifications.show({ message: 'Two-factor authentication is off.' });
      onClose();
    } catch (err) {
      setError(errorMessageOf(err));
    } finally {
      setLoading(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Turn off two-factor authentication" centered>
      <Stack gap="md">
        <Text size="sm">
          Without a second factor, anyone who learns your password can log in to your account. Are you sure?
        </Text>
        <ConfirmFooter error={error} isLoading={isLoading} confirmLabel="Turn off" onCancel={onClose} onConfirm={handleConfirm} />
      </Stack>
    </Modal>
  );
}
