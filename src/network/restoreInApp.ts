/**
 * 'Restore a vault from the network' in the app (issue 19, docs/SYNC_SPEC.md R96, R97): reads a
 * permanent vault's items through THIS server's configured gateway (GET /api/arweave/items and
 * GET /api/arweave/tx/{id}: the browser may not reach the gateway, and a URL the user typed is
 * never fetched by the server), lets the crypto worker judge them with the wallet's keys (R86,
 * workers/crypto/restoreJudge.ts), imports the judged history (R91-R93) and uploads every
 * version's stored chunks, each checked against the hash its uploader signed, one chunk in memory
 * at a time. Run again after an interruption it finishes: an import in progress goes on from the
 * seq the server expects, a finished one is not sent again, and only the chunks the server lacks
 * (its blob status) are uploaded (R97).
 */
import type { CryptoApi, RestoreHistoryItem, RestorePlan } from '../../workers/crypto/CryptoApi';
import { chunkHeaderFor, sha256Hex } from '../crypto/fileChunks';
import type { ApiClient, FetchLike } from '../platform/apiClient';
import { NetworkItemsPage, type NetworkItemsQuery } from '../protocol/arweave';
import { ApiError } from '../protocol/errors';
import { Id } from '../protocol/primitives';
import { HISTORY_RUN_MAX_BYTES, HISTORY_RUN_MAX_OPS, splitIntoRuns, type VaultHistoryRun } from '../protocol/vaultHistory';
import { BlobStatusResponse, PullResponse } from '../protocol/vaults';
import { importVaultHistory, refusedSeqOf } from '../sync/importVaultHistory';
import { decimalTag, readAtMost } from './historyFormat';
import { RestoreError, storedChunks, type RestoreFailure } from './restoreReader';

/** Why the app's restore stopped: the reader's failures, and the server's refusals (R97). */
export type AppRestoreFailure = RestoreFailure | 'ALREADY_HERE' | 'IMPORT_REFUSED' | 'CANCELLED';

export class AppRestoreError extends Error {
  constructor(
    readonly code: AppRestoreFailure,
    message: string,
  ) {
    super(message);
    this.name = 'AppRestoreError';
  }
}

export type RestoreProgress =
  | { step: 'reading'; items: number }
  | { step: 'verifying'; items: number }
  | { step: 'importing'; headSeq: number; total: number }
  | { step: 'uploading'; file: number; files: number; fileName: string; bytes: number; totalBytes: number }
  | { step: 'done'; vaultId: string; name: string };

