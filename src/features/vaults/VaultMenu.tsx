import { ActionIcon, Menu } from '@mantine/core';
import { useServerConfig } from '../../app/serverConfigStore';
import { canManageVault, canRemoveVault } from '../../domain/vaultPermissions';
import type { VaultRecord } from '../../storage/vaultRecords';
import { IconDots } from '../../ui/icons';
import { confirmDeactivateVault, confirmRemoveVault, confirmRestoreVault } from './vaultCommands';

interface VaultMenuProps {
  vault: VaultRecord;
  onRename: () => void;
  onShowInfo: () => void;
  /** Opens the Description and tags drawer (editable for the OWNER, read-only for others). */
  onShowMetadata?: () => void;
  /** Opens the hidden files; shown in the menu on phones, where the toolbar has no room for it. */
  onShowHidden?: () => void;
  /** Opens the gallery of the current folder's images and videos. */
  onOpenGallery?: () => void;
}

/** The vault actions menu (spec 000 section 6: rename, deactivate, restore and remove are OWNER only). */
export function VaultMenu({ vault, onRename, onShowInfo, onShowMetadata, onShowHidden, onOpenGallery }: VaultMenuProps) {
  const { isReadOnly } = useServerConfig();
  const access = { role: vault.role, status: vault.status, isReadOnly };
  const isOwner = canManageVault(access) && !vault.isPending;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${vault.name || 'vault'}`} onClick={(e) => e.stopPropagation()} data-tour="vault-menu">
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
        <Menu.Item onClick={onShowInfo}>Vault info</Menu.Item>
        {onShowMetadata && <Menu.Item onClick={onShowMetadata}>Description and tags</Menu.Item>}
        {onOpenGallery && <Menu.Item onClick={onOpenGallery}>Gallery</Menu.Item>}
        {onShowHidden && (
          <Menu.Item onClick={onShowHidden} hiddenFrom="sm">
            Hidden files
          </Menu.Item>
        )}
        {isOwner && vault.status === 'ACTIVE' && (
          <>
            <Menu.Item onClick={onRename}>Rename</Menu.Item>
            <Menu.Item onClick={() => confirmDeactivateVault(vault)}>Deactivate</Menu.Item>
          </>
        )}
        {isOwner && vault.status === 'ARCHIVED' && <Menu.Item onClick={() => confirmRestoreVault(vault)}>Restore</Menu.Item>}
        {canRemoveVault(access) && (
          <Menu.Item color="red" onClick={() => confirmRemoveVault(vault)}>
            Remove
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
