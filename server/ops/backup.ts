/**
 * `npm run backup` and `npm run restore` (docs/operations.md, docs/decisions.md "Server backups").
 *
 * A backup is a folder: the database (SQLite `VACUUM INTO` or a `pg_dump` custom-format archive),
 * the chunk store (the disk store's files, or the S3 store's key listing), the relay wallet, and
 * manifest.json naming every file with its size and SHA-256. The OPAQUE server keys and other
 * server secrets live in the database (`server_secrets`), so they travel with it. The manifest is
 * written last: a folder without one is an interrupted backup.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { z } from 'zod';
import type { Config } from '../config';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../privateFiles';
import { BackupError } from './backupErrors';
import { runPgTool } from './postgresTools';

export { BackupError };

export const BACKUP_FORMAT_VERSION = 1;
const MANIFEST = 'manifest.json';
const SQLITE_FILE = 'database.sqlite';
const PG_DUMP_FILE = 'database.pgdump';
const BLOBS_DIR = 'blobs';
const BLOB_LISTING = 'blobs-listing.txt';
const WALLET_FILE = 'arweave-wallet.json';

const ManifestFile = z.strictObject({
  path: z.string().min(1),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const BackupManifest = z.object({
  format: z.literal('cairn-backup'),
  formatVersion: z.literal(BACKUP_FORMAT_VERSION),
  createdAt: z.string(),
  appVersion: z.string(),
  database: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('sqlite'), file: z.literal(SQLITE_FILE) }),
    z.strictObject({ kind: z.literal('postgres'), file: z.literal(PG_DUMP_FILE), format: z.literal('pg_dump custom') }),
  ]),
  blobs: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('disk'), dir: z.literal(BLOBS_DIR), count: z.number().int().min(0) }),
    z.strictObject({ kind: z.literal('s3'), listing: z.literal(BLOB_LISTING), count: z.number().int().min(0), store: z.record(z.string(), z.string()) }),
  ]),
  wallet: z.strictObject({ file: z.literal(WALLET_FILE) }).nullable(),
  /** Every file of the backup but the manifest, with its size and SHA-256. */
  files: z.array(ManifestFile),
});
export type BackupManifest = z.infer<typeof BackupManifest>;

/**
 * Where the chunks are. The disk store's folder is copied; an object store (S3_BUCKET, the S3
 * store) stays where it is, with its own versioning and replication, and the backup records the
 * keys it held so a restore can be checked against the bucket.
 */
export type BlobSource =
  | { kind: 'disk'; dir: string }
  | { kind: 's3'; store: Record<string, string>; listKeys(): AsyncIterable<string> };

/** The structured logger of the server (pino); only these two levels are used. */
export interface OpsLog {
  info(detail: object, message: string): void;
  warn(detail: object, message: string): void;
}

export interface BackupOptions {
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'sqlitePath' | 'arweaveWallet'>;
  out: string;
  blobs?: BlobSource;
  log: OpsLog;
  /** Tests: the manifest's time. */
  now?: () => Date;
}

