import { Alert, Button, Group, Paper, Progress, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { formatBytes } from '../../domain/formatting';
import { getApiClient } from '../../platform/apiClient';
import { getCrypto } from '../../platform/cryptoClient';
import { AppRestoreError, parseVaultAddress, restoreVaultFromNetwork, type RestoreProgress } from '../../network/restoreInApp';
import { getCurrentSync } from '../../sync/currentSync';
import { loadArweaveConfig, useArweaveConfig } from '../../sync/storageTxSync';
import { IconArrowLeft } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';

type Phase = { kind: 'idle' } | { kind: 'running'; progress: RestoreProgress } | { kind: 'done'; vaultId: string; name: string; endNotice: string } | { kind: 'failed'; title: string; message: string; canResume: boolean };

/** A short heading per failure (R97); the message under it is the reader's or the server's one line. */
const FAILURE_TITLES: Record<AppRestoreError['code'], string> = {
  BAD_INPUT: 'This vault ID is not valid',
  WRONG_PHRASE: 'Your keys do not open this vault',
  UNKNOWN_VAULT: 'No such vault on the network',
  TAMPERED: 'The vault on the network was changed',
  UNREACHABLE: 'The network could not be read',
  ALREADY_HERE: 'This server already has this vault',
  IMPORT_REFUSED: 'This server refused the vault',
  CANCELLED: 'Restore cancelled',
};

function stepText(progress: RestoreProgress): string {
  switch (progress.step) {
    case 'reading':
      return `Reading the vault's history: ${progress.items} item(s)`;
    case 'verifying':
      return `Verifying ${progress.items} history item(s)`;
    case 'importing':
      return `Importing: ${progress.headSeq} of ${progress.total} operations`;
    case 'uploading':
      return `Fetching and uploading files: ${progress.file} of ${progress.files} (${formatBytes(progress.bytes)} of ${formatBytes(progress.totalBytes)})`;
    case 'done':
      return 'Done';
  }
}

function percentOf(progress: RestoreProgress): number | null {
  if (progress.step === 'importing') return progress.total ? (progress.headSeq / progress.total) * 100 : 0;
  if (progress.step === 'uploading') return progress.totalBytes ? (progress.bytes / progress.totalBytes) * 100 : 100;
  return null;
}

/**
 * /restore-vault: 'Restore a vault from the network' (issue 19, SYNC_SPEC R96, R97). The vault's
 * items are read through this server's gateway, judged in the crypto worker with this account's
 * keys, imported, and every version's bytes uploaded; run again after an interruption it finishes.
 */
export function RestoreVaultPage() {
  const navigate = useNavigate();
  const [address, setAddress] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const config = useArweaveConfig();
  useEffect(() => {
    void loadArweaveConfig(getApiClient());
  }, []);

  async function restore(event: FormEvent) {
    event.preventDefault();
    const vaultId = parseVaultAddress(address);
    if (!vaultId) {
      setFieldError('Enter the vault ID as cairn://vault/… or the ID alone (letters, digits, - and _).');
      return;
    }
    setFieldError(null);
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'running', progress: { step: 'reading', items: 0 } });
    try {
      const plan = await restoreVaultFromNetwork({ api: getApiClient(), fetch: (input, init) => fetch(input, init), crypto: getCrypto() }, vaultId, (progress) => setPhase({ kind: 'running', progress }), controller.signal);
      // The vault list learns of the restored vault on the next pull; ask for it now.
      void getCurrentSync()?.syncNow();
      setPhase({ kind: 'done', vaultId, name: plan.name, endNotice: plan.endNotice });
    } catch (error) {
      if (error instanceof AppRestoreError) {
        // R97: a cancelled or cut-off restore finishes when run again.
        const canResume = error.code === 'CANCELLED' || error.code === 'UNREACHABLE';
        setPhase({ kind: 'failed', title: FAILURE_TITLES[error.code], message: error.message, canResume });
      } else {
        setPhase({ kind: 'failed', title: 'The restore stopped', message: error instanceof Error ? error.message : String(error), canResume: true });
      }
    } finally {
      abort.current = null;
    }
  }

  const isRunning = phase.kind === 'running';
  const percent = phase.kind === 'running' ? percentOf(phase.progress) : null;

  return (
    <Stack maw={720} gap="lg">
      <PageHeader title="Restore a vault from the network" />
      <Text>
        A permanent vault keeps its whole signed history on the network. With your recovery phrase (the one you signed in with) and the vault's ID, Cairn reads it, verifies every
        signature, and makes the vault yours on this server, with its files, folders, notes and chat.
      </Text>
      <Text size="sm" c="dimmed">
        Reads from {config?.gatewayUrl ?? "this server's gateway"}.
      </Text>
      <form onSubmit={(event) => void restore(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label="Vault ID"
            description="As shown in the vault's info: cairn://vault/…"
            placeholder="cairn://vault/…"
            value={address}
            onChange={(event) => setAddress(event.currentTarget.value)}
            error={fieldError}
            disabled={isRunning}
            autoComplete="off"
            spellCheck={false}
            required
          />
          <Group gap="sm">
            <Button type="submit" loading={isRunning} disabled={isRunning}>
              Restore
            </Button>
            {isRunning ? (
              <Button variant="default" onClick={() => abort.current?.abort()}>
                Cancel
              </Button>
            ) : (
              <Button variant="default" leftSection={<IconArrowLeft size={16} />} renderRoot={(props) => <Link to="/vaults/$status" params={{ status: 'active' }} {...props} />}>
                Back to vaults
              </Button>
            )}
          </Group>
        </Stack>
      </form>

      {phase.kind === 'running' && (
        <Paper withBorder p="md" role="status" aria-live="polite" aria-label="Restore progress">
          <Stack gap="xs">
            <Text fw={500}>{stepText(phase.progress)}</Text>
            {percent !== null && <Progress value={percent} aria-label="Restore progress bar" />}
          </Stack>
        </Paper>
      )}
      {phase.kind === 'done' && (
        <Alert color="green" title="Vault restored" role="status">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{phase.name ? `"${phase.name}" is yours on this server, with every file's bytes.` : 'The vault is yours on this server, with every file\u2019s bytes.'}</Text>
            <Text size="sm">{phase.endNotice}</Text>
            <Button onClick={() => void navigate({ to: '/vaults/$status/$vaultId', params: { status: 'active', vaultId: phase.vaultId } })}>Open vault</Button>
          </Stack>
        </Alert>
      )}
      {phase.kind === 'failed' && (
        <Alert color="red" title={phase.title} role="alert">
          <Text size="sm">{phase.message}</Text>
          {phase.canResume && (
            <Text size="sm" mt="xs">
              Run the restore again to finish it: nothing is imported twice.
            </Text>
          )}
        </Alert>
      )}
    </Stack>
  );
}
