/**
 * Batch download as one streamed zip (spec 000 section 5). client-zip pulls entries one at a
 * time from the generator, so only one decrypted file is held besides the archive being built.
 */
import { notifications } from '@mantine/notifications';
import { downloadZip } from 'client-zip';
import { canBatchDownload } from '../../domain/selectionRules';
import { zipEntries, zipFileName } from '../../domain/zipEntries';
import { getDb } from '../../storage/db';
import type { NodeRecord } from '../../storage/vaultRecords';
import { getStoreAccount, getVaultNodes } from '../../storage/vaultStore';
import { downloadFile } from '../../sync/vaultActions';
import { showErrorSnackbar } from '../../ui/snackbar';
import { actionErrorText } from '../vaults/vaultErrors';
import { saveBlob } from './saveBlob';

export const PREPARING_DOWNLOAD_TEXT = 'Preparing your file for download. Large files may take a while.';

/** Zips the selected files and folders (their active files, with relative paths) as '{vault name}.zip'. */
export async function downloadNodesAsZip(vaultId: string, vaultName: string, selected: readonly NodeRecord[]): Promise<void> {
  const accountId = getStoreAccount();
  if (!accountId) return;
  const needsTree = selected.some((n) => n.kind === 'folder');
  const entries = zipEntries(selected, needsTree ? await getVaultNodes(getDb(), accountId, vaultId) : selected);
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  if (entries.length === 0 || !canBatchDownload(total)) return;

  const id = notifications.show({ message: PREPARING_DOWNLOAD_TEXT, loading: true, autoClose: false, withCloseButton: false });
  let done = 0;
  const report = (received: number) =>
    notifications.update({ id, message: `${PREPARING_DOWNLOAD_TEXT} ${total > 0 ? Math.floor(((done + received) / total) * 100) : 100}%`, loading: true, autoClose: false });
  async function* files() {
    for (const entry of entries) {
      const blob = await downloadFile(vaultId, entry.fileId, undefined, (received) => report(received));
      done += entry.size;
      yield { name: entry.path, input: blob, lastModified: new Date(entry.updatedAt), size: blob.size };
    }
  }
  try {
    const zip = await downloadZip(files()).blob();
    saveBlob(zip, zipFileName(vaultName));
    notifications.hide(id);
  } catch (error) {
    console.warn('batch download failed', error);
    notifications.hide(id);
    showErrorSnackbar(actionErrorText());
  }
}
