import { Anchor, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { onStorageTxRejected } from '../../sync/storageTxSync';
import { UPLOAD_FAILED_TEXT } from './storageStatus';

/** Spec 000 section 4: upload snackbars auto-hide after 10 s. */
const UPLOAD_FAILED_MS = 10_000;

/**
 * Spec 000 section 8: when a storage transaction turns REJECTED, 'A file failed to upload to the
 * blockchain.' with a 'View transactions' link to /storage, once per transaction (the cache only
 * reports the change into REJECTED). Mounted once in the signed-in shell.
 */
export function useUploadFailedSnackbar(): void {
  const navigate = useNavigate();
  useEffect(
    () =>
      onStorageTxRejected((transaction) => {
        const id = `upload-failed-${transaction.id}`;
        notifications.show({
          id,
          color: 'red',
          autoClose: UPLOAD_FAILED_MS,
          withCloseButton: true,
          message: (
            <Group gap="xs" wrap="wrap">
              <Text size="sm">{UPLOAD_FAILED_TEXT}</Text>
              <Anchor
                component="button"
                type="button"
                size="sm"
                fw={700}
                onClick={() => {
                  notifications.hide(id);
                  void navigate({ to: '/storage' });
                }}
              >
                View transactions
              </Anchor>
            </Group>
          ),
        });
      }),
    [navigate],
  );
}