/** Writes a backup of the running (or stopped) server's data into `out`, a new or empty folder. */
export async function createBackup(options: BackupOptions): Promise<BackupManifest> {
  const { config, log } = options;
  const out = path.resolve(options.out);
  requireEmptyDir(out, `The backup folder ${out} is not empty: choose a new or empty folder`);
  if (!config.databaseUrl && !fs.existsSync(config.sqlitePath)) {
    throw new BackupError(`No database at ${config.sqlitePath}: is DATA_DIR (${config.dataDir}) right?`);
  }
  fs.mkdirSync(out, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(out, PRIVATE_DIR_MODE);
  const createdAt = (options.now?.() ?? new Date()).toISOString();

  // The database first, then the chunks: a chunk the snapshot names was stored before it, so it is
  // in the copy; chunks stored after it are extra and harmless (no file names them).
  let database: BackupManifest['database'];
  if (config.databaseUrl) {
    const file = path.join(out, PG_DUMP_FILE);
    // pg_dump reads in one repeatable-read transaction: a consistent snapshot while the server runs.
    await runPgTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`], config.databaseUrl);
    fs.chmodSync(file, PRIVATE_FILE_MODE);
    database = { kind: 'postgres', file: PG_DUMP_FILE, format: 'pg_dump custom' };
  } else {
    const file = path.join(out, SQLITE_FILE);
    const source = new SQLite(config.sqlitePath, { readonly: true, fileMustExist: true });
    try {
      // A running server may hold the write lock for a moment; wait for it as the server does.
      source.pragma('busy_timeout = 10000');
      // One read transaction copies a consistent database, whatever the server writes meanwhile.
      source.prepare('VACUUM INTO ?').run(file);
    } finally {
      source.close();
    }
    fs.chmodSync(file, PRIVATE_FILE_MODE);
    database = { kind: 'sqlite', file: SQLITE_FILE };
  }
  log.info({ kind: database.kind }, 'database copied');

  const source = options.blobs ?? { kind: 'disk', dir: path.join(config.dataDir, 'blobs') };
  let blobs: BackupManifest['blobs'];
  if (source.kind === 'disk') {
    const count = copyBlobs(source.dir, path.join(out, BLOBS_DIR));
    blobs = { kind: 'disk', dir: BLOBS_DIR, count };
  } else {
    const keys: string[] = [];
    for await (const key of source.listKeys()) keys.push(key);
    keys.sort();
    fs.writeFileSync(path.join(out, BLOB_LISTING), keys.map((key) => `${key}\n`).join(''), { mode: PRIVATE_FILE_MODE });
    blobs = { kind: 's3', listing: BLOB_LISTING, count: keys.length, store: source.store };
  }
  log.info({ kind: blobs.kind, count: blobs.count }, 'chunks copied');

  const walletFile = config.arweaveWallet ?? path.join(config.dataDir, WALLET_FILE);
  let wallet: BackupManifest['wallet'] = null;
  if (fs.existsSync(walletFile)) {
    fs.copyFileSync(walletFile, path.join(out, WALLET_FILE));
    fs.chmodSync(path.join(out, WALLET_FILE), PRIVATE_FILE_MODE);
    wallet = { file: WALLET_FILE };
  } else {
    log.warn({ walletFile }, 'no relay wallet to back up');
  }

  const manifest: BackupManifest = {
    format: 'cairn-backup',
    formatVersion: BACKUP_FORMAT_VERSION,
    createdAt,
    appVersion: appVersion(),
    database,
    blobs,
    wallet,
    files: await describeFiles(out),
  };
  const temp = path.join(out, `${MANIFEST}.tmp`);
  fs.writeFileSync(temp, `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  fs.renameSync(temp, path.join(out, MANIFEST));
  log.info({ out, files: manifest.files.length }, 'backup written');
  return manifest;
}

export interface RestoreOptions {
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'sqlitePath' | 'arweaveWallet'>;
  from: string;
  log: OpsLog;
}

/**
 * Restores the backup in `from` into the configured DATA_DIR, which must be empty or absent (and,
 * on PostgreSQL, into the configured database, which must hold no table). Every file is checked
 * against the manifest before anything is written.
 */
export async function restoreBackup(options: RestoreOptions): Promise<BackupManifest> {
  const { config, log } = options;
  const from = path.resolve(options.from);
  const manifest = readManifest(from);
  await verifyFiles(from, manifest);

  if (manifest.database.kind === 'sqlite' && config.databaseUrl) {
    throw new BackupError('This backup holds a SQLite database: unset DATABASE_URL to restore it');
  }
  if (manifest.database.kind === 'postgres' && !config.databaseUrl) {
    throw new BackupError('This backup holds a PostgreSQL database: set DATABASE_URL to the empty database to restore it into');
  }
  requireEmptyDir(config.dataDir, `DATA_DIR ${config.dataDir} is not empty: restore only into an empty or new DATA_DIR`);
  const walletTarget = config.arweaveWallet ?? path.join(config.dataDir, WALLET_FILE);
  if (manifest.wallet && fs.existsSync(walletTarget)) {
    throw new BackupError(`ARWEAVE_WALLET ${walletTarget} already exists: point ARWEAVE_WALLET at a new path or unset it`);
  }
  if (config.databaseUrl) await requireEmptyPostgres(config.databaseUrl);

  fs.mkdirSync(config.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(config.dataDir, PRIVATE_DIR_MODE);
  if (manifest.database.kind === 'sqlite') {
    copyPrivate(path.join(from, manifest.database.file), config.sqlitePath);
  } else {
    // One transaction: a failed restore leaves the database empty, so it can simply be run again.
    await runPgTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', path.join(from, manifest.database.file)], config.databaseUrl!);
  }
  log.info({ kind: manifest.database.kind }, 'database restored');

  if (manifest.blobs.kind === 'disk') {
    copyBlobs(path.join(from, manifest.blobs.dir), path.join(config.dataDir, 'blobs'));
    log.info({ count: manifest.blobs.count }, 'chunks restored');
  } else {
    // The chunks stay in the bucket: configure the same S3_* settings for the restored server.
    log.warn({ store: manifest.blobs.store, count: manifest.blobs.count }, 'chunks are in the object store, not in the backup: configure the same S3 settings');
  }
  if (manifest.wallet) {
    fs.mkdirSync(path.dirname(walletTarget), { recursive: true, mode: PRIVATE_DIR_MODE });
    copyPrivate(path.join(from, manifest.wallet.file), walletTarget);
    log.info({ walletFile: walletTarget }, 'relay wallet restored');
  }
  log.info({ dataDir: config.dataDir, createdAt: manifest.createdAt }, 'restore finished');
  return manifest;
}

/** Reads and checks manifest.json. */
export function readManifest(from: string): BackupManifest {
  const file = path.join(from, MANIFEST);
  if (!fs.existsSync(file)) throw new BackupError(`${from} has no ${MANIFEST}: it is not a Cairn backup, or the backup did not finish`);
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw new BackupError(`${file} is not valid JSON: the backup is damaged`);
  }
  const format = z.object({ format: z.literal('cairn-backup'), formatVersion: z.number() }).safeParse(json);
  if (format.success && format.data.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new BackupError(`This backup has format version ${format.data.formatVersion}; this version of Cairn restores version ${BACKUP_FORMAT_VERSION}`);
  }
  const parsed = BackupManifest.safeParse(json);
  if (!parsed.success) throw new BackupError(`${file} is not a Cairn backup manifest: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  for (const entry of parsed.data.files) {
    // A manifest names files inside its folder only.
    const resolved = path.resolve(from, entry.path);
    if (path.isAbsolute(entry.path) || !resolved.startsWith(`${path.resolve(from)}${path.sep}`)) {
      throw new BackupError(`${file} names a file outside the backup (${entry.path})`);
    }
  }
  return parsed.data;
}

/** Every file the manifest names is there with its size and SHA-256. */
export async function verifyFiles(from: string, manifest: BackupManifest): Promise<void> {
  for (const entry of manifest.files) {
    const file = path.join(from, entry.path);
    if (!fs.existsSync(file)) throw new BackupError(`The backup is damaged: ${entry.path} is missing`);
    const { size, sha256 } = await hashFile(file);
    if (size !== entry.size || sha256 !== entry.sha256) {
      throw new BackupError(`The backup is damaged: ${entry.path} does not match its checksum in the manifest`);
    }
  }
}

function requireEmptyDir(dir: string, message: string): void {
  if (!fs.existsSync(dir)) return;
  if (!fs.statSync(dir).isDirectory() || fs.readdirSync(dir).length > 0) throw new BackupError(message);
}

async function requireEmptyPostgres(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_catalog.pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
    );
    if ((rows[0]?.n ?? 0) > 0) throw new BackupError('The database at DATABASE_URL is not empty: restore only into an empty database');
  } finally {
    await client.end();
  }
}

/**
 * Copies the disk store's files (0700 folders, 0600 files), leaving out the temporary files of
 * writes in flight. A chunk removed while the walk runs is skipped. Returns how many were copied.
 */
function copyBlobs(from: string, to: string): number {
  fs.mkdirSync(to, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!fs.existsSync(from)) return 0;
  let count = 0;
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      count += copyBlobs(source, target);
    } else if (entry.isFile() && !/\.tmp-[0-9a-f]+$/.test(entry.name)) {
      try {
        copyPrivate(source, target);
        count += 1;
      } catch (error) {
        if (!(error instanceof Error && 'code' in error && error.code === 'ENOENT')) throw error;
      }
    }
  }
  return count;
}

function copyPrivate(from: string, to: string): void {
  fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
  fs.chmodSync(to, PRIVATE_FILE_MODE);
}

async function describeFiles(root: string): Promise<BackupManifest['files']> {
  const files: BackupManifest['files'] = [];
  const visit = async (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) await visit(file);
      else if (entry.isFile() && entry.name !== MANIFEST) files.push({ path: path.relative(root, file).split(path.sep).join('/'), ...(await hashFile(file)) });
    }
  };
  await visit(root);
  return files;
}

async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const part of fs.createReadStream(file)) {
    hash.update(part as Buffer);
    size += (part as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

function appVersion(): string {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json');
  return z.object({ version: z.string() }).parse(JSON.parse(fs.readFileSync(file, 'utf8'))).version;
}
