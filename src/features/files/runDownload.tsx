/**
 * One download as the user sees it: a notice with its progress and a Cancel button while it runs,
 * then a snackbar when it fails or is cancelled. The file itself goes to disk through
 * src/platform/saveStream (the service worker's stream, or the Blob fallback).
 */
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { isStreamCancelled } from '../../../workers/serviceWorker/downloadStreamProtocol';
import { ExportError } from '../../sync/exportStored';
import { CHUNK_TAMPERED_MESSAGE, DownloadError, NOT_OFFLINE_MESSAGE } from '../../sync/vaultActions';
import { showErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { actionErrorText } from '../vaults/vaultErrors';

export const PREPARING_DOWNLOAD_TEXT = 'Preparing your file for download. Large files may take a while.';
export const DOWNLOAD_CANCELLED_TEXT = 'Download cancelled.';

/** Files of a zip written in full so far, and in all. */
export interface FileCount {
  done: number;
  total: number;
}

/** Progress of the whole download: bytes handed to the browser so far, and in all; a zip's file count. */
export type ReportProgress = (receivedBytes: number, totalBytes: number, files?: FileCount) => void;

/**
 * What the user reads when a download fails: the integrity message for a tampered chunk, and what
 * to do for a file that is not on this device while offline.
 */
export function downloadErrorText(error: unknown): string {
  // An export's error already names the file and says why (src/sync/exportStored.ts).
  if (error instanceof ExportError) return error.message;
  if (error instanceof DownloadError && error.code === 'CHUNK_TAMPERED') return CHUNK_TAMPERED_MESSAGE;
  if (error instanceof DownloadError && error.code === 'OFFLINE') return NOT_OFFLINE_MESSAGE;
  return actionErrorText('downloading the file');
}

/** '40%', or for a zip '12 of 40 files, 40%'. */
export function progressText(percent: number | null, files?: FileCount): string {
  const count = files ? `${files.done.toLocaleString('en-US')} of ${files.total.toLocaleString('en-US')} ${files.total === 1 ? 'file' : 'files'}` : null;
  if (percent === null) return count ?? '';
  return count ? `${count}, ${percent}%` : `${percent}%`;
}

function Notice({ percent, files, onCancel }: { percent: number | null; files?: FileCount; onCancel: () => void }) {
  const progress = progressText(percent, files);
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="sm" style={{ flex: 1 }}>
        {PREPARING_DOWNLOAD_TEXT}
        {progress && (
          <>
            <br />
            <Text span size="sm" c="dimmed" aria-live="polite">
              {progress}
            </Text>
          </>
        )}
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
  let shown = '';
  const report: ReportProgress = (received, total, files) => {
    const percent = total > 0 ? Math.min(100, Math.floor((received / total) * 100)) : 100;
    // Re-rendered only when what it says changes (a zip reports every chunk of every file).
    const text = progressText(percent, files);
    if (text === shown) return;
    shown = text;
    notifications.update({ ...options, id, message: <Notice percent={percent} files={files} onCancel={cancel} /> });
  };
  try {
    await task(abort.signal, report);
    return true;
  } catch (error) {
    if (isCancelled || isStreamCancelled(error)) {
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