/** `cairn://vault/{id}` or a bare id; null when it is neither. */
export function parseVaultAddress(text: string): string | null {
  const trimmed = text.trim();
  const match = /^cairn:\/\/vault\/([^/?#\s]+)\/?$/.exec(trimmed);
  const id = match ? match[1]! : trimmed;
  return Id.safeParse(id).success ? id : null;
}

export interface RestoreDeps {
  api: ApiClient;
  /** Raw requests for bytes (same origin, the session cookie); tests inject one. */
  fetch: FetchLike;
  crypto: Pick<CryptoApi, 'planRestore'>;
  /** Defaults to `/api`. */
  baseUrl?: string;
}

/** How many operations one import request carries at most (a request stays well under the push body limit). */
const RUN_OPS = 200;
const RUN_BYTES = 1024 * 1024;

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new AppRestoreError('CANCELLED', 'The restore was cancelled. Run it again to finish it.');
}

/** R97: any failure to talk to this server or its gateway during the reading is UNREACHABLE. */
function unreachable(error: unknown): AppRestoreError {
  if (error instanceof AppRestoreError) return error;
  const detail = error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
  return new AppRestoreError('UNREACHABLE', `Could not read the network through this server: ${detail}.`);
}

async function* listItems(deps: RestoreDeps, query: Omit<NetworkItemsQuery, 'after'>, signal?: AbortSignal): AsyncGenerator<NetworkItemsPage['items'][number] & { gateway: string }> {
  let after: string | null = null;
  for (;;) {
    throwIfAborted(signal);
    const params = new URLSearchParams({ vaultId: query.vaultId, item: query.item, ...(query.blobId ? { blobId: query.blobId } : {}), ...(after ? { after } : {}) });
    let page: NetworkItemsPage;
    try {
      page = await deps.api.get(`/arweave/items?${params.toString()}`, NetworkItemsPage);
    } catch (error) {
      throw unreachable(error);
    }
    for (const item of page.items) yield { ...item, gateway: page.gateway };
    if (!page.cursor || page.items.length === 0) return;
    after = page.cursor;
  }
}

async function openItem(deps: RestoreDeps, id: string, signal?: AbortSignal): Promise<Response | null> {
  let response: Response;
  try {
    response = await deps.fetch(`${deps.baseUrl ?? '/api'}/arweave/tx/${encodeURIComponent(id)}`, { credentials: 'same-origin', ...(signal ? { signal } : {}) });
  } catch (error) {
    throwIfAborted(signal);
    throw unreachable(error);
  }
  // An item the gateway lists but cannot serve is one nobody can read: passed over like a bad one.
  if (!response.ok || !response.body) return null;
  return response;
}

/** Reads every history item of the vault (each to R84's 2 MiB and no further) and has the worker judge them. */
async function readAndJudge(deps: RestoreDeps, vaultId: string, onProgress: (p: RestoreProgress) => void, signal?: AbortSignal): Promise<RestorePlan> {
  const items: RestoreHistoryItem[] = [];
  const seen = new Set<string>();
  let gateway = "this server's gateway";
  onProgress({ step: 'reading', items: 0 });
  for await (const node of listItems(deps, { vaultId, item: 'vault-history' }, signal)) {
    gateway = node.gateway;
    const seqFrom = decimalTag(node.tags, 'Seq-From');
    const seqTo = decimalTag(node.tags, 'Seq-To');
    if (seen.has(node.id) || seqFrom === null || seqTo === null || seqTo < seqFrom) continue;
    seen.add(node.id);
    let data: Uint8Array | null = null;
    if (node.size === null || node.size <= HISTORY_RUN_MAX_BYTES) {
      const response = await openItem(deps, node.id, signal);
      data = response ? await readAtMost(response, HISTORY_RUN_MAX_BYTES) : null;
    }
    // Unreadable or oversized: still counted, as the reader counts every item it is shown.
    items.push({ id: node.id, owner: node.owner, height: node.height, seqFrom, seqTo, data: data ?? new Uint8Array(0) });
    onProgress({ step: 'reading', items: items.length });
  }
  throwIfAborted(signal);
  onProgress({ step: 'verifying', items: items.length });
  try {
    return await deps.crypto.planRestore(vaultId, items, gateway === "this server's gateway" ? gateway : `the gateway ${gateway}`);
  } catch (error) {
    const match = error instanceof Error ? /^RESTORE:([A-Z_]+):([\s\S]*)$/.exec(error.message) : null;
    if (match) throw new AppRestoreError(match[1] as RestoreFailure, match[2]!);
    throw error;
  }
}

/** The judged operations from `fromSeq` on as import runs: consecutive, each within R84's limits. */
function runsOf(plan: RestorePlan, fromSeq: number): Generator<VaultHistoryRun> {
  return splitIntoRuns(plan.vaultId, plan.ops.filter((entry) => entry.seq >= fromSeq), Math.min(RUN_OPS, HISTORY_RUN_MAX_OPS), RUN_BYTES);
}

/** This user's view of the vault on this server: its head, or null when they cannot read it here. */
async function headHere(deps: RestoreDeps, vaultId: string): Promise<number | null> {
  try {
    return (await deps.api.get(`/vaults/${encodeURIComponent(vaultId)}/ops?after=0&limit=1`, PullResponse)).headSeq;
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'FORBIDDEN')) return null;
    throw error;
  }
}

/** R97: imports the plan unless this server has it already for this user (a restore run again). */
async function importPlan(deps: RestoreDeps, plan: RestorePlan, onProgress: (p: RestoreProgress) => void, signal?: AbortSignal): Promise<void> {
  const report = (headSeq: number) => onProgress({ step: 'importing', headSeq, total: plan.headSeq });
  report(0);
  let fromSeq = 1;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    throwIfAborted(signal);
    try {
      await importVaultHistory(deps.api, plan.vaultId, runsOf(plan, fromSeq), report);
      return;
    } catch (error) {
      if (!(error instanceof ApiError)) throw unreachable(error);
      // An import of ours that an interruption left in progress: go on from where the server is.
      const expected = error.details?.find((detail) => detail.path === 'run.seqFrom');
      if (error.code === 'UNPROCESSABLE' && expected && attempt === 0) {
        fromSeq = Number(expected.message);
        continue;
      }
      if (error.code === 'CONFLICT') {
        const head = await headHere(deps, plan.vaultId).catch(() => null);
        // Imported already (by this user, or it is theirs here): only the bytes may be missing.
        if (head !== null && head >= plan.headSeq) {
          report(head);
          return;
        }
        throw new AppRestoreError('ALREADY_HERE', 'This server already has this vault: open it from your vault list, or ask its owner to invite you.');
      }
      const seq = refusedSeqOf(error);
      throw new AppRestoreError(
        'IMPORT_REFUSED',
        seq !== null ? `This server refused operation ${seq} of the vault: ${error.message}.` : `This server refused the import: ${error.message}.`,
      );
    }
  }
}

