import { Badge, Button, Drawer, Group, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { canSaveMetadata } from '../../domain/vaultMetadataRules';
import { canManageVault } from '../../domain/vaultPermissions';
import { VAULT_LIMITS } from '../../protocol/vaults';
import type { VaultRecord } from '../../storage/vaultRecords';
import { updateVaultMetadata } from '../../sync/vaultActions';
import { runWithErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { TagEntryInput } from '../../ui/TagEntryInput';
import { actionErrorText } from './vaultErrors';
import { DescriptionInput } from './DescriptionInput';

interface VaultMetadataDrawerProps {
  vault: VaultRecord;
  opened: boolean;
  onClose: () => void;
}

/**
 * The Description and tags drawer (spec 000 sections 2, 5, 6): the OWNER edits them in an active
 * vault; everyone else reads them.
 */
export function VaultMetadataDrawer({ vault, opened, onClose }: VaultMetadataDrawerProps) {
  const { isReadOnly } = useServerConfig();
  const isOwner = canManageVault({ role: vault.role, status: vault.status, isReadOnly }) && vault.status === 'ACTIVE' && !vault.isPending;
  const [description, setDescription] = useState(vault.description);
  const [tags, setTags] = useState<string[]>(vault.tags);
  const [isSaving, setSaving] = useState(false);

  // A fresh draft each time the drawer opens (the vault may have changed on another device);
  // only on opening, so a sync arriving mid-edit does not wipe what the user typed.
  useEffect(() => {
    if (!opened) return;
    setDescription(vault.description);
    setTags(vault.tags);
  }, [opened]);

  const canSave = canSaveMetadata({ isOwner, isSaving, originalDescription: vault.description, description, originalTags: vault.tags, tags });

  async function save() {
    setSaving(true);
    const ok = await runWithErrorSnackbar(() => updateVaultMetadata(vault.vaultId, description, tags), actionErrorText());
    setSaving(false);
    if (ok) {
      showSnackbar('Description and tags saved');
      onClose();
    }
  }

  return (
    <Drawer opened={opened} onClose={onClose} position="right" title="Description and tags" size={336}>
      {isOwner ? (
        <Stack gap="md">
          <DescriptionInput value={description} onChange={setDescription} minRows={4} maxRows={10} />
          <TagEntryInput label="Tags" value={tags} onChange={setTags} maxTagLength={VAULT_LIMITS.TAG_MAX} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => void save()} disabled={!canSave} loading={isSaving}>
              Save
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          <div>
            <Text size="sm" fw={700}>
              Description
            </Text>
            <Text size="sm" c={vault.description ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {vault.description || 'No description.'}
            </Text>
          </div>
          <div>
            <Text size="sm" fw={700}>
              Tags
            </Text>
            {vault.tags.length === 0 ? (
              <Text size="sm" c="dimmed">
                No tags.
              </Text>
            ) : (
              <Group gap={6} mt={4}>
                {vault.tags.map((tag) => (
                  <Badge key={tag} variant="light" tt="none">
                    {tag}
                  </Badge>
                ))}
              </Group>
            )}
          </div>
        </Stack>
      )}
    </Drawer>
  );
}
