/**
 * Generate JSON metadata (spec 000 sections 2, 5, 6; docs/SYNC_SPEC.md R45-R46): an Arweave path
 * manifest over a public permanent vault's live files, uploaded as 'manifest.json' at the vault
 * root through the normal upload path (a new version when the file exists), with the content type
 * gateways resolve as a manifest.
 *
 * The manifest is built from what this device holds: the projected nodes, and the data item ids
 * of the versions in the storage transactions cache. A file whose current version has no id here
 * is left out and counted.
 */
import { buildArweaveManifest, MANIFEST_CONTENT_TYPE, MANIFEST_FILE_NAME, type ManifestBuild, serializeManifest } from '../domain/arweaveManifest';
import type { CairnDb } from '../storage/db';
import { statusesByVersion } from '../storage/storageTxStore';
import { getVaultNodes } from '../storage/vaultStore';
import type { NodeRecord } from '../storage/vaultRecords';
import { requireSync } from './currentSync';
import { currentStorageTxSync } from './storageTxSync';
import { uploadFiles } from './vaultActions';

/** Older pages of storage transactions fetched at most, looking for versions the cache lacks. */
const MAX_EXTRA_PAGES = 10;

export interface ManifestPlan extends ManifestBuild {
  vaultId: string;
  /** The live manifest.json at the root that gets a new version, or null for a new file. */
  replaceFileId: string | null;
}

/** The root's live manifest.json (by name; the smallest id when, unusually, there are several). */
function findManifestFile(nodes: readonly NodeRecord[]): NodeRecord | null {
  const matches = nodes.filter((n) => n.kind === 'file' && n.parentId === null && n.status === 'ACTIVE' && n.name === MANIFEST_FILE_NAME);
  matches.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return matches[0] ?? null;
}

/**
 * Builds the manifest for `vaultId` from the device's tables. When some live file's version has
 * no cached transaction and the server has older pages, up to MAX_EXTRA_PAGES of them are loaded
 * first (as 'Load more transactions...' does; offline this does nothing).
 */
export async function planManifest(vaultId: string): Promise<ManifestPlan> {
  const { ctx } = requireSync();
  let plan = await readManifestPlan(ctx.db, ctx.accountId, vaultId);
  const sync = currentStorageTxSync();
  const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
  for (let page = 0; !plan.isCached && sync?.hasMore && !isOffline() && page < MAX_EXTRA_PAGES; page += 1) {
    if (!(await sync.loadMore())) break;
    plan = await readManifestPlan(ctx.db, ctx.accountId, vaultId);
  }
  const { isCached: _isCached, ...result } = plan;
  return result;
}

/**
 * The manifest of `vaultId` from the device's tables alone: its nodes, and the data item ids of
 * the live files' current versions in the storage transactions cache. `isCached`: every live
 * file's version has a cached transaction (so older pages need not be looked at).
 */
export async function readManifestPlan(db: CairnDb, accountId: string, vaultId: string): Promise<ManifestPlan & { isCached: boolean }> {
  const nodes = await getVaultNodes(db, accountId, vaultId);
  const versionIds = nodes.flatMap((n) => (n.kind === 'file' && n.status === 'ACTIVE' && n.latestVersionId ? [n.latestVersionId] : []));
  const txs = await statusesByVersion(db, accountId, versionIds);
  const dataItemIds = new Map<string, string>();
  for (const [versionId, tx] of txs) if (tx.dataItemId) dataItemIds.set(versionId, tx.dataItemId);
  const existing = findManifestFile(nodes);
  const build = buildArweaveManifest(nodes, dataItemIds, { excludeFileId: existing?.id ?? null });
  return { vaultId, replaceFileId: existing?.id ?? null, ...build, isCached: versionIds.every((id) => txs.has(id)) };
}

/** Queues the manifest's upload as manifest.json at the root (a new version when it exists). */
export async function uploadManifest(plan: ManifestPlan): Promise<void> {
  const bytes = serializeManifest(plan.manifest);
  const file = new File([bytes], MANIFEST_FILE_NAME, { type: MANIFEST_CONTENT_TYPE });
  await uploadFiles(plan.vaultId, null, [{ file, name: MANIFEST_FILE_NAME, ...(plan.replaceFileId ? { replaceFileId: plan.replaceFileId } : {}) }]);
}
