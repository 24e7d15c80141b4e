import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { redactUrl } from '../config';
import { createLogger } from '../logger';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../privateFiles';
import type { Database } from './Database';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface OpenedDatabase {
  db: Kysely<Database>;
  kind: DatabaseKind;
}

interface PoolLogger {
  warn(object: object, message?: string): void;
}

/**
 * Opens PostgreSQL when `databaseUrl` is set, otherwise the SQLite file (creating its folder).
 * `log` hears of pool connections lost (default: a pino logger at warn level).
 */
export function openDatabase(options: { databaseUrl: string | null; sqlitePath: string; log?: PoolLogger }): OpenedDatabase {
  if (options.databaseUrl) return { db: openPostgres(options.databaseUrl, options.log ?? createLogger('warn')), kind: 'postgres' };
  return { db: openSqlite(options.sqlitePath), kind: 'sqlite' };
}

function openSqlite(file: string): Kysely<Database> {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  // The database holds the OPAQUE server keys, TOTP secrets and session hashes: 0600 before SQLite
  // opens it, as SQLite gives its -wal and -shm files the database file's mode.
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  fs.chmodSync(file, PRIVATE_FILE_MODE);
  const database = new SQLite(file);
  // WAL lets readers run during a write; busy_timeout waits out another process's write lock
  // instead of failing at once; foreign keys are off by default in SQLite.
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

const INT8_OID = 20;

/** pg's default parsers, except int8 (text format) as Number. */
function parserFor(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (oid === INT8_OID && format !== 'binary') return Number;
  return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
}

function openPostgres(url: string, log: PoolLogger): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // bigint columns hold epoch milliseconds, well inside Number's safe range; pg returns int8 as
    // string unless told otherwise. Set per pool so other pg users in the process are unaffected.
    types: { getTypeParser: parserFor },
  });
  // An idle connection the server ends (a restart, a terminated backend) is an 'error' event on
  // the pool; unheard, it would crash the process. The pool replaces the connection by itself.
  pool.on('error', (error) => log.warn({ reason: describeError(error) }, 'PostgreSQL connection lost'));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Fails fast with one line when PostgreSQL is unreachable, instead of a stack at the first request.
 * The message never contains the password.
 */
export async function checkConnection(db: Kysely<Database>, databaseUrl: string): Promise<void> {
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    throw new Error(`Cannot connect to DATABASE_URL (${redactUrl(databaseUrl)}): ${describeError(error)}`);
  }
}

/** pg reports a refused dual-stack connection as an AggregateError with an empty message. */
function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeError(error.errors[0]);
  if (error instanceof Error) {
    const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
    return error.message || code || error.name;
  }
  return String(error);
}
