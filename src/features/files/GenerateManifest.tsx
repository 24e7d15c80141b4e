import { Anchor, Badge, Button, Group, Modal, Radio, Stack, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { leftOutText, MANIFEST_FILE_NAME, manifestLinkState, MANIFEST_TYPES, type ManifestType } from '../../domain/arweaveManifest';
import { type ManifestPlan, planManifest, uploadManifest } from '../../sync/manifestActions';
import { confirmAction } from '../../ui/confirmAction';
import { runWithErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { actionErrorText } from '../vaults/vaultErrors';
import { useVaultRoom } from './VaultRoomContext';

/** Spec 000 section 8: create manifest 'creating the manifest'. */
const ERROR_TEXT = actionErrorText('creating the manifest');

function confirmText(plan: ManifestPlan): string {
  const files = plan.includedCount === 1 ? '1 file' : `${plan.includedCount} files`;
  const target = plan.replaceFileId ? `a new version of ${MANIFEST_FILE_NAME}` : `${MANIFEST_FILE_NAME} at the top of the vault`;
  return `Create JSON metadata listing ${files} by path, saved as ${target}? It is stored on the permanent network, where anyone can read it.`;
}

/**
 * The 'Generate JSON metadata' link ('JSON' on narrow screens) and its manifest creation modal
 * (spec 000 sections 2, 3, 5, 6): shown for public permanent vaults only, disabled for those who
 * cannot upload (VIEWER, read-only, archived). A type must be chosen (the marketplace is 'Soon'),
 * then a confirmation says how many files it maps and how many it leaves out.
 */
export function GenerateManifest() {
  const { vault, canUpload: canUploadHere } = useVaultRoom();
  const { isReadOnly } = useServerConfig();
  const [isOpen, setOpen] = useState(false);
  const [type, setType] = useState<ManifestType | null>(null);
  const [isBusy, setBusy] = useState(false);
  const state = manifestLinkState(vault, { role: vault.role, status: vault.status, isReadOnly, storageAllowance: vault.membershipStorageAllowance });
  if (state === 'hidden') return null;
  // The room also waits for a vault still being created.
  const canUpload = state === 'enabled' && canUploadHere;

  const close = () => {
    setOpen(false);
    setType(null);
  };

  async function create() {
    if (type !== 'permanent') return;
    setBusy(true);
    let plan: ManifestPlan | null = null;
    const ok = await runWithErrorSnackbar(async () => {
      plan = await planManifest(vault.vaultId);
    }, ERROR_TEXT);
    setBusy(false);
    if (!ok || !plan) return;
    const ready: ManifestPlan = plan;
    close();
    const leftOut = leftOutText(ready);
    if (ready.includedCount === 0) {
      showSnackbar(leftOut ? `No file can be listed yet. ${leftOut}` : 'This vault has no files to list yet.', 6000);
      return;
    }
    confirmAction({
      title: 'Create JSON metadata',
      message: (
        <Stack gap="xs">
          <Text size="sm">{confirmText(ready)}</Text>
          {leftOut && (
            <Text size="sm" c="dimmed" data-testid="manifest-left-out">
              {leftOut}
            </Text>
          )}
        </Stack>
      ),
      confirmLabel: 'Create',
      onConfirm: () => void runWithErrorSnackbar(() => uploadManifest(ready), ERROR_TEXT),
    });
  }

  const disabledReason = canUpload ? null : 'You cannot add to this vault';
  const link = (
    <Anchor
      component="button"
      type="button"
      onClick={() => setOpen(true)}
      disabled={!canUpload}
      c={canUpload ? undefined : 'dimmed'}
      fz="sm"
      fw={500}
      style={{ whiteSpace: 'nowrap', cursor: canUpload ? 'pointer' : 'not-allowed' }}
      aria-label="Generate JSON metadata"
    >
      <Text span inherit visibleFrom="sm">
        Generate JSON metadata
      </Text>
      <Text span inherit hiddenFrom="sm">
        JSON
      </Text>
    </Anchor>
  );

  return (
    <>
      <Tooltip label={disabledReason} disabled={disabledReason === null}>
        <span>{link}</span>
      </Tooltip>
      <Modal opened={isOpen} onClose={close} title="Create manifest" centered>
        <Stack>
          <Radio.Group label="Manifest type" value={type} onChange={(value) => setType(value as ManifestType)}>
            <Stack gap="sm" mt="xs">
              {MANIFEST_TYPES.map((option) => (
                <Radio
                  key={option.value}
                  value={option.value}
                  disabled={!option.isAvailable}
                  label={
                    <Group gap={6} wrap="nowrap">
                      {option.label}
                      {!option.isAvailable && (
                        <Badge size="xs" variant="light">
                          Soon
                        </Badge>
                      )}
                    </Group>
                  }
                />
              ))}
            </Stack>
          </Radio.Group>
          <Text size="sm" c="dimmed">
            An Arweave path manifest maps each file's folder path to its transaction, so one gateway link serves the whole vault.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => void create()} disabled={type === null} loading={isBusy}>
              Create
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
