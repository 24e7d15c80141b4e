import { Button, Group, Modal, Progress, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { formatBytes } from '../../../domain/formatting';
import { IMPORT_CANCELLED_TEXT, IMPORT_FAILED_TEXT, isImportableTxId, TX_ID_LENGTH, txIdError } from '../../../domain/importTxRules';
import { fetchTransactionFile, ImportError } from '../../../sync/importTransaction';
import { showErrorSnackbar, showSnackbar } from '../../../ui/snackbar';

interface ImportTxModalProps {
  opened: boolean;
  onClose: () => void;
  /** The fetched item, for the upload path (duplicates, then the upload queue). */
  onImported: (file: File) => void;
}

interface Transfer {
  loaded: number;
  total: number | null;
}

/**
 * The 'import by transaction' modal (spec 000 sections 2, 5 and 8): a 43-character network
 * transaction id; Import fetches the item with its progress (the 'import' stage), and Cancel or
 * closing stops it ('Importing cancelled'). A failure says 'Failed to import files' and leaves
 * the id in the field, so a mistyped one can be corrected.
 */
export function ImportTxModal({ opened, onClose, onImported }: ImportTxModalProps) {
  const [value, setValue] = useState('');
  const [transfer, setTransfer] = useState<Transfer | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    if (opened) setValue('');
  }, [opened]);
  // Leaving the vault room while importing stops the transfer.
  useEffect(() => () => controller.current?.abort(), []);

  const error = txIdError(value);
  const isImporting = transfer !== null;
  const canSubmit = isImportableTxId(value) && !isImporting;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    const abort = new AbortController();
    controller.current = abort;
    setTransfer({ loaded: 0, total: null });
    try {
      const file = await fetchTransactionFile(value, { signal: abort.signal, onProgress: (loaded, total) => setTransfer({ loaded, total }) });
      onClose();
      onImported(file);
    } catch (failure) {
      if (failure instanceof ImportError && failure.reason === 'cancelled') {
        showSnackbar(IMPORT_CANCELLED_TEXT);
      } else {
        console.warn(IMPORT_FAILED_TEXT, failure);
        showErrorSnackbar(IMPORT_FAILED_TEXT);
      }
    } finally {
      controller.current = null;
      setTransfer(null);
    }
  }

  /** Cancel, Escape and the close button: stop a transfer under way (its snackbar follows), then close. */
  function close() {
    if (controller.current) {
      controller.current.abort();
      return;
    }
    onClose();
  }

  const percent = transfer?.total ? Math.min(100, Math.round((transfer.loaded / transfer.total) * 100)) : null;

  return (
    <Modal opened={opened} onClose={close} title="Import by transaction" centered>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Transaction ID"
            description={`The ${TX_ID_LENGTH}-character id of a file on the permanent network. It is added to this folder.`}
            placeholder="e.g. bNbA3TEQVL60xlgCcqdz4ZPHFZ711cZ3hmkpGttDt_U"
            value={value}
            onChange={(e) => setValue(e.currentTarget.value.trim())}
            error={error}
            disabled={isImporting}
            spellCheck={false}
            autoComplete="off"
            data-autofocus
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          {transfer && (
            <Stack gap={4}>
              <Text size="sm" aria-live="polite">
                {percent !== null ? `Importing... ${percent}%` : transfer.loaded > 0 ? `Importing... ${formatBytes(transfer.loaded)}` : 'Importing...'}
              </Text>
              <Progress value={percent ?? 100} animated={percent === null} aria-label="Import progress" />
            </Stack>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!canSubmit} loading={isImporting}>
              Import
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
