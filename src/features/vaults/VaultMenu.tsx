import { copyPublicLink, publicVaultLink } from '../public/shareLinks';
import { ActionIcon, Menu } from '@mantine/core';
import { useServerConfig } from '../../app/serverConfigStore';
import { canExportVault } from '../../domain/exportLayout';
import { canManageVault, canRemoveVault } from '../../domain/vaultPermissions';
import type { VaultRecord } from '../../storage/vaultRecords';
import { IconCheck, IconDots } from '../../ui/icons';
import { runWithErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { makeVaultAvailableOffline } from '../../sync/offlineFiles';
import { exportVaultEncrypted, exportVaultPlain } from '../files/exportVault';
import { MemberMenuItems } from '../members/MemberMenuItems';
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

/** Turns 'Available offline' on (fetching every file's encrypted chunks now) or off. */
function toggleAvailableOffline(vault: VaultRecord): void {
  const keep = !vault.keepOffline;
  if (keep) showSnackbar(`Making ${vault.name} available offline…`);
  void runWithErrorSnackbar(async () => {
    await makeVaultAvailableOffline(vault.vaultId, keep);
    showSnackbar(keep ? `${vault.name} is available offline.` : `${vault.name} is no longer kept offline.`);
  }, 'There was an error.');
}

/**
 * The vault actions menu (spec 000 section 6: rename, deactivate, restore and remove are OWNER
 * only), with the member entries of spec 001 section 6.
 */
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
        {/* 'Share' only for public vaults (spec 000 section 6). */}
        {vault.isPublic && vault.status !== 'DELETED' && <Menu.Item onClick={() => void copyPublicLink(publicVaultLink(vault.vaultId))}>Share</Menu.Item>}
        {onShowMetadata && <Menu.Item onClick={onShowMetadata}>Description and tags</Menu.Item>}
        {onOpenGallery && <Menu.Item onClick={onOpenGallery}>Gallery</Menu.Item>}
        {typeof caches !== 'undefined' && vault.status === 'ACTIVE' && !vault.isPending && (
          <Menu.Item
            // Mantine keeps role="menuitem"; the state is said in the name.
            aria-label={`Available offline, ${vault.keepOffline ? 'on' : 'off'}`}
            rightSection={vault.keepOffline ? <IconCheck size={16} /> : undefined}
            onClick={() => toggleAvailableOffline(vault)}
          >
            Available offline
          </Menu.Item>
        )}
        {/* Any member who may read the vault takes it away (SYNC_SPEC R87, R88). */}
        {canExportVault(vault) && (
          <>
            <Menu.Item onClick={() => void exportVaultPlain(vault)}>Export vault</Menu.Item>
            <Menu.Item onClick={() => void exportVaultEncrypted(vault)}>Export encrypted</Menu.Item>
          </>
        )}
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
        <MemberMenuItems vault={vault} />
      </Menu.Dropdown>
    </Menu>
  );
}
