import { Button, Code, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { formatDate } from '../../domain/formatting';
import type { Webhook } from '../../protocol/developers';
import { getApiClient } from '../../platform/apiClient';
import { useRealtimeOpen } from '../../sync/syncStatus';
import { subscribeWebhookLogs } from '../../sync/webhookLogStream';
import { confirmAction } from '../../ui/confirmAction';
import { showErrorSnackbar } from '../../ui/snackbar';
import { createWebhook, getWebhook, removeWebhook } from './developersApi';
import { canConfigureWebhook, DEVELOPER_TEXTS, failureText } from './developerTexts';
import { WebhookLogFeed } from './WebhookLogFeed';
import { WebhookLogList } from './WebhookLogList';
import { NotLoaded, ShownOnce, useLoaded } from './useLoaded';


const LOAD_FAILED = 'Your webhook could not be loaded. Check your connection and try again.';

/** The URL field and Configure, enabled only for a URL the spec accepts (spec 002 section 5). */
export function ConfigureWebhookForm({ url, isBusy, onUrlChange, onConfigure }: { url: string; isBusy: boolean; onUrlChange: (url: string) => void; onConfigure: () => void }) {
  const isValid = canConfigureWebhook(url);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (isValid && !isBusy) onConfigure();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="Webhook URL"
          description="Where to send events. It must start with https://."
          placeholder="https://example.com/cairn-events"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={url}
          onChange={(event) => onUrlChange(event.currentTarget.value)}
        />
        <Group>
          <Button type="submit" disabled={!isValid} loading={isBusy}>
            Configure
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** How a receiver checks a delivery (Standard Webhooks). */
function VerifyHowTo() {
  return (
    <Text size="sm" c="dimmed">
      Each delivery is a POST with a JSON body (its event's type, a timestamp and ids, never a name or a file's content) and the Standard
      Webhooks headers <Code>webhook-id</Code>, <Code>webhook-timestamp</Code> and <Code>webhook-signature</Code>. The signature is{' '}
      <Code>v1,</Code> then the base64 HMAC-SHA256 of <Code>{'{webhook-id}.{webhook-timestamp}.{body}'}</Code>, keyed with the secret's part after{' '}
      <Code>whsec_</Code> decoded from base64. A delivery that is not answered with a 2xx status is tried again later.
    </Text>
  );
}

/** The delivery log's feed for as long as the tab is open, fed by the socket. */
function useWebhookLogFeed(): WebhookLogFeed {
  const [feed] = useState(() => new WebhookLogFeed(getApiClient()));
  useEffect(() => {
    // Listening starts before the read, so an entry delivered meanwhile is not missed.
    const unsubscribe = subscribeWebhookLogs((log) => feed.receive(log));
    void feed.loadFirst();
    return unsubscribe;
  }, [feed]);
  // Entries delivered while the socket was down were announced to no one: caught up on reopen.
  const isOpen = useRealtimeOpen();
  const wasOpen = useRef(isOpen);
  useEffect(() => {
    if (isOpen && !wasOpen.current) void feed.catchUp();
    wasOpen.current = isOpen;
  }, [feed, isOpen]);
  return feed;
}

/**
 * /account/developers/webhook (spec 002 sections 4, 5 and 7): Configure when there is no webhook,
 * Remove when there is one; the signing secret shown once; the delivery log below.
 */
export function WebhookTab() {
  const { state, reload, set } = useLoaded(() => getWebhook(getApiClient()), LOAD_FAILED);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const feed = useWebhookLogFeed();
  const logs = useSyncExternalStore(feed.subscribe, () => feed.current);

  const configure = async () => {
    setBusy(true);
    try {
      const made = await createWebhook(getApiClient(), url.trim());
      set(made.webhook);
      setSecret(made.secret);
      setUrl('');
    } catch (error) {
      showErrorSnackbar(failureText(error, DEVELOPER_TEXTS.webhookAddFailed));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (webhook: Webhook) => {
    setBusy(true);
    try {
      await removeWebhook(getApiClient(), webhook.id);
      set(null);
      setSecret(null);
    } catch (error) {
      showErrorSnackbar(failureText(error, DEVELOPER_TEXTS.webhookRemoveFailed));
    } finally {
      setBusy(false);
    }
  };

  let settings;
  if (state.status !== 'ready') {
    settings = <NotLoaded state={state} loadingLabel="Loading your webhook" failedTitle="Webhook not loaded" onRetry={reload} />;
  } else if (state.value === null) {
    settings = <ConfigureWebhookForm url={url} isBusy={isBusy} onUrlChange={setUrl} onConfigure={() => void configure()} />;
  } else {
    const webhook = state.value;
    settings = (
      <Stack gap="sm">
        <Text size="sm">Events are sent to:</Text>
        <Code block aria-label="Configured webhook URL" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {webhook.url}
        </Code>
        <Text size="sm" c="dimmed">
          Configured on {formatDate(webhook.createdAt)}.
        </Text>
        {secret && <ShownOnce title="Your signing secret" value={secret} label="Signing secret" copyLabel="Copy the signing secret" testId="webhook-secret" note={DEVELOPER_TEXTS.secretShownOnce} />}
        <Group>
          <Button
            color="red"
            variant="light"
            loading={isBusy}
            onClick={() =>
              confirmAction({
                title: 'Remove the webhook?',
                message: 'Events are no longer sent to this URL.',
                confirmLabel: 'Remove',
                isDanger: true,
                onConfirm: () => void remove(webhook),
              })
            }
          >
            Remove
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            Your webhook
          </Title>
          {settings}
          <VerifyHowTo />
        </Stack>
      </Paper>
      <WebhookLogList state={logs} onSeeMore={() => void feed.loadMore()} onRetry={() => void feed.loadFirst()} />
    </Stack>
  );
}
