import { ActionIcon, Group, Text } from '@mantine/core';
import { isCancellable, uploadProgressText } from '../../../domain/uploadRules';
import type { UploadRecord } from '../../../storage/vaultRecords';
import { IconX } from '../../../ui/icons';

/** One file's line in the upload progress box: name, state (with its share sent) and cancel. */
export function UploadProgressRow({ upload, onCancel }: { upload: UploadRecord; onCancel: (upload: UploadRecord) => void }) {
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between" data-testid="upload-row">
      <Text size="xs" truncate style={{ flex: 1, minWidth: 0 }} title={upload.name}>
        {upload.name}
      </Text>
      <Text size="xs" c={upload.state === 'failed' ? 'red' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
        {uploadProgressText(upload)}
      </Text>
      {isCancellable(upload.state) ? (
        <ActionIcon size="xs" variant="subtle" color="gray" aria-label={`Cancel upload of ${upload.name}`} onClick={() => onCancel(upload)}>
          <IconX size={12} />
        </ActionIcon>
      ) : null}
    </Group>
  );
}
