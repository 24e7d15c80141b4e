import { Accordion, Badge, Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { formatDateTime } from '../../domain/formatting';
import type { WebhookLog } from '../../protocol/developers';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconSend } from '../../ui/icons';
import { NotLoaded } from './useLoaded';
import { DEVELOPER_TEXTS } from './developerTexts';
import type { WebhookLogState } from './WebhookLogFeed';

/** 'Delivered 200', 'Failed 500', or 'Failed' when no answer came (refused address, timeout). */
export function deliveryStatusText(log: WebhookLog): string {
  const code = log.responseStatusCode === null ? '' : ` ${log.responseStatusCode}`;
  return `${log.deliveryStatus ? 'Delivered' : 'Failed'}${code}`;
}

/** A body as the receiver got or gave it: text in a block, never read as HTML. */
function Body({ label, text }: { label: string; text: string }) {
  return (
    <Stack gap={4}>
      <Text size="xs" fw={600}>
        {label}
      </Text>
      <Code block aria-label={label} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 240, overflow: 'auto' }}>
        {text === '' ? '(empty)' : text}
      </Code>
    </Stack>
  );
}

/** One delivery, an item of the log's accordion: its summary, opening onto its bodies. */
export function WebhookLogEntry({ log }: { log: WebhookLog }) {
  return (
    <Accordion.Item value={log.id} data-testid="webhook-log-entry">
      <Accordion.Control>
        <Group gap="xs" wrap="wrap" justify="space-between" pr="xs">
          <Code>{log.event}</Code>
          <Group gap="xs" wrap="wrap">
            <Text size="sm" c="dimmed">
              {formatDateTime(log.createdAt)}
            </Text>
            <Badge variant="light" color={log.deliveryStatus ? 'green' : 'red'}>
              {deliveryStatusText(log)}
            </Badge>
            <Text size="xs" c="dimmed">
              Attempt {log.attempt}
            </Text>
          </Group>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="sm">
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            Sent to {log.url}
          </Text>
          <Body label="Request body" text={log.requestBody} />
          <Body label="Response body" text={log.responseBody} />
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/**
 * The delivery log (spec 002 sections 7, 8 and 10): each entry's event, time (DD/MM/YYYY
 * HH:mm:ss), status and attempt, opening onto its request and response bodies; 'See more' while
 * there is a next page; the empty state when nothing was delivered.
 */
export function WebhookLogList({ state, onSeeMore, onRetry }: { state: WebhookLogState; onSeeMore: () => void; onRetry: () => void }) {
  let body;
  if ((state.status === 'loading' || state.status === 'error') && state.items.length === 0) {
    const notReady = state.status === 'error' ? { status: 'error' as const, message: state.error ?? '' } : { status: 'loading' as const };
    body = <NotLoaded state={notReady} loadingLabel="Loading the delivery log" failedTitle="Delivery log not loaded" onRetry={onRetry} />;
  } else if (state.items.length === 0) {
    body = <EmptyPanel icon={<IconSend size={28} />} title={DEVELOPER_TEXTS.noDeliveries} description="Each delivery to your webhook, and each retry, is listed here as it happens." />;
  } else {
    body = (
      <Stack gap="sm">
        <Accordion variant="separated" multiple aria-label="Webhook deliveries">
          {state.items.map((log) => (
            <WebhookLogEntry key={log.id} log={log} />
          ))}
        </Accordion>
        {state.status === 'ready' && state.error && (
          <Text c="red" size="sm" role="alert">
            {state.error}
          </Text>
        )}
        {state.status === 'ready' && state.nextToken !== null && (
          <Group justify="center">
            <Button variant="default" loading={state.isLoadingMore} onClick={onSeeMore}>
              See more
            </Button>
          </Group>
        )}
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Delivery log
      </Title>
      {body}
    </Stack>
  );
}
