import { List, Modal, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { authService } from '../account/authService';
import { ConfirmFooter } from '../../ui/ConfirmFooter';

interface DeleteAccountModalProps {
  opened: boolean;
  onClose: () => void;
}

/** The delete-account confirmation (spec 001 section 8: deleted within 24 hours). */
export function DeleteAccountModal({ opened, onClose }: DeleteAccountModalProps) {
  const navigate = useNavigate();
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleConfirm() {
    setLoading(true);
    setError(null);
    try {
      await authService.deleteAccount();
      onClose();
      await navigate({ to: '/login', replace: true });
    } catch (err) {
      console.error('Account deletion failed', err);
      setError('Your account could not be deleted. Please try again.');
      setLoading(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Delete account" centered>
      <Stack gap="md">
        <Text size="sm">Are you sure you want to delete your account?</Text>
        <List size="sm" spacing={4}>
          <List.Item>Your account and the data only you hold will be deleted within 24 hours.</List.Item>
          <List.Item>
            Vault data you shared stays with the people who hold it: members keep what they already have access to.
          </List.Item>
          <List.Item>This cannot be undone.</List.Item>
        </List>
        <ConfirmFooter error={error} isLoading={isLoading} confirmLabel="Delete account" onCancel={onClose} onConfirm={handleConfirm} />
      </Stack>
    </Modal>
  );
}
