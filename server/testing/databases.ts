/**
 * Runs a server suite on a fresh SQLite file and, when TEST_DATABASE_URL is set, on a fresh
 * PostgreSQL database created for the suite and dropped after it. With REQUIRE_POSTGRES=1 and no
 * TEST_DATABASE_URL the PostgreSQL half fails instead of being skipped, so CI cannot silently
 * test SQLite only.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { withAdmin } from './pgAdmin';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type AppDeps, buildApp } from '../app';
import type { BlobStore } from '../blobs/BlobStore';
import { type Config, loadConfig } from '../config';
import type { Database } from '../db/Database';
import { migrateToLatest } from '../db/migrate';
import { openDatabase, type DatabaseKind } from '../db/openDatabase';
import { FileMailer } from '../mail/FileMailer';
import type { PokeBus } from '../realtime/PokeBus';
import type { Clock } from '../services/Clock';
import type { NotificationBus } from '../realtime/NotificationBus';
import type { StorageTransactionBus } from '../realtime/StorageTransactionBus';
import { FileSms } from '../sms/FileSms';

/** A clock tests can move forward. Starts at the real time so TOTP codes look ordinary. */
export class TestClock implements Clock {
  private offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}

export interface BuildOptions {
  config?: Partial<Config>;
  staticDir?: string;
  blobs?: BlobStore;
  pokeBus?: PokeBus;
  notificationBus?: NotificationBus;
  storageTransactionBus?: StorageTransactionBus;
  arweave?: AppDeps['arweave'];
  /** The SMS provider; default: files under DATA_DIR/sms (SMS_TO_FILES); null: none. */
  sms?: AppDeps['sms'];
  webhooks?: AppDeps['webhooks'];
  webhookLogBus?: AppDeps['webhookLogBus'];
}

/** One suite's database, data directory and apps. Fields are usable from `beforeAll` on. */
export class TestEnv {
  readonly clock = new TestClock();
  private state: { dataDir: string; databaseUrl: string | null; db: Kysely<Database>; dropDatabase?: () => Promise<void> } | null =
    null;
  private readonly apps = new Set<FastifyInstance>();

  constructor(readonly kind: DatabaseKind) {}

  get dataDir(): string {
    return this.ready().dataDir;
  }

  get db(): Kysely<Database> {
    return this.ready().db;
  }

  /** The suite's PostgreSQL database (null on SQLite), for processes started by the test. */
  get databaseUrl(): string | null {
    return this.ready().databaseUrl;
  }

  /** The configuration an app of this suite gets, with `overrides` applied. */
  config(overrides: Partial<Config> = {}): Config {
    const { dataDir, databaseUrl } = this.ready();
    const base = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://cairn.test' });
    return { ...base, databaseUrl, staticDir: path.join(dataDir, 'no-client'), authRateLimit: 1_000, ...overrides };
  }

  /** A new app on this suite's database; closed at the end of the suite if the test does not. */
  async buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
    const config = this.config(options.config);
    // Rate limits are counted in the database on PostgreSQL (issue 20, shared by every process on
    // it): each test's app starts with none counted, as it did when every app counted its own. Apps
    // that share counts in a test are built before they take requests.
    if (config.databaseUrl) await this.db.deleteFrom('rate_limit_counters').execute();
    const app = await buildApp({
      config,
      db: this.db,
      mailer: new FileMailer(path.join(config.dataDir, 'mail'), config.mailFrom),
      sms: options.sms === undefined ? new FileSms(path.join(config.dataDir, 'sms')) : options.sms,
      clock: this.clock,
      ...(options.staticDir ? { staticDir: options.staticDir } : {}),
      ...(options.blobs ? { blobs: options.blobs } : {}),
      ...(options.pokeBus ? { pokeBus: options.pokeBus } : {}),
      ...(options.notificationBus ? { notificationBus: options.notificationBus } : {}),
      ...(options.storageTransactionBus ? { storageTransactionBus: options.storageTransactionBus } : {}),
      ...(options.arweave ? { arweave: options.arweave } : {}),
      ...(options.webhooks ? { webhooks: options.webhooks } : {}),
      ...(options.webhookLogBus ? { webhookLogBus: options.webhookLogBus } : {}),
    });
    // Hooks cannot be added once the app is ready (it has encapsulated plugin scopes), so a
    // test's own close is noticed at teardown instead: closing a closed app again is harmless.
    this.apps.add(app);
    return app;
  }

  /** Closes the database connection and opens a new one, as a restarted process would. */
  async reopenDatabase(): Promise<void> {
    const state = this.ready();
    await state.db.destroy();
    state.db = openDatabase({ databaseUrl: state.databaseUrl, sqlitePath: path.join(state.dataDir, 'cairn.sqlite') }).db;
  }

  async setUp(): Promise<void> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cairn-${this.kind}-`));
    let databaseUrl: string | null = null;
    let dropDatabase: (() => Promise<void>) | undefined;
    if (this.kind === 'postgres') {
      const adminUrl = requirePostgresUrl();
      const name = `cairn_test_${crypto.randomBytes(6).toString('hex')}`;
      await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      dropDatabase = async () => {
        await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      };
    }
    const { db } = openDatabase({ databaseUrl, sqlitePath: path.join(dataDir, 'cairn.sqlite') });
    await migrateToLatest(db);
    this.state = { dataDir, databaseUrl, db, ...(dropDatabase ? { dropDatabase } : {}) };
  }

  async tearDown(): Promise<void> {
    for (const app of [...this.apps]) await app.close();
    this.apps.clear();
    const state = this.state;
    this.state = null;
    if (!state) return;
    await state.db.destroy();
    await state.dropDatabase?.();
    fs.rmSync(state.dataDir, { recursive: true, force: true });
  }

  private ready() {
    if (!this.state) throw new Error('TestEnv is used before beforeAll ran');
    return this.state;
  }
}

/**
 * `describe`s `name` once per database. `fn` registers tests and hooks; `env` is set up before
 * the suite's own `beforeAll` hooks and torn down after its `afterAll` hooks.
 */
export function describeEachDatabase(name: string, fn: (env: TestEnv) => void): void {
  describeOn(['sqlite', 'postgres'], name, fn);
}

/** `describe`s `name` on PostgreSQL only (what only PostgreSQL has, such as LISTEN/NOTIFY). */
export function describePostgres(name: string, fn: (env: TestEnv) => void): void {
  describeOn(['postgres'], name, fn);
}

function describeOn(kinds: readonly DatabaseKind[], name: string, fn: (env: TestEnv) => void): void {
  for (const kind of kinds) {
    if (kind === 'postgres' && !process.env.TEST_DATABASE_URL) {
      if (process.env.REQUIRE_POSTGRES === '1') {
        describe(`${name} [postgres]`, () => {
          it('needs TEST_DATABASE_URL', () => {
            throw new Error('REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set: PostgreSQL tests cannot run');
          });
        });
      }
      continue;
    }
    describe(`${name} [${kind}]`, () => {
      const env = new TestEnv(kind);
      beforeAll(() => env.setUp());
      afterAll(() => env.tearDown());
      fn(env);
    });
  }
}

function requirePostgresUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}
