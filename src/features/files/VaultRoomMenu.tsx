import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { VAULT_LIMITS } from '../../protocol/vaults';
import { NameModal } from '../../ui/NameModal';
import { VaultInfoDrawer } from '../vaults/VaultInfoDrawer';
import { VaultMetadataDrawer } from '../vaults/VaultMetadataDrawer';
import { VaultMenu } from '../vaults/VaultMenu';
import { submitVaultRename } from '../vaults/vaultCommands';
import { useVaultRoom } from './VaultRoomContext';

/**
 * The vault's actions menu with the dialogs it opens, on every tab of the room (Files, Chat,
 * Timeline, hidden files), so renaming the vault or managing access never needs a trip to Files.
 * `folderId`: the folder the gallery opens on (the Files tab's current folder); else the root.
 */
export function VaultRoomMenu({ folderId = null }: { folderId?: string | null }) {
  const { vault, status } = useVaultRoom();
  const navigate = useNavigate();
  const [isInfoOpen, setInfoOpen] = useState(false);
  const [isRenaming, setRenaming] = useState(false);
  const [isMetadataOpen, setMetadataOpen] = useState(false);
  const params = { status, vaultId: vault.vaultId };
  return (
    <>
      <VaultMenu
        vault={vault}
        onRename={() => setRenaming(true)}
        onShowInfo={() => setInfoOpen(true)}
        onShowMetadata={() => setMetadataOpen(true)}
        onShowHidden={() => void navigate({ to: '/vaults/$status/$vaultId/revoked-files', params })}
        onOpenGallery={() =>
          void (folderId
            ? navigate({ to: '/vaults/$status/$vaultId/gallery/folders/$folderId', params: { ...params, folderId } })
            : navigate({ to: '/vaults/$status/$vaultId/gallery', params }))
        }
      />
      <NameModal
        opened={isRenaming}
        title="Rename vault"
        label="Vault name"
        initialValue={vault.name}
        submitLabel="Rename"
        maxLength={VAULT_LIMITS.TITLE_MAX}
        onClose={() => setRenaming(false)}
        onSubmit={(name) => submitVaultRename(vault, name)}
      />
      <VaultInfoDrawer vault={isInfoOpen ? vault : null} onClose={() => setInfoOpen(false)} />
      <VaultMetadataDrawer vault={vault} opened={isMetadataOpen} onClose={() => setMetadataOpen(false)} />
    </>
  );
}
