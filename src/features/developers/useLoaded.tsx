import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { CopyableCode } from '../../ui/CopyableCode';
import { failureText } from './developerTexts';

export type Loaded<T> = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; value: T };

/**
 * One value a tab loads when it opens: its state, a `reload` for Try again, and `set` for the
 * value an action answered (a new key, a configured webhook) so the tab shows it without asking again.
 */
export function useLoaded<T>(fetch: () => Promise<T>, failedText: string) {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const reload = useCallback(() => {
    setState({ status: 'loading' });
    fetch()
      .then((value) => setState({ status: 'ready', value }))
      .catch((error: unknown) => setState({ status: 'error', message: failureText(error, failedText) }));
    // `fetch` is a module function of the tab; the text is a constant.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(reload, [reload]);
  const set = useCallback((value: T) => setState({ status: 'ready', value }), []);
  return { state, reload, set };
}

/** The loader, or the failure with Try again, while a tab's value is not ready. */
export function NotLoaded({ state, loadingLabel, failedTitle, onRetry }: { state: Exclude<Loaded<unknown>, { status: 'ready' }>; loadingLabel: string; failedTitle: string; onRetry: () => void }) {
  if (state.status === 'loading') {
    return (
      <Center py="lg">
        <Loader aria-label={loadingLabel} />
      </Center>
    );
  }
  return (
    <Alert color="red" title={failedTitle} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{state.message}</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}

/** A secret the server shows this once (a new API key, a webhook's signing secret), with Copy and the warning. */
export function ShownOnce({ title, value, label, copyLabel, testId, note }: { title: string; value: string; label: string; copyLabel: string; testId: string; note: string }) {
  return (
    <Alert color="yellow" title={title} role="status">
      <Stack gap="xs">
        <CopyableCode value={value} copyLabel={copyLabel} codeProps={{ 'aria-label': label, 'data-testid': testId }} />
        <Text size="sm">{note}</Text>
      </Stack>
    </Alert>
  );
}
