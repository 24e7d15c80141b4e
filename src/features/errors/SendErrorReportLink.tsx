import { Anchor, Text } from '@mantine/core';
import { useState } from 'react';
import { type ErrorReport, sendErrorReport } from './sendErrorReport';

type ReportState = 'idle' | 'sending' | 'sent' | 'failed';

/**
 * The inline 'Send an error report.' link (spec 000 section 8), which reads 'Sent!' once the
 * report is posted. A failed report is only logged, as the spec says, with a short note.
 */
export function SendErrorReportLink({ report }: { report: ErrorReport }) {
  const [state, setState] = useState<ReportState>('idle');

  async function send() {
    setState('sending');
    try {
      await sendErrorReport(report);
      setState('sent');
    } catch (error) {
      console.warn('The error report could not be sent', error);
      setState('failed');
    }
  }

  if (state === 'sent') {
    return (
      <Text span inherit fw={600} c="var(--mantine-primary-color-filled)">
        Sent!
      </Text>
    );
  }
  return (
    <>
      <Anchor component="button" type="button" inherit disabled={state === 'sending'} onClick={() => void send()}>
        Send an error report.
      </Anchor>
      {state === 'failed' && ' The report could not be sent; please try again later.'}
    </>
  );
}
