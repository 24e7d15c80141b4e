import { Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { cancelledText, isCancellable, summariseUploads, type UploadStage, uploadFailureText } from '../../../domain/uploadRules';
import type { UploadRecord } from '../../../storage/vaultRecords';
import { useUploadsOnceRead } from '../../../storage/vaultStore';
import { cancelUpload, retryUpload, UPLOAD_FAILED_MESSAGE } from '../../../sync/vaultActions';
import { showSnackbar } from '../../../ui/snackbar';
import { UploadRows } from './UploadRows';
import { NotUploadedModal } from './NotUploadedModal';
import { clearUnpackFailures, useUnpackFailures } from './unpackFailureStore';

/** Spec 000 section 9: the finishing state shows 1 s after 100 %. */
const FINISH_DELAY_MS = 1000;
const DONE_VISIBLE_MS = 3000;

/** Spec 000 section 4 for uploading, finalising and done; plain words for the others (docs/decisions.md). */
const STAGE_TEXT: Record<UploadStage, string> = {
  queued: 'Waiting to upload...',
  resuming: 'Resuming your upload...',
  uploading: 'Encrypting and uploading...',
  paused: 'Upload paused: waiting for the connection...',
  finalising: 'Finalising your upload...',
  done: 'Upload complete',
  failed: 'Some files were not uploaded',
};
const PAUSED_HINT = 'It goes on by itself when the connection is back.';

/** The upload progress box, bottom right (full width on a phone), over every screen (spec 000 section 2). */
const NO_UPLOADS: UploadRecord[] = [];

export function UploadProgressBox() {
  const read = useUploadsOnceRead();
  const uploads = read ?? NO_UPLOADS;
  const isPhone = useMediaQuery('(max-width: 41.6875em)');
  // Batches settled before this tab opened (or already dismissed) stay out of the box.
  const [hidden, setHidden] = useState<ReadonlySet<string> | null>(null);
  const [isFinished, setFinished] = useState(false);
  const [isRetryOpen, setRetryOpen] = useState(false);

  useEffect(() => {
    // Decided once, on the first real read: an empty answer while loading would show every batch
    // settled before this tab opened (one closed before a reload, say) as soon as the read lands.
    if (hidden !== null || read === undefined) return;
    const open = new Set(uploads.filter((u) => isCancellable(u.state) || u.state === 'finalising').map((u) => u.batchId));
    setHidden(new Set(uploads.map((u) => u.batchId).filter((id) => !open.has(id))));
  }, [read, uploads, hidden]);

  const visible = useMemo(() => (hidden === null ? [] : uploads.filter((u) => !hidden.has(u.batchId))), [uploads, hidden]);
  // Archive entries that could not be unpacked count as failed files of their batch.
  const unpackFailures = useUnpackFailures();
  const visibleBatches = useMemo(() => [...new Set(visible.map((u) => u.batchId))], [visible]);
  const notUnpacked = visibleBatches.flatMap((id) => unpackFailures.get(id) ?? []);
  const uploadSummary = summariseUploads(visible);
  const summary = { ...uploadSummary, total: uploadSummary.total + notUnpacked.length, failed: uploadSummary.failed + notUnpacked.length };
  const hideAll = () => {
    clearUnpackFailures(visibleBatches);
    setHidden(new Set([...(hidden ?? []), ...visible.map((u) => u.batchId)]));
    setFinished(false);
    setRetryOpen(false);
  };

  useEffect(() => {
    if (visible.length === 0 || !summary.isSettled) {
      setFinished(false);
      return;
    }
    const timer = setTimeout(() => {
      setFinished(true);
      if (summary.failed > 0) setRetryOpen(true);
    }, FINISH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [visible.length, summary.isSettled, summary.failed]);

  useEffect(() => {
    if (!isFinished || summary.failed > 0) return;
    const timer = setTimeout(hideAll, DONE_VISIBLE_MS);
    return () => clearTimeout(timer);
  });

  async function cancel(targets: readonly UploadRecord[]) {
    const moving = targets.filter((u) => isCancellable(u.state));
    await Promise.allSettled(moving.map((u) => cancelUpload(u.uploadId)));
    if (moving.length > 0) showSnackbar(cancelledText(moving.length));
  }

  const cancelOne = (one: UploadRecord) => void cancel([one]);

  async function retry() {
    setRetryOpen(false);
    setFinished(false);
    await Promise.allSettled(visible.filter((u) => u.state === 'failed').map((u) => retryUpload(u.uploadId)));
  }

  if (visible.length === 0 || summary.total === 0) return null;
  const isSettling = summary.stage === 'done' || summary.stage === 'failed';
  const stage: UploadStage = isFinished ? summary.stage : isSettling ? 'finalising' : summary.stage;
  const canCancel = visible.some((u) => isCancellable(u.state));
  const failedUploads = visible.filter((u) => u.state === 'failed');

  return (
    <>
      <Paper
        withBorder
        shadow="md"
        radius={isPhone ? 0 : 'md'}
        p="md"
        role="status"
        aria-live="polite"
        style={{ position: 'fixed', zIndex: 300, ...(isPhone ? { left: 0, right: 0, bottom: 64 } : { right: 24, bottom: 24, width: 360 }) }}
      >
        <Stack gap="xs">
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600} size="sm">
              {STAGE_TEXT[stage]}
            </Text>
            <Text size="sm" c="dimmed">
              {summary.percent}%
            </Text>
          </Group>
          {stage === 'paused' ? (
            <Text size="xs" c="dimmed">
              {PAUSED_HINT}
            </Text>
          ) : null}
          {/* Striped while under way, but not animated: moving stripes repaint the page every
              frame for the whole upload, CPU the upload itself needs (npm run bench). */}
          <Progress value={summary.percent} aria-label="Upload progress" striped={stage !== 'done' && stage !== 'failed' && stage !== 'paused'} />
          <UploadRows uploads={visible} onCancel={cancelOne} />
          <Group justify="space-between" wrap="nowrap">
            <Text size="xs" c="dimmed">
              {summary.done} of {summary.total} files
            </Text>
            {canCancel ? (
              <Button size="compact-xs" variant="subtle" color="gray" onClick={() => void cancel(visible)}>
                Cancel
              </Button>
            ) : stage === 'done' || stage === 'failed' ? (
              <Button size="compact-xs" variant="subtle" color="gray" onClick={hideAll}>
                Close
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Paper>
      <NotUploadedModal
        opened={isRetryOpen}
        uploaded={summary.done}
        total={summary.total}
        failures={[...failedUploads.map((u) => ({ name: u.name, message: u.error ?? UPLOAD_FAILED_MESSAGE })), ...notUnpacked]}
        canRetry={failedUploads.length > 0}
        onClose={hideAll}
        onRetry={() => void retry()}
      />
    </>
  );
}
