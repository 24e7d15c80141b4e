/**
 * Generate JSON metadata (spec 000 sections 2, 5, 6): an Arweave path manifest over a public
 * permanent vault's files, so one gateway URL (the manifest's data item id) serves every file by
 * its folder path. Pure: the caller reads the nodes and the versions' data item ids from Dexie.
 *
 * Format (Arweave path manifests 0.2.0): `{"manifest": "arweave/paths", "version": "0.2.0",
 * "index": {"path": ...}, "paths": {"<folder>/<name>": {"id": "<data item id>"}}}`.
 * Gateways look a request's decoded subpath up in `paths` as is, so a key is the file's folder
 * names and its own name joined by '/'.
 */

import { canUploadFiles, type VaultAccess } from './vaultPermissions';

/** The file the manifest is uploaded as, at the vault root. */
export const MANIFEST_FILE_NAME = 'manifest.json';
/** Its content type: the relay's Content-Type tag tells gateways to resolve it as a manifest. */
export const MANIFEST_CONTENT_TYPE = 'application/x.arweave-manifest+json';
/** The root file served for the manifest's own URL, when the vault has one (else the first path). */
export const MANIFEST_INDEX_NAME = 'index.html';

/** Manifest types of the creation modal (spec 000 section 3); the marketplace is shown as 'Soon'. */
export const MANIFEST_TYPES = [
  { value: 'permanent', label: 'Permanent network', isAvailable: true },
  { value: 'marketplace', label: 'Marketplace', isAvailable: false },
] as const;
export type ManifestType = (typeof MANIFEST_TYPES)[number]['value'];

/**
 * The 'Generate JSON metadata' link: only for public permanent vaults (spec 000 section 5), and
 * disabled for whoever cannot upload (VIEWER, read-only mode, archived vaults; section 6), since
 * the manifest is uploaded as a file.
 */
export function manifestLinkState(vault: { isPublic: boolean; isCloud: boolean }, access: VaultAccess): 'hidden' | 'disabled' | 'enabled' {
  if (!vault.isPublic || vault.isCloud) return 'hidden';
  return canUploadFiles(access) ? 'enabled' : 'disabled';
}

export interface ArweavePathManifest {
  manifest: 'arweave/paths';
  version: '0.2.0';
  index?: { path: string };
  paths: Record<string, { id: string }>;
}

/** What the builder needs of a projected node (NodeRecord has all of it). */
export interface ManifestNode {
  id: string;
  kind: 'folder' | 'file';
  parentId: string | null;
  name: string;
  status: 'ACTIVE' | 'REVOKED' | 'DELETED';
  latestVersionId: string | null;
}

export interface ManifestBuild {
  manifest: ArweavePathManifest;
  /** Files mapped in `paths`. */
  includedCount: number;
  /** Live files whose current version has no data item id yet (not bundled, or not known here). */
  missingIdCount: number;
  /** Live files whose path another file already takes (the one with the smaller id is kept). */
  duplicatePathCount: number;
}

/**
 * One path segment for a name. '/' separates folders, so a '/' inside a name is written '%2F'
 * (a gateway decodes a requested '%252F' to it); every other character is kept as the name has
 * it, since gateways match the decoded request path. The names a URL cannot carry as a segment
 * ('.', '..', which clients resolve away) are escaped the same way ('.' as '%2E').
 */
export function manifestSegment(name: string): string {
  const escaped = name.replace(/\//g, '%2F');
  if (escaped === '.' || escaped === '..') return escaped.replace(/\./g, '%2E');
  return escaped;
}

/** Code-unit order, the same on every device and locale (so the JSON is byte-for-byte stable). */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Builds the manifest over `nodes` (one vault's projection). A file is included when it and every
 * folder above it are ACTIVE (hidden files and the contents of hidden folders are left out) and
 * its current version has an id in `dataItemIds` (by version id). `excludeFileId`: the
 * manifest.json being replaced, which must not map to its own previous version. Paths are
 * sorted, so the same vault gives the same bytes.
 */
export function buildArweaveManifest(
  nodes: readonly ManifestNode[],
  dataItemIds: ReadonlyMap<string, string>,
  options: { excludeFileId?: string | null } = {},
): ManifestBuild {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  /** Folder path segments by folder id; null when the folder or one above it is not live. */
  const folderPaths = new Map<string, string[] | null>();
  const folderPath = (folderId: string | null, seen: Set<string> = new Set()): string[] | null => {
    if (folderId === null) return [];
    const known = folderPaths.get(folderId);
    if (known !== undefined) return known;
    const folder = byId.get(folderId);
    // An unknown or cyclic parent cannot be placed: leave its contents out.
    if (!folder || folder.kind !== 'folder' || folder.status !== 'ACTIVE' || seen.has(folderId)) {
      folderPaths.set(folderId, null);
      return null;
    }
    seen.add(folderId);
    const above = folderPath(folder.parentId, seen);
    const path = above === null ? null : [...above, manifestSegment(folder.name)];
    folderPaths.set(folderId, path);
    return path;
  };

  const candidates: { path: string; fileId: string; dataItemId: string }[] = [];
  let missingIdCount = 0;
  for (const node of nodes) {
    if (node.kind !== 'file' || node.status !== 'ACTIVE' || node.id === options.excludeFileId) continue;
    const above = folderPath(node.parentId);
    if (above === null) continue;
    const dataItemId = node.latestVersionId ? dataItemIds.get(node.latestVersionId) : undefined;
    if (!dataItemId) {
      missingIdCount += 1;
      continue;
    }
    candidates.push({ path: [...above, manifestSegment(node.name)].join('/'), fileId: node.id, dataItemId });
  }

  candidates.sort((a, b) => compareCodeUnits(a.path, b.path) || compareCodeUnits(a.fileId, b.fileId));
  const paths: Record<string, { id: string }> = {};
  let duplicatePathCount = 0;
  for (const candidate of candidates) {
    if (Object.hasOwn(paths, candidate.path)) duplicatePathCount += 1;
    else paths[candidate.path] = { id: candidate.dataItemId };
  }

  // The index is optional in the format, but some gateways (arlocal, the embedded one) resolve no
  // path at all without it: a root index.html when there is one, else the first path.
  const first = Object.keys(paths)[0];
  const indexPath = Object.hasOwn(paths, MANIFEST_INDEX_NAME) ? MANIFEST_INDEX_NAME : first;
  const manifest: ArweavePathManifest = {
    manifest: 'arweave/paths',
    version: '0.2.0',
    ...(indexPath !== undefined ? { index: { path: indexPath } } : {}),
    paths,
  };
  return { manifest, includedCount: candidates.length - duplicatePathCount, missingIdCount, duplicatePathCount };
}

/** The manifest file's bytes: JSON, indented for people reading it on a gateway. */
export function serializeManifest(manifest: ArweavePathManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** What the confirmation says about files left out, or null when none are. */
export function leftOutText(build: Pick<ManifestBuild, 'missingIdCount' | 'duplicatePathCount'>): string | null {
  const parts: string[] = [];
  if (build.missingIdCount > 0) {
    parts.push(
      build.missingIdCount === 1
        ? '1 file is left out: it is not yet on the network.'
        : `${build.missingIdCount} files are left out: they are not yet on the network.`,
    );
  }
  if (build.duplicatePathCount > 0) {
    parts.push(
      build.duplicatePathCount === 1
        ? '1 file is left out: another file has the same name in its folder.'
        : `${build.duplicatePathCount} files are left out: other files have the same names in their folders.`,
    );
  }
  return parts.length ? parts.join(' ') : null;
}
