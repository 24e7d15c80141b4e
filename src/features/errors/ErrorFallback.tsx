import { Anchor, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { ErrorPageLayout } from './ErrorPageLayout';
import { sendErrorReport } from './sendErrorReport';

interface ErrorFallbackProps {
  error: unknown;
  /** Renders the failed part again. */
  reset?: () => void;
}

type ReportState = 'idle' | 'sending' | 'sent' | 'failed';

/** What a crash shows, with an inline 'Send an error report.' that posts to /api/support. */
export function ErrorFallback({ error, reset }: ErrorFallbackProps) {
  const [report, setReport] = useState<ReportState>('idle');

  async function send() {
    setReport('sending');
    try {
      await sendErrorReport({ action: 'error-boundary', error });
      setReport('sent');
    } catch {
      setReport('failed');
    }
  }

  return (
    <ErrorPageLayout
      title="Something went wrong."
      actions={
        <Group justify="center">
          {reset && (
            <Button variant="default" onClick={reset}>
              Try again
            </Button>
          )}
          <Button onClick={() => window.location.reload()}>Reload Cairn</Button>
        </Group>
      }
    >
      <Text inherit>
        Cairn ran into an unexpected problem and could not show this page. Your vaults are safe: nothing was sent or
        deleted.
      </Text>
      <Text inherit aria-live="polite">
        If it happens again, let us know.{' '}
        {report === 'sent' ? (
          <Text span inherit fw={600} c="var(--mantine-primary-color-filled)">
            Sent!
          </Text>
        ) : (
          <Anchor component="button" type="button" inherit disabled={report === 'sending'} onClick={() => void send()}>
            Send an error report.
          </Anchor>
        )}
        {report === 'failed' && ' The report could not be sent; please try again later.'}
      </Text>
    </ErrorPageLayout>
  );
}
