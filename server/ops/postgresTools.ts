/**
 * pg_dump, pg_restore and friends for backups of a PostgreSQL deployment. The tools come from the
 * PostgreSQL client packages: on PATH, or under /usr/lib/postgresql/<version>/bin (Debian installs
 * them there and puts only a version-picking wrapper on PATH, which needs a local cluster to pick).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { redactUrl } from '../config';
import { BackupError } from './backupErrors';

const DEBIAN_ROOT = '/usr/lib/postgresql';

/** The path of `tool`, or a BackupError saying how to get it. */
export function findPgTool(tool: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv = process.env, debianRoot = DEBIAN_ROOT): string {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, tool))) return path.join(dir, tool);
  }
  // Newest version first: pg_dump must be at least as new as the server it dumps.
  const versions = fs.existsSync(debianRoot)
    ? fs
        .readdirSync(debianRoot)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const candidate = path.join(debianRoot, version, 'bin', tool);
    if (isExecutable(candidate)) return candidate;
  }
  throw new BackupError(`${tool} was not found on PATH or under ${debianRoot}/*/bin: install the PostgreSQL client tools (Debian: postgresql-client)`);
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The URL without its password, and the environment that carries the password instead: a
 * password on a command line is visible to every user of the machine in `ps`.
 */
export function connectionFor(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a PostgreSQL tool; rejects with its standard error (the URL's password never in it). */
export async function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string): Promise<void> {
  const { url, env } = connectionFor(databaseUrl);
  const child = spawn(findPgTool(tool), [...args, `--dbname=${url}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) {
    const said = stderr.trim().split('\n').slice(-3).join(' ').replaceAll(databaseUrl, redactUrl(databaseUrl));
    throw new BackupError(`${tool} failed (exit ${code}) on ${redactUrl(databaseUrl)}: ${said}`);
  }
}
