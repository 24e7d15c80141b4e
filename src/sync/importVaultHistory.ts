/**
 * The device's side of restoring a vault on this server (issue 19, docs/SYNC_SPEC.md R91-R93):
 * sends the vault's verified history, one R84 run per request, in order, the last one flagged.
 * The runs come from whatever read and checked them (the network reader, an encrypted export);
 * this module only hands them over. On a refusal the server has removed the whole import and the
 * ApiError names the refused operation's seq (`refusedSeqOf`). The versions' stored chunks are
 * uploaded afterwards through the usual chunk PUT, which keeps only the signed bytes (R93).
 */
import type { ApiClient } from '../platform/apiClient';
import type { ApiError } from '../protocol/errors';
import type { VaultHistoryRun } from '../protocol/vaultHistory';
import { IMPORT_REFUSED_SEQ, VaultImportResponse } from '../protocol/vaultImport';

/** Sends `runs` (seq 1 first, consecutive) and answers the server's last answer (status DONE). */
export async function importVaultHistory(
  api: ApiClient,
  vaultId: string,
  runs: Iterable<VaultHistoryRun> | AsyncIterable<VaultHistoryRun>,
  onProgress?: (headSeq: number) => void,
): Promise<VaultImportResponse> {
  // One run of look-ahead: the server must be told which run is the last.
  let pending: VaultHistoryRun | null = null;
  let answer: VaultImportResponse | null = null;
  for await (const run of runs) {
    if (pending) answer = await send(api, vaultId, pending, false, onProgress);
    pending = run;
  }
  if (!pending) throw new Error('EMPTY_HISTORY');
  answer = await send(api, vaultId, pending, true, onProgress);
  return answer;
}

async function send(
  api: ApiClient,
  vaultId: string,
  run: VaultHistoryRun,
  isLast: boolean,
  onProgress?: (headSeq: number) => void,
): Promise<VaultImportResponse> {
  const answer = await api.post(`/vaults/${encodeURIComponent(vaultId)}/import`, { run, isLast }, VaultImportResponse);
  onProgress?.(answer.headSeq);
  return answer;
}

/** The seq of the operation an import refusal names, or null (R91). */
export function refusedSeqOf(error: ApiError): number | null {
  const entry = error.details?.find((detail) => detail.path === IMPORT_REFUSED_SEQ);
  return entry ? Number(entry.message) : null;
}
