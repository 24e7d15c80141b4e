import { Anchor, Button, Code, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { formatDate, formatDateTime } from '../../domain/formatting';
import type { ApiKeyInfo } from '../../protocol/developers';
import { getApiClient } from '../../platform/apiClient';
import { confirmAction } from '../../ui/confirmAction';
import { showErrorSnackbar } from '../../ui/snackbar';
import { getApiKeyInfo, putApiKey } from './developersApi';
import { DEVELOPER_TEXTS, failureText, OPENAPI_URL } from './developerTexts';
import { NotLoaded, ShownOnce, useLoaded } from './useLoaded';


const LOAD_FAILED = 'Your API key could not be loaded. Check your connection and try again.';

export interface ApiKeyPanelProps {
  info: ApiKeyInfo;
  /** The key just made: shown this once, gone when the page is left. */
  newKey: string | null;
  isBusy: boolean;
  onGenerate: () => void;
  onRotate: () => void;
}

/** The key's state, usage and actions; what ApiKeyTab shows once the key's information is read. */
export function ApiKeyPanel({ info, newKey, isBusy, onGenerate, onRotate }: ApiKeyPanelProps) {
  const { limit, period } = info.usagePlan;
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            Your API key
          </Title>
          {info.exists ? (
            <Text size="sm">
              Your key ends in <Code>…{info.hint}</Code>
              {info.createdAt !== null && <> and was made on {formatDate(info.createdAt)}</>}. Rotating it makes a new key; the old one stops
              working at once.
            </Text>
          ) : (
            <Text size="sm">You have no API key yet. A key lets scripts and the cairn command act for your account.</Text>
          )}
          {newKey && <ShownOnce title="Your new API key" value={newKey} label="New API key" copyLabel="Copy the API key" testId="new-api-key" note={DEVELOPER_TEXTS.keyShownOnce} />}
          <Group>
            {info.exists ? (
              <Button variant="default" loading={isBusy} onClick={onRotate}>
                Rotate
              </Button>
            ) : (
              <Button loading={isBusy} onClick={onGenerate}>
                Generate
              </Button>
            )}
          </Group>
        </Stack>
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Usage
          </Title>
          <Text size="sm">
            {info.used} of {limit} requests used this period
          </Text>
          <Progress value={Math.min(100, (info.used / limit) * 100)} aria-label="Requests used this period" color={info.used >= limit ? 'red' : undefined} />
          <Text size="sm" c="dimmed">
            A period lasts one {period}; the count starts again on {formatDateTime(info.periodEndsAt)}. Requests in all: {info.total}.
          </Text>
          <Text size="sm" c="dimmed">
            {DEVELOPER_TEXTS.usageDelay}
          </Text>
        </Stack>
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Use it
          </Title>
          <Text size="sm">
            The cairn command signs in with your API key and your recovery phrase and does the encryption on your computer, so what it uploads
            opens here and the reverse. Sign in with:
          </Text>
          <Code block>npx cairn login</Code>
          <Text size="sm">
            It reads the key and the phrase from standard input, never from the command line. Then <Code>npx cairn ls</Code>,{' '}
            <Code>npx cairn upload</Code> and <Code>npx cairn download</Code>; <Code>npx cairn --help</Code> tells more.
          </Text>
          <Text size="sm">
            Send the key as <Code>Authorization: Bearer</Code> followed by the key.{' '}
            <Anchor href={OPENAPI_URL} target="_blank" rel="noopener noreferrer">
              API reference
            </Anchor>
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}

/** /account/developers/api-key: Generate when there is no key, Rotate when there is one (spec 002 section 4). */
export function ApiKeyTab() {
  const { state, reload, set } = useLoaded(() => getApiKeyInfo(getApiClient()), LOAD_FAILED);
  const [newKey, setNewKey] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  const makeKey = async () => {
    setBusy(true);
    try {
      const made = await putApiKey(getApiClient());
      set(made.info);
      setNewKey(made.key);
    } catch (error) {
      showErrorSnackbar(failureText(error, DEVELOPER_TEXTS.apiKeyGenerateFailed));
    } finally {
      setBusy(false);
    }
  };

  if (state.status !== 'ready') return <NotLoaded state={state} loadingLabel="Loading your API key" failedTitle="API key not loaded" onRetry={reload} />;
  return (
    <ApiKeyPanel
      info={state.value}
      newKey={newKey}
      isBusy={isBusy}
      onGenerate={() => void makeKey()}
      onRotate={() =>
        confirmAction({
          title: 'Rotate the API key?',
          message: 'A new key is made and the old one stops working at once: scripts that use it must be given the new one.',
          confirmLabel: 'Rotate',
          isDanger: true,
          onConfirm: () => void makeKey(),
        })
      }
    />
  );
}
