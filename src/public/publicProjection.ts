/**
 * The signed-out projection of a PUBLIC vault (SYNC_SPEC R41). Built in memory, never in Dexie:
 * it is keyed by the pseudo account id PUBLIC_ACCOUNT_ID only so the shared projection code
 * (applyOperation, computeFolderSizes) can run on it unchanged, and since nothing of it is stored,
 * it cannot mix with a signed-in account's tables, needs no wipe on log out, and is gone when the
 * page closes. Operations come from /api/public by cursor, their signatures are checked exactly as
 * a member's pull checks them (verifyOperations) and their authors' roles are judged from the
 * served member operations (judgePublicOperation, R67); refused ones are never applied. Fields
 * of a public vault are `{clear}`; a sealed one (impossible on a public vault) opens to null.
 */
import { operationFields } from '../../workers/crypto/vaultCrypto';
import type { OpenedFields } from '../../workers/crypto/CryptoApi';
import { verifyOperations } from '../crypto/operations';
import type { NftLogEntry } from '../domain/nftsOfVault';
import { judgePublicOperation, newVaultLogState } from '../domain/vaultLog';
import { PublicPullResponse, PublicVaultSummary } from '../protocol/publicVaults';
import { type SequencedOperation, VAULT_LIMITS } from '../protocol/vaults';
import { emptyVaultRecord, newVaultState, type VaultState } from '../storage/vaultProjection';
import type { NodeRecord, VersionRecord } from '../storage/vaultRecords';
import { applyOperation, computeFolderSizes } from '../sync/applyOperation';

/** The account id every record of a public projection carries (never a real account's id). */
export const PUBLIC_ACCOUNT_ID = 'public';

/** GETs JSON from /api/public; throws PublicVaultError('NOT_FOUND') on 404. */
export type PublicFetch = (path: string) => Promise<Response>;

export class PublicVaultError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'FAILED' | 'CHUNK_TAMPERED',
    message: string,
  ) {
    super(message);
    this.name = 'PublicVaultError';
  }
}

export const defaultPublicFetch: PublicFetch = (path) => fetch(`/api/public${path}`, { credentials: 'omit' });

async function getJson(fetcher: PublicFetch, path: string): Promise<unknown> {
  const response = await fetcher(path);
  if (response.status === 404) throw new PublicVaultError('NOT_FOUND', 'This vault does not exist or is not public.');
  if (!response.ok) throw new PublicVaultError('FAILED', `The vault could not be loaded (${response.status}).`);
  return response.json();
}

/** The clear fields of a verified operation, by name. */
export function clearFields(op: SequencedOperation['op']): OpenedFields {
  const fields: OpenedFields = {};
  for (const { name, value } of operationFields(op)) {
    if (value) fields[name] = 'clear' in value ? value.clear : null;
  }
  return fields;
}

export interface PublicVault {
  summary: PublicVaultSummary;
  state: VaultState;
  /**
   * Operations skipped because their signature did not verify or their author was not allowed to
   * make them (R67): never applied.
   */
  unverified: number;
  /** The accepted `nft.mint` and `nft.collection` operations, in seq order (nftsOfVault reads them, R141). */
  nftLog: NftLogEntry[];
}

/** Fetches the summary and every operation, page by page, and projects them in memory. */
export async function loadPublicVault(vaultId: string, fetcher: PublicFetch = defaultPublicFetch): Promise<PublicVault> {
  const id = encodeURIComponent(vaultId);
  const summary = PublicVaultSummary.parse(await getJson(fetcher, `/vaults/${id}`));
  const state = newVaultState({ ...emptyVaultRecord(PUBLIC_ACCOUNT_ID, vaultId), isPublic: true, role: 'VIEWER' });
  const log = newVaultLogState();
  let after = 0;
  let unverified = 0;
  const nftLog: NftLogEntry[] = [];
  for (;;) {
    const page = PublicPullResponse.parse(await getJson(fetcher, `/vaults/${id}/ops?after=${after}&limit=${VAULT_LIMITS.PULL_PAGE_MAX}`));
    const verdicts = await verifyOperations(page.ops.map((o) => o.op));
    for (const [i, entry] of page.ops.entries()) {
      // The viewer judges the log as a member's device does (R50, R67): the signature, and that
      // the author was a member with the role the operation needs at that point.
      if (!judgePublicOperation(log, vaultId, entry, verdicts[i] === true).isAccepted) {
        unverified += 1;
        continue;
      }
      const { seq, receivedAt, op } = entry;
      if (op.body.type === 'nft.mint' || op.body.type === 'nft.collection') nftLog.push({ seq, time: receivedAt, op });
      applyOperation(state, { op, fields: clearFields(op), time: receivedAt, isPending: false, seq });
    }
    // The public page leaves out what a viewer may not see (R53): seq has gaps, and a page can be
    // empty with more after it. The server's cursor says where the next page starts; a cursor that
    // does not move ends the pull rather than asking for the same page forever.
    const next = Math.max(page.nextAfter, page.ops.at(-1)?.seq ?? 0);
    if (next <= after) break;
    after = next;
    if (!page.hasMore) break;
  }
  computeFolderSizes(state);
  // A viewer never owns anything here: the projection says so whatever vault.create implied.
  Object.assign(state.vault, { role: 'VIEWER', status: summary.status, ownerAddress: summary.ownerAddress, headSeq: summary.headSeq, cursor: after });
  return { summary, state, unverified, nftLog };
}

