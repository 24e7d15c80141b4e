import { Button, Group, Text } from '@mantine/core';
import { ErrorPageLayout } from './ErrorPageLayout';
import { SendErrorReportLink } from './SendErrorReportLink';

interface ErrorFallbackProps {
  error: unknown;
  /** Renders the failed part again. */
  reset?: () => void;
}

/** What a crash shows, with an inline 'Send an error report.' that posts to /api/support. */
export function ErrorFallback({ error, reset }: ErrorFallbackProps) {
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
        <SendErrorReportLink report={{ action: 'error-boundary', error }} />
      </Text>
    </ErrorPageLayout>
  );
}
