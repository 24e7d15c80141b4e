/** File and folder actions with their confirmations and snackbars (spec 000 sections 4, 5, 8). */
import { moveDoneText } from '../../domain/moveRules';
import { needsZip } from '../../domain/zipEntries';
import type { NodeRecord } from '../../storage/vaultRecords';
import { deleteNodes, hideNodes, moveNodes, nameRefusalText, renameNode, restoreNodes } from '../../sync/vaultActions';
import { confirmAction } from '../../ui/confirmAction';
import { runWithErrorSnackbar, showErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { actionErrorText } from '../vaults/vaultErrors';
import { downloadNodesAsZip } from './batchDownload';
import { runDownload } from './runDownload';
import { saveFileToDisk } from './saveFileToDisk';

/** One file is saved as itself; several files or any folder as '{vault name}.zip'. */
export async function downloadSelection(vaultId: string, vaultName: string, nodes: readonly NodeRecord[]) {
  return needsZip(nodes) ? downloadNodesAsZip(vaultId, vaultName, nodes) : downloadNodes(vaultId, nodes);
}

/**
 * Downloads and saves each file in turn (folders are skipped), streamed to disk where a service
 * worker controls the page; stops at the first failure or cancel.
 */
export async function downloadNodes(vaultId: string, nodes: readonly NodeRecord[], versionId?: string) {
  for (const file of nodes.filter((n) => n.kind === 'file')) {
    const isDone = await runDownload((signal, report) => saveFileToDisk(vaultId, file, versionId, signal, report));
    if (!isDone) return;
  }
}

function describe(nodes: readonly NodeRecord[]): string {
  return nodes.length === 1 ? `"${nodes[0]!.name}"` : `${nodes.length} items`;
}

export function confirmHideNodes(vaultId: string, nodes: readonly NodeRecord[], onDone?: () => void) {
  confirmAction({
    title: 'Hide',
    message: `Hide ${describe(nodes)}? Hidden items are kept under hidden files, where you can restore them.`,
    confirmLabel: 'Hide',
    onConfirm: () =>
      void runWithErrorSnackbar(() => hideNodes(vaultId, nodes.map((n) => n.id)), actionErrorText('revoking files')).then((ok) => ok && onDone?.()),
  });
}

export function confirmRestoreNodes(vaultId: string, nodes: readonly NodeRecord[], onDone?: () => void) {
  confirmAction({
    title: 'Restore',
    message: `Restore ${describe(nodes)}?`,
    confirmLabel: 'Restore',
    onConfirm: () =>
      void runWithErrorSnackbar(() => restoreNodes(vaultId, nodes.map((n) => n.id)), actionErrorText('restoring files')).then((ok) => ok && onDone?.()),
  });
}

/** 'Delete' in cloud vaults removes for good; 'Clear' in permanent vaults takes items out of access. */
export function confirmDeleteNodes(vaultId: string, nodes: readonly NodeRecord[], isCloud: boolean, onDone?: () => void) {
  const verb = isCloud ? 'Delete' : 'Clear';
  confirmAction({
    title: verb,
    message: isCloud
      ? `Delete ${describe(nodes)} for good? This cannot be undone.`
      : `Clear ${describe(nodes)}? It leaves your vault, but stays on the permanent network.`,
    confirmLabel: verb,
    isDanger: true,
    onConfirm: () =>
      void runWithErrorSnackbar(() => deleteNodes(vaultId, nodes.map((n) => n.id)), actionErrorText('removing files')).then((ok) => ok && onDone?.()),
  });
}

/** Moves; a name the destination already has (SYNC_SPEC R73) is said in the snackbar, and nothing moves. */
export async function submitMove(vaultId: string, nodes: readonly NodeRecord[], parentId: string | null): Promise<boolean> {
  const text = nodes.length > 1 ? 'moving files' : nodes[0]?.kind === 'folder' ? 'moving the folder' : 'moving your file';
  return runWithNameSnackbar(() => moveNodes(vaultId, nodes.map((n) => n.id), parentId), actionErrorText(text));
}

/** Like runWithErrorSnackbar, but a name refusal (SYNC_SPEC R73) is said in its own words. */
export async function runWithNameSnackbar(action: () => Promise<unknown>, errorText: string): Promise<boolean> {
  const result = await submitNaming(action, errorText);
  if (typeof result === 'string') showErrorSnackbar(result);
  return result === true;
}

/** A drop onto a folder row or crumb: moves at once (the drop is the confirmation) and says so. */
export async function dropNodes(vaultId: string, nodes: readonly NodeRecord[], parentId: string | null): Promise<boolean> {
  const ok = await submitMove(vaultId, nodes, parentId);
  if (ok) showSnackbar(moveDoneText(nodes));
  return ok;
}

/**
 * Runs a naming action for a NameModal: a name refusal (SYNC_SPEC R73) comes back as the text the
 * dialog shows in its field; any other failure is a snackbar.
 */
export async function submitNaming(action: () => Promise<unknown>, errorText = actionErrorText()): Promise<boolean | string> {
  try {
    await action();
    return true;
  } catch (error) {
    const refusal = nameRefusalText(error);
    if (refusal !== null) return refusal;
    return runWithErrorSnackbar(() => Promise.reject(error), errorText);
  }
}

export function submitRename(vaultId: string, node: NodeRecord, name: string): Promise<boolean | string> {
  return submitNaming(() => renameNode(vaultId, node.id, name));
}
