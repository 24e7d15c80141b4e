/**
 * DATA_DIR is private to the server's user (issue 18): the SQLite database holds the OPAQUE
 * server keys, TOTP secrets and session hashes, mail/ holds recovery links, sms/ holds codes,
 * blobs/ the chunks and arweave-wallet.json the relay's key. Folders are made 0700 and files 0600,
 * and an existing DATA_DIR made looser by an older version is tightened at start.
 */
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** What the server process creates is for its own user only (SQLite's journals, arlocal's data...). */
export const PRIVATE_UMASK = 0o077;

/** The folders the server writes under DATA_DIR. */
const DATA_SUBDIRS = ['mail', 'sms', 'blobs', 'arlocal'];
/** The files of DATA_DIR's top level that hold secrets. */
const DATA_FILES = ['cairn.sqlite', 'cairn.sqlite-wal', 'cairn.sqlite-shm', 'cairn.sqlite-journal', 'arweave-wallet.json'];

/**
 * Creates DATA_DIR (0700) if needed, and makes it, its known folders and its secret files private.
 * Other files under blobs/ and arlocal/ need no walk: a 0700 folder closes them to other users.
 */
export function preparePrivateDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dataDir, PRIVATE_DIR_MODE);
  for (const name of DATA_SUBDIRS) chmodIfPresent(path.join(dataDir, name), PRIVATE_DIR_MODE);
  for (const name of DATA_FILES) chmodIfPresent(path.join(dataDir, name), PRIVATE_FILE_MODE);
  const mail = path.join(dataDir, 'mail');
  const sms = path.join(dataDir, 'sms');
  for (const dir of [mail, sms]) {
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir)) chmodIfPresent(path.join(dir, name), PRIVATE_FILE_MODE);
  }
}

/** `mkdir -p` whose new folders are 0700. */
export async function makePrivateDir(dir: string): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

function chmodIfPresent(file: string, mode: number): void {
  try {
    fs.chmodSync(file, mode);
  } catch (error) {
    if (!(typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT')) throw error;
  }
}
