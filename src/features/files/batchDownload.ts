/**
 * Batch download as one streamed zip (spec 000 section 5). client-zip pulls entries one at a
 * time and each entry's chunks as it writes them, and the archive streams to disk through the
 * service worker (src/platform/saveStream), so memory stays flat; without a service worker the
 * archive is assembled as a Blob (the fallback).
 */
import { canBatchDownload } from '../../domain/selectionRules';
import { zipEntries, zipFileName } from '../../domain/zipEntries';
import { getDb } from '../../storage/db';
import type { NodeRecord } from '../../storage/vaultRecords';
import { getStoreAccount, getVaultNodes } from '../../storage/vaultStore';
import { runDownload } from './runDownload';
import { saveZipToDisk } from './saveFileToDisk';

/** Zips the selected files and folders (their active files, with relative paths) as '{vault name}.zip'. */
export async function downloadNodesAsZip(vaultId: string, vaultName: string, selected: readonly NodeRecord[]): Promise<void> {
  const accountId = getStoreAccount();
  if (!accountId) return;
  const needsTree = selected.some((n) => n.kind === 'folder');
  const entries = zipEntries(selected, needsTree ? await getVaultNodes(getDb(), accountId, vaultId) : selected);
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  if (entries.length === 0 || !canBatchDownload(total)) return;

  await runDownload((signal, report) => saveZipToDisk(vaultId, zipFileName(vaultName), entries, signal, report));
}
