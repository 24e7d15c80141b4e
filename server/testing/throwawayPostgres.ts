/**
 * A PostgreSQL cluster of its own for a bench (scripts/test.sh makes the test suite's the same
 * way): Debian's binaries, a temporary data directory, a free port, no fsync; removed by stop().
 * As root the cluster runs as the `postgres` user, which Debian's package creates.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './serverProcess';

export interface ThrowawayPostgres {
  /** The cluster's `postgres` database, as its superuser (it may create databases). */
  url: string;
  stop(): void;
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const versions = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b)) : [];
  const bin = versions.length > 0 ? path.join('/usr/lib/postgresql', versions.at(-1)!, 'bin') : null;
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql), and BENCH_DATABASE_URL is not set');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-pg-'));
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const run = (command: string, args: string[]) =>
    asRoot ? execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', [command, ...args].map(shellQuote).join(' ')], { stdio: 'pipe' }) : execFileSync(command, args, { stdio: 'pipe' });
  const data = path.join(dir, 'data');
  run(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  run(path.join(bin, 'pg_ctl'), ['-D', data, '-w', '-l', path.join(dir, 'log'), '-o', options, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
