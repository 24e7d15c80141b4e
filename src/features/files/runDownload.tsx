/**
 * One download as the user sees it: a notice with its progress and a Cancel button while it runs,
 * then a snackbar when it fails or is cancelled. The file itself goes to disk through
 * src/platform/saveStream (the service worker's stream, or the Blob fallback).
 */
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { STREAM_CANCELLED } from '../../../workers/serviceWorker/downloadStreamProtocol';
import { CHUNK_TAMPERED_MESSAGE, DownloadError } from '../../sync/vaultActions';
import { showErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { actionErrorText } from '../vaults/vaultErrors';

export const PREPARING_DOWNLOAD_TEXT = 'Preparing your file for download. Large files may take a while.';
export const DOWNLOAD_CANCELLED_TEXT = 'Download cancelled.';

/** Progress of the whole download: bytes handed to the browser so far, and in all. */
export type ReportProgress = (receivedBytes: number, totalBytes: number) => void;

/** What the user reads when a download fails: the integrity message for a tampered chunk. */
export function downloadErrorText(error: unknown): string {
  if (error instanceof DownloadError && error.code === 'CHUNK_TAMPERED') return CHUNK_TAMPERED_MESSAGE;
  return actionErrorText('downloading the file');
}

function isCancelledByBrowser(error: unknown): boolean {
  return error instanceof Error && error.message === STREAM_CANCELLED;
}

function Notice({ percent, onCancel }: { percent: number | null; onCancel: () => void }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" style={{ flex: 1 }}>
        {percent === null ? PREPARING_DOWNLOAD_TEXT : `${PREPARING_DOWNLOAD_TEXT} ${percent}%`}
      </Text>
      <Button size="compact-xs" variant="subtle" onClick={onCancel} aria-label="Cancel download" style={{ flexShrink: 0 }}>
        Cancel
      </Button>
    </Group>
  );
}

/**
 * Runs `task` under a progress notice. Resolves true when it completed, false when it failed (an
 * error snackbar) or was cancelled, from the notice or in the browser's own download list.
 */
export async function runDownload(task: (signal: AbortSignal, report: ReportProgress) => Promise<void>): Promise<boolean> {
  const abort = new AbortController();
  let isCancelled = false;
  const cancel = () => {
    isCancelled = true;
    abort.abort(new Error(DOWNLOAD_CANCELLED_TEXT));
  };
  const options = { loading: true, autoClose: false, withCloseButton: false } as const;
  const id = notifications.show({ ...options, message: <Notice percent={null} onCancel={cancel} /> });
  let shown = -1;
  const report: ReportProgress = (received, total) => {
    const percent = total > 0 ? Math.min(100, Math.floor((received / total) * 100)) : 100;
    if (percent === shown) return;
    shown = percent;
    notifications.update({ ...options, id, message: <Notice percent={percent} onCancel={cancel} /> });
  };
  try {
    await task(abort.signal, report);
    return true;
  } catch (error) {
    if (isCancelled || isCancelledByBrowser(error)) {
      showSnackbar(DOWNLOAD_CANCELLED_TEXT);
    } else {
      console.warn('download failed', error);
      showErrorSnackbar(downloadErrorText(error));
    }
    return false;
  } finally {
    notifications.hide(id);
    // Whatever ended the download, nothing of it keeps fetching (a zip's pending entries).
    abort.abort(new Error(DOWNLOAD_CANCELLED_TEXT));
  }
}
