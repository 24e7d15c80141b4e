import { Checkbox, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { authService } from '../../account/authService';
import { showErrorSnackbar } from '../../../ui/snackbar';

/** Spec 001, snackbar texts: the upload-pending notice and its checkbox. */
export const UPLOAD_PENDING_TEXT =
  "Your uploads are pending. It may take a while to commit files to the blockchain depending on their size. You can still view, rename and move files while they're pending.";
export const DONT_SHOW_AGAIN_TEXT = "Don't show me this message again.";

/** Spec 000 section 4: upload snackbars auto-hide after 10 s. */
export const UPLOAD_SNACKBAR_MS = 10_000;
const NOTICE_ID = 'upload-pending';

function UploadPendingMessage({ onChange }: { onChange: (isChecked: boolean) => void }) {
  const [isChecked, setChecked] = useState(false);
  return (
    <Stack gap="xs">
      <Text size="sm">{UPLOAD_PENDING_TEXT}</Text>
      <Checkbox
        size="xs"
        label={DONT_SHOW_AGAIN_TEXT}
        checked={isChecked}
        onChange={(event) => {
          setChecked(event.currentTarget.checked);
          onChange(event.currentTarget.checked);
        }}
      />
    </Stack>
  );
}

/**
 * After an upload to a permanent vault, for a user whose `notifyOnUpload` is on (spec 000 section
 * 4, spec 001 "Upload notice"). Ticking the checkbox and then closing the notice (or letting it
 * hide) turns the attribute off.
 */
export function showUploadPendingNotice(): void {
  let isDontShowChecked = false;
  notifications.hide(NOTICE_ID);
  notifications.show({
    id: NOTICE_ID,
    message: <UploadPendingMessage onChange={(isChecked) => (isDontShowChecked = isChecked)} />,
    autoClose: UPLOAD_SNACKBAR_MS,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': 'Close the upload notice' },
    style: { maxWidth: 544 },
    onClose: () => {
      if (!isDontShowChecked) return;
      authService.updateAttributes({ notifyOnUpload: false }).catch((error: unknown) => {
        console.warn('Saving notifyOnUpload failed', error);
        showErrorSnackbar('Something went wrong, please try again later.');
      });
    },
  });
}
