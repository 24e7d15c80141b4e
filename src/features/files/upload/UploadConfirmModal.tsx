import { Alert, Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatBytes } from '../../../domain/formatting';
import { type DuplicateChoice, type ResolvedUpload, uploadSpaceNote } from '../../../domain/uploadRules';
import { VAULT_LIMITS } from '../../../protocol/vaults';
import { getVaultUploadRoom } from '../../../sync/vaultActions';
import { IconFile } from '../../../ui/icons';
import { FolderPicker } from '../FolderPicker';
import { useVaultRoom } from '../VaultRoomContext';
import { type Duplicate, DuplicateChoices, duplicatesTitle, finalChoices, initialSelection } from './DuplicateResolution';

interface UploadConfirmModalProps {
  items: ResolvedUpload[] | null;
  initialFolderId: string | null;
  /** Picked files whose names are taken in the folder: asked about here, in the same step. */
  duplicates?: Duplicate[] | null;
  onCancel: () => void;
  onConfirm: (parentId: string | null, choices: Map<number, DuplicateChoice>) => Promise<void>;
}

/** Spec 000 section 5: the list is at most 237 px tall (57 px per row). */
const LIST_MAX_HEIGHT = 237;
const ROW_HEIGHT = 57;
/** Spec 000 section 4: confirming waits 500 ms before the upload starts. */
const CONFIRM_DELAY_MS = 500;

/** The upload confirmation: files, destination, public warning and available space (spec 000 sections 4, 5). */
export function UploadConfirmModal({ items, initialFolderId, duplicates = null, onCancel, onConfirm }: UploadConfirmModalProps) {
  const { vault } = useVaultRoom();
  const [selection, setSelection] = useState(() => initialSelection(duplicates));
  const [destination, setDestination] = useState<string | null>(initialFolderId);
  const [available, setAvailable] = useState<number | null>(null);
  const [isUnchecked, setUnchecked] = useState(false);
  const [isBusy, setBusy] = useState(false);

  useEffect(() => {
    if (!items) return;
    setDestination(initialFolderId);
    setBusy(false);
    setAvailable(null);
    setUnchecked(false);
    setSelection(initialSelection(duplicates));
    let isCurrent = true;
    // The vault's own figure, not the user's: uploads are charged to the vault's owner, and an
    // airdrop link caps its member's uploads besides.
    getVaultUploadRoom(vault.vaultId)
      .then((room) => isCurrent && setAvailable(room))
      .catch(() => {
        if (!isCurrent) return;
        setAvailable(null);
        // Offline (or the server out of reach): the upload waits, and the server checks the space.
        setUnchecked(true);
      });
    return () => {
      isCurrent = false;
    };
  }, [items, duplicates, initialFolderId, vault.vaultId]);

  const total = (items ?? []).reduce((sum, i) => sum + i.file.size, 0);
  const tooLarge = (items ?? []).some((i) => i.file.size >= VAULT_LIMITS.FILE_MAX_BYTES);
  const space = uploadSpaceNote(total, available);
  const isShort = space?.isShort ?? false;

  async function confirm() {
    setBusy(true);
    await new Promise((resolve) => setTimeout(resolve, CONFIRM_DELAY_MS));
    await onConfirm(destination, finalChoices(duplicates, selection));
    setBusy(false);
  }

  const count = items?.length ?? 0;
  return (
    <Modal opened={items !== null} onClose={onCancel} title={count === 1 ? 'Upload 1 file' : `Upload ${count} files`} centered size="lg">
      <Stack>
        {duplicates && duplicates.length > 0 && (
          <section aria-label={duplicatesTitle(duplicates.length)}>
            <Text size="sm" fw={600} mb={4}>
              {duplicatesTitle(duplicates.length)}
            </Text>
            <DuplicateChoices duplicates={duplicates} value={selection} onChange={setSelection} />
          </section>
        )}
        <ScrollArea.Autosize mah={LIST_MAX_HEIGHT} type="auto">
          <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {(items ?? []).map((item, index) => (
              <Group key={index} component="li" h={ROW_HEIGHT} gap="sm" wrap="nowrap" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
                <IconFile size={18} style={{ flexShrink: 0 }} />
                <Stack gap={0} miw={0} style={{ flex: 1 }}>
                  <Text size="sm" truncate>
                    {item.name ?? item.file.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {[...item.path, ''].join('/')}
                    {item.replaceFileId ? 'New version' : ''}
                  </Text>
                </Stack>
                <Text size="sm" c="dimmed">
                  {formatBytes(item.file.size)}
                </Text>
              </Group>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        <div>
          <Text size="sm" fw={600} mb={4}>
            Destination
          </Text>
          <FolderPicker vaultId={vault.vaultId} vaultName={vault.name} value={destination} onChange={setDestination} />
        </div>
        {vault.isPublic && (
          <Alert color="yellow" variant="light">
            Public files can be accessed by anyone.
          </Alert>
        )}
        {tooLarge && (
          <Text size="sm" c="red" role="alert">
            We cannot accept file uploads larger than {formatBytes(VAULT_LIMITS.FILE_MAX_BYTES)}
          </Text>
        )}
        {isUnchecked && (
          <Text size="sm" c="dimmed">
            You're offline: the upload starts when you're back online, if there is enough space.
          </Text>
        )}
        {space && (
          <Text size="sm" c={space.isShort ? 'red' : 'dimmed'} role={space.isShort ? 'alert' : undefined}>
            {space.text}
          </Text>
        )}
        {/* Holds the line the figure takes, so the buttons below do not move when it comes. */}
        {!space && !isUnchecked && (
          <Text size="sm" c="dimmed">
            Checking the available space…
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={isBusy}>
            Cancel
          </Button>
          <Button onClick={() => void confirm()} loading={isBusy} disabled={isShort || tooLarge || count === 0}>
            Upload
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
