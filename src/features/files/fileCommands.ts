/** File and folder actions with their confirmations and snackbars (spec 000 sections 4, 5, 8). */
import { type NodeAction, nodeActionText, UNDO_OF, undoneText } from '../../domain/nodeActionText';
import { needsZip } from '../../domain/zipEntries';
import type { NodeRecord } from '../../storage/vaultRecords';
import { deleteNodes, hideNodes, moveNodes, nameRefusalText, renameNode, restoreNodes } from '../../sync/vaultActions';
import { confirmAction } from '../../ui/confirmAction';
import { showActionSnackbar } from '../../ui/actionSnackbar';
import { runWithErrorSnackbar, showErrorSnackbar } from '../../ui/snackbar';
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

/** The ids of `nodes`, grouped by the folder each is in now (what a move's Undo moves back to). */
function byParent(nodes: readonly NodeRecord[]): Map<string | null, string[]> {
  const groups = new Map<string | null, string[]>();
  for (const node of nodes) groups.set(node.parentId, [...(groups.get(node.parentId) ?? []), node.id]);
  return groups;
}

/**
 * Runs a file, folder or note action and reports it: the error snackbar on failure, otherwise
 * its snackbar (nodeActionText), with Undo where the action has an inverse. The one place these
 * snackbars are built; Undo queues the inverse operation through the same signed path.
 */
async function runNodeAction(...args: Parameters<typeof reportNodeAction>): Promise<boolean> {
  const result = await reportNodeAction(...args);
  if (typeof result === 'string') showErrorSnackbar(result);
  return result === true;
}

/** runNodeAction for a naming dialog: a name refusal (SYNC_SPEC R73) comes back as its text. */
async function reportNodeAction(
  vaultId: string,
  action: NodeAction,
  nodes: readonly NodeRecord[],
  run: () => Promise<unknown>,
  errorText: string,
  undo?: () => Promise<unknown>,
): Promise<boolean | string> {
  const result = await submitNaming(run, errorText);
  if (result !== true) return result;
  const canUndo = undo !== undefined && UNDO_OF[action] !== null;
  showActionSnackbar(nodeActionText(action, nodes), canUndo ? { run: undo, doneText: undoneText(action, nodes), errorText: actionErrorText() } : undefined);
  return true;
}

export function confirmHideNodes(vaultId: string, nodes: readonly NodeRecord[], onDone?: () => void) {
  const ids = nodes.map((n) => n.id);
  confirmAction({
    title: 'Hide',
    message: `Hide ${describe(nodes)}? Hidden items are kept under hidden files, where you can restore them.`,
    confirmLabel: 'Hide',
    onConfirm: () =>
      void runNodeAction(vaultId, 'hide', nodes, () => hideNodes(vaultId, ids), actionErrorText('revoking files'), () => restoreNodes(vaultId, ids)).then(
        (ok) => ok && onDone?.(),
      ),
  });
}

export function confirmRestoreNodes(vaultId: string, nodes: readonly NodeRecord[], onDone?: () => void) {
  const ids = nodes.map((n) => n.id);
  confirmAction({
    title: 'Restore',
    message: `Restore ${describe(nodes)}?`,
    confirmLabel: 'Restore',
    onConfirm: () =>
      void runNodeAction(vaultId, 'restore', nodes, () => restoreNodes(vaultId, ids), actionErrorText('restoring files'), () => hideNodes(vaultId, ids)).then(
        (ok) => ok && onDone?.(),
      ),
  });
}

/**
 * 'Delete' in cloud vaults removes for good; 'Clear' in permanent vaults takes items out of access.
 * Neither can be undone, so both keep their confirmation and their snackbar has no Undo.
 */
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
      void runNodeAction(vaultId, isCloud ? 'delete' : 'clear', nodes, () => deleteNodes(vaultId, nodes.map((n) => n.id)), actionErrorText('removing files')).then(
        (ok) => ok && onDone?.(),
      ),
  });
}

/** Moves (from the move dialog or a drop) and says so, with Undo moving each item back. */
export function submitMove(vaultId: string, nodes: readonly NodeRecord[], parentId: string | null): Promise<boolean> {
  const text = nodes.length > 1 ? 'moving files' : nodes[0]?.kind === 'folder' ? 'moving the folder' : 'moving your file';
  const origins = byParent(nodes);
  return runNodeAction(
    vaultId,
    'move',
    nodes,
    () => moveNodes(vaultId, nodes.map((n) => n.id), parentId),
    actionErrorText(text),
    async () => {
      for (const [origin, ids] of origins) await moveNodes(vaultId, ids, origin);
    },
  );
}

/** Like runWithErrorSnackbar, but a name refusal (SYNC_SPEC R73) is said in its own words. */
export async function runWithNameSnackbar(action: () => Promise<unknown>, errorText: string): Promise<boolean> {
  const result = await submitNaming(action, errorText);
  if (typeof result === 'string') showErrorSnackbar(result);
  return result === true;
}

/** A drop onto a folder row or crumb: moves at once (the drop is the confirmation). */
export function dropNodes(vaultId: string, nodes: readonly NodeRecord[], parentId: string | null): Promise<boolean> {
  return submitMove(vaultId, nodes, parentId);
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

/** Renames; a name refusal goes back to the dialog's field, and Undo gives the name back. */
export function submitRename(vaultId: string, node: NodeRecord, name: string): Promise<boolean | string> {
  const previous = node.name;
  return reportNodeAction(vaultId, 'rename', [node], () => renameNode(vaultId, node.id, name), actionErrorText(), () => renameNode(vaultId, node.id, previous));
}