/** Active children of `parentId` (null: the root): folders first, then files, each by name. */
export function listChildren(state: VaultState, parentId: string | null): NodeRecord[] {
  const children = [...state.nodes.values()].filter((n) => n.parentId === parentId && n.status === 'ACTIVE');
  return children.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'folder' ? -1 : 1));
}

/** The folders from the root down to `folderId` (empty for the root or an unknown folder). */
export function folderPath(state: VaultState, folderId: string | null): NodeRecord[] {
  const path: NodeRecord[] = [];
  const seen = new Set<string>();
  let id = folderId;
  while (id && !seen.has(id)) {
    seen.add(id);
    const node = state.nodes.get(id);
    if (!node || node.kind !== 'folder' || node.status !== 'ACTIVE') return [];
    path.unshift(node);
    id = node.parentId;
  }
  return path;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The latest version of a public file as a Blob: every chunk is fetched and checked against the
 * hash its uploader signed (the version came from a verified operation), so a tampered chunk is
 * refused, as in a member's download. Public chunks are the clear bytes.
 */
export async function downloadPublicFile(state: VaultState, fileId: string, fetcher: PublicFetch = defaultPublicFetch): Promise<Blob> {
  const node = state.nodes.get(fileId);
  const version: VersionRecord | undefined = node?.latestVersionId ? state.versions.get(node.latestVersionId) : undefined;
  if (!node || !version) throw new PublicVaultError('NOT_FOUND', 'This file is not available.');
  return downloadPublicVersion(state.vault.vaultId, version, fetcher);
}

/** A version the viewer holds from a verified operation (a file's, an NFT's asset), checked chunk by chunk. */
export async function downloadPublicVersion(
  vaultId: string,
  version: Pick<VersionRecord, 'blobId' | 'chunkCount' | 'chunkHashes' | 'mimeTypeText'>,
  fetcher: PublicFetch = defaultPublicFetch,
): Promise<Blob> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let index = 0; index < version.chunkCount; index++) {
    const response = await fetcher(`/vaults/${encodeURIComponent(vaultId)}/blobs/${encodeURIComponent(version.blobId)}/chunks/${index}`);
    if (!response.ok) throw new PublicVaultError('FAILED', 'There was an error downloading the file.');
    const bytes = new Uint8Array(await response.arrayBuffer());
    if ((await sha256Hex(bytes)) !== version.chunkHashes[index]) {
      throw new PublicVaultError('CHUNK_TAMPERED', "This file's content does not match what its uploader signed: it may have been tampered with, so it was not opened.");
    }
    parts.push(bytes);
  }
  return new Blob(parts, { type: version.mimeTypeText || 'application/octet-stream' });
}

/**
 * The thumbnail of a public file's latest version (SYNC_SPEC R79, R79a), or null when it has none
 * (older uploads, other types). Fetched through the public chunk route, which serves it only while
 * the file is shown (R53), and checked against the hash its uploader signed, like the content. A
 * public vault stores the clear image; a version with a file key (impossible in a public vault)
 * would hold a sealed one the viewer cannot open, so it gets its icon.
 */
export async function loadPublicThumbnail(state: VaultState, fileId: string, fetcher: PublicFetch = defaultPublicFetch): Promise<Blob | null> {
  const node = state.nodes.get(fileId);
  const version = node?.latestVersionId ? state.versions.get(node.latestVersionId) : undefined;
  const thumbnail = version?.thumbnail;
  if (!version || !thumbnail || version.fileKey) return null;
  const response = await fetcher(`/vaults/${encodeURIComponent(state.vault.vaultId)}/blobs/${encodeURIComponent(thumbnail.blobId)}/chunks/0`);
  if (!response.ok) throw new PublicVaultError('FAILED', `The thumbnail could not be loaded (${response.status}).`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if ((await sha256Hex(bytes)) !== thumbnail.sha256) throw new PublicVaultError('CHUNK_TAMPERED', 'The thumbnail does not match what its uploader signed.');
  return new Blob([bytes]);
}
