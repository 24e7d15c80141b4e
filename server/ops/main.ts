/**
 * `npm run backup -- --out DIR` and `npm run restore -- --from DIR [--data-dir DIR]`: the server's
 * own settings (DATA_DIR, DATABASE_URL, ARWEAVE_WALLET) and its structured logger (pino, as
 * Fastify's), on standard error. Exit codes: 0 done, 2 bad arguments, 1 anything else.
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { ConfigError, loadConfig } from '../config';
import { PRIVATE_UMASK } from '../privateFiles';
import { createBlobStore } from '../blobs/createBlobStore';
import type { S3BlobStore } from '../blobs/S3BlobStore';
import { BackupError, createBackup, restoreBackup } from './backup';

const USAGE = `Usage:
  npm run backup -- --out DIR                      back up DATA_DIR (or DATABASE_URL) into DIR, a new or empty folder
  npm run restore -- --from DIR [--data-dir DIR]   restore a backup into an empty DATA_DIR (and an empty DATABASE_URL)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  let values: { out?: string | undefined; from?: string | undefined; 'data-dir'?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { out: { type: 'string' }, from: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const wrong =
    command === 'backup' ? (values.out ? null : 'backup needs --out DIR') : command === 'restore' ? (values.from ? null : 'restore needs --from DIR') : `Unknown command "${command ?? ''}"`;
  if (wrong) {
    process.stderr.write(`${wrong}\n${USAGE}\n`);
    return 2;
  }

  let config;
  try {
    config = loadConfig({ ...process.env, ...(values['data-dir'] ? { DATA_DIR: values['data-dir'] } : {}) });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  // Backups hold the server's secrets: what this process writes is its user's only.
  process.umask(PRIVATE_UMASK);
  const log = pino({ level: config.logLevel, base: { command } }, pino.destination(2));
  try {
    if (command === 'backup') {
      // Chunks in a bucket are not copied: the backup lists their keys, and the bucket is backed
      // up (versioned, replicated) with the object store's own tools.
      const s3 = config.s3;
      const blobs = s3
        ? { kind: 's3' as const, store: { bucket: s3.bucket, prefix: s3.prefix, ...(s3.endpoint ? { endpoint: s3.endpoint } : {}) }, listKeys: () => (createBlobStore(config) as S3BlobStore).listKeys() }
        : undefined;
      await createBackup({ config, out: values.out!, log, ...(blobs ? { blobs } : {}) });
    } else {
      await restoreBackup({ config, from: values.from!, log });
    }
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      log.error(error.message);
      return 1;
    }
    log.error({ err: error }, `${command} failed`);
    return 1;
  } finally {
    log.flush();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
