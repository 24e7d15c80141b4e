/**
 * A file version's thumbnail for the list (docs/SYNC_SPEC.md R79), lazily: the device's copy when
 * it has one, else the stored chunk fetched, checked against the hash its uploader signed, opened
 * under the key derived from the version's file key (private vaults) and kept in IndexedDB. Null
 * for a version without one (older uploads, other types) or when it cannot be had now (offline,
 * a refused or tampered chunk): the list then shows the type's icon and never waits.
 */
import { bytesToHex } from '../crypto/encoding';
import { openThumbnail } from '../crypto/thumbnailSeal';
import { readThumbnail, saveThumbnail } from '../storage/thumbnailStore';
import { chunkPath, type SyncContext } from './SyncContext';

const API_BASE = '/api';

export type FetchChunk = (url: string) => Promise<ArrayBuffer>;

async function fetchChunk(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`The thumbnail answered ${response.status}`);
  return response.arrayBuffer();
}

/** Null: the version has no thumbnail. Undefined: the version is not on this device (yet). */
export async function loadThumbnail(ctx: SyncContext, versionId: string, fetcher: FetchChunk = fetchChunk): Promise<Blob | null | undefined> {
  const kept = await readThumbnail(ctx.db, ctx.accountId, versionId);
  if (kept) return kept;
  const version = await ctx.db.versions.get([ctx.accountId, versionId]);
  if (!version) return undefined;
  const thumbnail = version.thumbnail;
  if (!thumbnail) return null;
  const stored = new Uint8Array(await fetcher(API_BASE + chunkPath(version.vaultId, thumbnail.blobId, 0)));
  const hash = bytesToHex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', stored)));
  if (hash !== thumbnail.sha256) throw new Error('The thumbnail does not match what its uploader signed');
  let image: Uint8Array<ArrayBuffer> = stored;
  if (version.fileKey) {
    const rawKey = await ctx.crypto.openFileKey(version.vaultId, versionId, version.fileKey);
    image = await openThumbnail(new Uint8Array(rawKey), versionId, stored);
  }
  const blob = new Blob([image]);
  await saveThumbnail(ctx.db, { accountId: ctx.accountId, vaultId: version.vaultId, versionId, image: blob, cachedAt: ctx.now() });
  return blob;
}
