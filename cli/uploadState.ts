/**
 * What an interrupted `cairn upload` leaves to go on from (docs/decisions.md, "the cairn
 * command"): the app's own upload records and pending operations, as its IndexedDB holds them,
 * and the path each upload reads. Run again with the same arguments, the command puts them back
 * into a fresh device and the app's upload queue resumes as after a reload: it checks the source
 * is unchanged, asks the server which chunks it holds, and sends only the others.
 *
 * Secrets stay sealed: an upload's file key is kept only as the record keeps it, sealed under the
 * vault key (which only the recovery phrase opens), and chunk hashes are of sealed chunks. File
 * and folder names are written as on the user's own disk (the file is 0600, under the config dir).
 */
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { CairnDb } from '../src/storage/db';
import type { OutboxRecord, UploadRecord } from '../src/storage/vaultRecords';
import { writePrivateFile } from './config';

const STATE_VERSION = 1;

const SavedUpload = z.looseObject({ accountId: z.string(), uploadId: z.string(), vaultId: z.string(), blobId: z.string(), state: z.string(), batchId: z.string() });
const SavedOp = z.looseObject({ accountId: z.string(), opId: z.string(), vaultId: z.string(), status: z.string() });

const StateFileShape = z.strictObject({
  version: z.literal(STATE_VERSION),
  /** upload id -> the absolute path it reads. */
  sources: z.record(z.string(), z.string()),
  uploads: z.array(SavedUpload),
  outbox: z.array(SavedOp),
});
export interface UploadStateFile {
  version: typeof STATE_VERSION;
  /** upload id -> the absolute path it reads. */
  sources: Record<string, string>;
  uploads: UploadRecord[];
  /** The vault's operations still in the outbox (folders made, files added). */
  outbox: OutboxRecord[];
}

/** The state file of one upload command: named by a hash of what it uploads where, so the same arguments find it. */
export function uploadStateFile(dir: string, key: { server: string; accountId: string; vaultId: string; to: string[]; paths: string[] }): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([key.server, key.accountId, key.vaultId, key.to, [...key.paths].sort()]))
    .digest('hex')
    .slice(0, 32);
  return path.join(dir, 'uploads', `${hash}.json`);
}

export async function readUploadState(file: string): Promise<UploadStateFile | null> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = StateFileShape.safeParse(JSON.parse(text));
    // Our own file, checked for the keys the queue and the outbox index on; the rest of each
    // record is the app's, as this command wrote it.
    return parsed.success ? (parsed.data as unknown as UploadStateFile) : null;
  } catch {
    return null;
  }
}

/** The upload records and the vault's pending operations as they stand now. */
export async function captureUploadState(db: CairnDb, accountId: string, vaultId: string, sources: ReadonlyMap<string, string>): Promise<UploadStateFile> {
  const uploads = (await db.uploads.bulkGet([...sources.keys()].map((uploadId) => [accountId, uploadId] as [string, string]))).filter((r): r is UploadRecord => r !== undefined);
  const outbox = await db.outbox.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray();
  return { version: STATE_VERSION, sources: Object.fromEntries(sources), uploads, outbox };
}

export async function writeUploadState(file: string, state: UploadStateFile): Promise<void> {
  await writePrivateFile(file, JSON.stringify(state));
}

/** Puts a saved state back into a device's database (after its first pull, so the vault and its keys are there). */
export async function restoreUploadState(db: CairnDb, state: UploadStateFile): Promise<void> {
  await db.uploads.bulkPut(state.uploads);
  await db.outbox.bulkPut(state.outbox);
}
