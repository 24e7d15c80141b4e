import { List, Modal, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { authService } from '../account/authService';
import { useSession } from '../account/useSession';
import { getDb } from '../../storage/db';
import { getVault } from '../../storage/vaultStore';
import { blockingVaultIds, deleteAccountBlockedText } from './deleteAccountRules';
import { ConfirmFooter } from '../../ui/ConfirmFooter';

interface DeleteAccountModalProps {
  opened: boolean;
  onClose: () => void;
}

/** The delete-account confirmation (spec 001 section 8: deleted within 24 hours). */
export function DeleteAccountModal({ opened, onClose }: DeleteAccountModalProps) {
  const navigate = useNavigate();
  const { user } = useSession();

  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  /** The names this device knows for the vaults the server named (null where it has none). */
  async function vaultNames(vaultIds: string[]): Promise<(string | null)[]> {
    if (!user) return vaultIds.map(() => null);
    return Promise.all(vaultIds.map(async (id) => (await getVault(getDb(), user.id, id).catch(() => undefined))?.name || null));
  }

  async function handleConfirm() {
    setLoading(true);
    setError(null);
    try {
      await authService.deleteAccount();
      onClose();
      await navigate({ to: '/login', replace: true });
    } catch (err) {
      console.error('Account deletion failed', err);
      const blocking = blockingVaultIds(err);
      setError(blocking ? deleteAccountBlockedText(await vaultNames(blocking)) : 'Your account could not be deleted. Please try again.');
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
            Vaults you share pass to their other owners, and members keep what they have access to. While you are the only owner
            of a vault others use, make one of them an owner first.
          </List.Item>
          <List.Item>This cannot be undone.</List.Item>
        </List>
        <ConfirmFooter error={error} isLoading={isLoading} confirmLabel="Delete account" onCancel={onClose} onConfirm={handleConfirm} />
      </Stack>
    </Modal>
  );
}
