/** Vault actions with their confirmations and error snackbars (spec 000 sections 4 and 8). */
import type { VaultRecord } from '../../storage/vaultRecords';
import { archiveVault, deleteVault, renameVault, restoreVault } from '../../sync/vaultActions';
import { confirmAction } from '../../ui/confirmAction';
import { runWithErrorSnackbar } from '../../ui/snackbar';
import { actionErrorText } from './vaultErrors';

export function submitVaultRename(vault: VaultRecord, name: string): Promise<boolean> {
  return runWithErrorSnackbar(() => renameVault(vault.vaultId, name), actionErrorText());
}

export function confirmDeactivateVault(vault: VaultRecord) {
  confirmAction({
    title: 'Deactivate vault',
    message: `Deactivate "${vault.name}"? It moves to your inactive vaults, where you can restore it.`,
    confirmLabel: 'Deactivate',
    onConfirm: () => void runWithErrorSnackbar(() => archiveVault(vault.vaultId), actionErrorText('archiving the vault')),
  });
}

export function confirmRestoreVault(vault: VaultRecord) {
  confirmAction({
    title: 'Restore vault',
    message: `Restore "${vault.name}" to your active vaults?`,
    confirmLabel: 'Restore',
    onConfirm: () => void runWithErrorSnackbar(() => restoreVault(vault.vaultId), actionErrorText('restoring the vault')),
  });
}

export function confirmRemoveVault(vault: VaultRecord) {
  confirmAction({
    title: 'Remove vault',
    message: `Remove "${vault.name}" for good? Its members lose access. This cannot be undone.`,
    confirmLabel: 'Remove',
    isDanger: true,
    onConfirm: () => void runWithErrorSnackbar(() => deleteVault(vault.vaultId), actionErrorText('removing vaults')),
  });
}
