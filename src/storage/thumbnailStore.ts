/**
 * Opened thumbnails (docs/SYNC_SPEC.md R79): the image of a file version as the device opened
 * it, kept so a list shown again (online or offline) needs no network. Keyed by version: a
 * version's thumbnail never changes. Log out wipes it with the account; a dropped vault's go with
 * it (R56).
 */
import type { CairnDb } from './db';

export interface ThumbnailRecord {
  accountId: string;
  vaultId: string;
  versionId: string;
  /** The decoded-ready image (WebP, JPEG or PNG), in clear: it stays on this device. */
  image: Blob;
  cachedAt: number;
}

export async function readThumbnail(db: CairnDb, accountId: string, versionId: string): Promise<Blob | null> {
  return (await db.thumbnails.get([accountId, versionId]))?.image ?? null;
}

export async function saveThumbnail(db: CairnDb, record: ThumbnailRecord): Promise<void> {
  await db.thumbnails.put(record);
}
