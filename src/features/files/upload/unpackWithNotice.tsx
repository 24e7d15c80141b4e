/**
 * Unpacking a picked .zip as the user sees it: a notice with the entries handled so far and a
 * Cancel button while the worker runs (the archive can be large, and everything happens on this
 * device before the upload dialog opens), then a snackbar when it is cancelled.
 */
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { unpackZip } from '../../../platform/unzipClient';
import { showSnackbar } from '../../../ui/snackbar';
import type { UnpackResult } from '../../../../workers/zip/UnzipApi';

export const UNPACKING_CANCELLED_TEXT = 'Unpacking cancelled.';

export function unpackingText(zipName: string, done?: number, total?: number): string {
  return total === undefined ? `Unpacking ${zipName}...` : `Unpacking ${zipName}... ${done} of ${total}`;
}

function Notice({ text, onCancel }: { text: string; onCancel: () => void }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" style={{ flex: 1, overflowWrap: 'anywhere' }}>
        {text}
      </Text>
      <Button size="compact-xs" variant="subtle" onClick={onCancel} aria-label="Cancel unpacking" style={{ flexShrink: 0 }}>
        Cancel
      </Button>
    </Group>
  );
}

/**
 * Unpacks `zip` under a progress notice. Answers the result, or null when the user cancelled
 * (the worker is ended at once and nothing is uploaded); rejects when the archive cannot be read.
 */
export async function unpackWithNotice(zip: File): Promise<UnpackResult | null> {
  const abort = new AbortController();
  const options = { loading: true, autoClose: false, withCloseButton: false } as const;
  const cancel = () => abort.abort();
  const id = notifications.show({ ...options, message: <Notice text={unpackingText(zip.name)} onCancel={cancel} /> });
  try {
    const onProgress = (done: number, total: number) => notifications.update({ ...options, id, message: <Notice text={unpackingText(zip.name, done, total)} onCancel={cancel} /> });
    return await unpackZip(zip, { onProgress, signal: abort.signal });
  } catch (error) {
    if (!abort.signal.aborted) throw error;
    showSnackbar(UNPACKING_CANCELLED_TEXT);
    return null;
  } finally {
    notifications.hide(id);
  }
}