/**
 * Uploads each version's stored chunks that the server lacks, from the first item of its blob
 * whose chunks all have their signed hashes (R86); another item is tried when one fails.
 */
async function uploadVersions(deps: RestoreDeps, plan: RestorePlan, onProgress: (p: RestoreProgress) => void, signal?: AbortSignal): Promise<void> {
  const byBlob = new Map(plan.versions.map((version) => [version.blobId, version]));
  const versions = [...byBlob.values()];
  const totalBytes = versions.reduce((sum, version) => sum + version.storedSize, 0);
  let done = 0;
  const base = deps.baseUrl ?? '/api';
  const vaultPath = `/vaults/${encodeURIComponent(plan.vaultId)}`;
  for (const [index, version] of versions.entries()) {
    const progress = (bytes: number) => onProgress({ step: 'uploading', file: index + 1, files: versions.length, fileName: version.fileName, bytes, totalBytes });
    progress(done);
    throwIfAborted(signal);
    const status = await deps.api.get(`${vaultPath}/blobs/${encodeURIComponent(version.blobId)}`, BlobStatusResponse).catch((error: unknown) => {
      throw unreachable(error);
    });
    const stored = new Set(status.storedChunks);
    if (stored.size >= version.chunkCount) {
      done += version.storedSize;
      continue;
    }
    const header = chunkHeaderFor(version.size, version.chunkSize);
    let lastProblem = 'no item holds its bytes';
    let isDone = false;
    for await (const item of listItems(deps, { vaultId: plan.vaultId, item: 'file-version', blobId: version.blobId }, signal)) {
      if (item.size !== null && item.size !== version.storedSize) {
        lastProblem = `item ${item.id} is ${item.size} bytes where the version stores ${version.storedSize}`;
        continue;
      }
      const response = await openItem(deps, item.id, signal);
      if (!response) {
        lastProblem = `item ${item.id} could not be read`;
        continue;
      }
      let chunkIndex = 0;
      let sent = 0;
      try {
        for await (const chunk of storedChunks(response.body as unknown as AsyncIterable<Uint8Array>, header, version.isEncrypted)) {
          throwIfAborted(signal);
          const hash = await sha256Hex(chunk);
          if (hash !== version.chunkHashes[chunkIndex]) throw new Error(`chunk ${chunkIndex + 1} of ${version.chunkCount} does not match its signed hash`);
          if (!stored.has(chunkIndex)) await putChunk(base, vaultPath, version.blobId, chunkIndex, chunk, hash);
          sent += chunk.length;
          progress(done + sent);
          chunkIndex += 1;
        }
        isDone = true;
        break;
      } catch (error) {
        if (error instanceof AppRestoreError) throw error;
        if (error instanceof UploadFailure) throw unreachable(error);
        lastProblem = `item ${item.id}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    if (!isDone) throw new AppRestoreError('TAMPERED', `The file "${version.fileName}" has no intact copy on the network (${lastProblem}).`);
    done += version.storedSize;
    progress(done);
  }

  async function putChunk(baseUrl: string, path: string, blobId: string, chunkIndex: number, chunk: Uint8Array, hash: string): Promise<void> {
    let response: Response;
    try {
      response = await deps.fetch(`${baseUrl}${path}/blobs/${encodeURIComponent(blobId)}/chunks/${chunkIndex}`, {
        method: 'PUT',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/octet-stream', 'x-chunk-sha256': hash },
        body: chunk as BodyInit,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throwIfAborted(signal);
      throw new UploadFailure(error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) throw new UploadFailure(`this server answered ${response.status} to chunk ${chunkIndex + 1}`);
  }
}

class UploadFailure extends Error {}

/** The whole restore; resolves with the plan when every step is done (R96, R97). */
export async function restoreVaultFromNetwork(deps: RestoreDeps, vaultId: string, onProgress: (p: RestoreProgress) => void = () => {}, signal?: AbortSignal): Promise<RestorePlan> {
  const plan = await readAndJudge(deps, vaultId, onProgress, signal);
  await importPlan(deps, plan, onProgress, signal);
  await uploadVersions(deps, plan, onProgress, signal);
  onProgress({ step: 'done', vaultId, name: plan.name });
  return plan;
}

export { RestoreError };
