/**
 * Issue 20: `npm run backup` of a running server and `npm run restore` into a fresh DATA_DIR (and
 * a fresh PostgreSQL database): the user logs in on the restored server and downloads the same
 * bytes. The commands run as the operator runs them (the CLI in a child process).
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { CHUNK_SIZE, PullResponse, type SequencedOperation } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase, type TestEnv } from '../testing/databases';
import { expectStatus, logInSession, newSession } from '../testing/flows';
import { httpApp } from '../testing/httpApp';
import { type ServerProcess, startServerProcess, TEST_ARWEAVE_WALLET } from '../testing/serverProcess';
import { TestUser } from '../testing/TestUser';
import { expectAccepted, makeFile, newId, sealed, VaultActor } from '../testing/vaults';
import { BackupError, BackupManifest, createBackup, restoreBackup } from './backup';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const silent = { info: () => undefined, warn: () => undefined };

/** Runs `npm run backup`/`npm run restore`'s entry with only the settings given (no inherited DATABASE_URL...). */
async function runOps(args: string[], settings: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...settings };
  for (const name of ['DATA_DIR', 'DATABASE_URL', 'ARWEAVE_WALLET', 'S3_BUCKET']) if (!(name in settings)) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'ops', 'main.ts'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stderr };
}

async function pullAll(actor: VaultActor, vaultId: string): Promise<SequencedOperation[]> {
  const ops: SequencedOperation[] = [];
  for (let after = 0; ; ) {
    const response = await actor.api.get(`/api/vaults/${vaultId}/ops?after=${after}`, { token: actor.token });
    expectStatus(response, 200);
    const page = PullResponse.parse(response.body);
    ops.push(...page.ops);
    after = page.headSeq;
    if (!page.hasMore) return ops;
  }
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describeEachDatabase('backup and restore', (env: TestEnv) => {
  const dirs: string[] = [];
  const databases: string[] = [];
  const servers: ServerProcess[] = [];
  // Generous: on a loaded machine a server's drain and a forced DROP DATABASE take their time.
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    for (const name of databases.splice(0)) await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }, 180_000);

  const tempDir = (label: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `cairn-${label}-`));
    dirs.push(dir);
    return dir;
  };

  /** A new empty PostgreSQL database on the test cluster (null on SQLite). */
  async function freshDatabase(): Promise<string | null> {
    if (env.kind !== 'postgres') return null;
    const name = `cairn_restore_${crypto.randomBytes(6).toString('hex')}`;
    await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
    databases.push(name);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    return url.toString();
  }

  const dbSettings = (url: string | null): Record<string, string> => (url ? { DATABASE_URL: url } : {});

  it('a backup of a running server restores into a fresh DATA_DIR: the user logs in and downloads byte-identical chunks', async () => {
    const sourceDir = tempDir('backup-source');
    const sourceDb = await freshDatabase();
    const source = await startServerProcess({ dataDir: sourceDir, databaseUrl: sourceDb, timeoutMs: 120_000 });
    servers.push(source);
    const api = new ApiClient(httpApp(source.url));
    const user = await TestUser.create();
    const session = await newSession(api, sourceDir, user);
    const owner = new VaultActor(api, user, session.token, session.user.id);
    const vaultId = await owner.createVault();
    const file = makeFile(CHUNK_SIZE + 1000);
    expect(file.chunks.length).toBe(2);
    const version = await owner.upload(vaultId, file);
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version }));
    const opsBefore = await pullAll(owner, vaultId);
    expect(opsBefore.length).toBe(2);

    // While the server runs, and while the owner keeps making folders: the copy is one snapshot.
    const backupDir = path.join(tempDir('backup-out'), 'backup');
    let backingUp = true;
    const writer = (async () => {
      while (backingUp) expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }));
    })();
    const backup = await runOps(['backup', '--out', backupDir], { DATA_DIR: sourceDir, ARWEAVE_WALLET: TEST_ARWEAVE_WALLET, ...dbSettings(sourceDb) });
    backingUp = false;
    await writer;
    expect(backup.stderr).toContain('backup written');
    expect(backup.code).toBe(0);
    const opsAfter = await pullAll(owner, vaultId);
    await source.stop();

    const manifest = BackupManifest.parse(JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')));
    expect(manifest.database.kind).toBe(env.kind);
    expect(manifest.blobs).toMatchObject({ kind: 'disk', count: 2 });
    expect(manifest.wallet).toEqual({ file: 'arweave-wallet.json' });
    expect(manifest.appVersion).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);

    const restoreDir = path.join(tempDir('backup-restored'), 'data');
    const restoreDb = await freshDatabase();
    const restore = await runOps(['restore', '--from', backupDir, '--data-dir', restoreDir], dbSettings(restoreDb));
    expect(restore.stderr).toContain('restore finished');
    expect(restore.code).toBe(0);
    const restoredWallet = path.join(restoreDir, 'arweave-wallet.json');
    expect(fs.readFileSync(restoredWallet)).toEqual(fs.readFileSync(TEST_ARWEAVE_WALLET));
    expect((fs.statSync(restoredWallet).mode & 0o777).toString(8)).toBe('600');

    const restored = await startServerProcess({ dataDir: restoreDir, databaseUrl: restoreDb, env: { ARWEAVE_WALLET: restoredWallet }, timeoutMs: 120_000 });
    servers.push(restored);
    const api2 = new ApiClient(httpApp(restored.url));
    // A real OPAQUE login: the restored server has the same OPAQUE server keys and records.
    const again = await logInSession(api2, user);
    expect(again.user.id).toBe(session.user.id);
    const reader = new VaultActor(api2, user, again.token, again.user.id);
    // Everything from before the backup, then an unbroken run of what came during it.
    const restoredOps = await pullAll(reader, vaultId);
    expect(restoredOps.slice(0, opsBefore.length)).toEqual(opsBefore);
    expect(restoredOps).toEqual(opsAfter.slice(0, restoredOps.length));
    for (const [index, chunk] of file.chunks.entries()) {
      const response = await reader.getChunk(vaultId, version.blobId, index);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(chunk), `chunk ${index}`).toBe(true);
    }
  }, 300_000);

  it('restore refuses a DATA_DIR that is not empty, and changes nothing in it', async () => {
    const backupDir = path.join(tempDir('backup-out'), 'backup');
    await createBackup({ config: env.config(), out: backupDir, log: silent });
    const target = tempDir('backup-busy');
    fs.writeFileSync(path.join(target, 'notes.txt'), 'mine');
    const restore = await runOps(['restore', '--from', backupDir, '--data-dir', target], dbSettings(await freshDatabase()));
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain(`DATA_DIR ${target} is not empty: restore only into an empty or new DATA_DIR`);
    expect(fs.readdirSync(target)).toEqual(['notes.txt']);
  }, 60_000);

  if (env.kind === 'postgres') {
    it('restore refuses a PostgreSQL database that already holds tables', async () => {
      const backupDir = path.join(tempDir('backup-out'), 'backup');
      await createBackup({ config: env.config(), out: backupDir, log: silent });
      const target = path.join(tempDir('backup-target'), 'data');
      // The suite's own database is migrated: it holds every table.
      await expect(restoreBackup({ config: { ...env.config(), dataDir: target, sqlitePath: path.join(target, 'cairn.sqlite') }, from: backupDir, log: silent })).rejects.toThrow(
        'The database at DATABASE_URL is not empty: restore only into an empty database',
      );
      expect(fs.existsSync(target)).toBe(false);
    });
  }

  it('a backup with a damaged file fails its checksum check and restores nothing', async () => {
    const actor = await VaultActor.create(env, new ApiClient(await env.buildApp()));
    const vaultId = await actor.createVault();
    await actor.upload(vaultId, makeFile(1000));
    const backupDir = path.join(tempDir('backup-out'), 'backup');
    const manifest = await createBackup({ config: env.config(), out: backupDir, log: silent });
    const chunk = manifest.files.find((entry) => entry.path.startsWith('blobs/'));
    if (!chunk) throw new Error('No chunk in the backup');
    const bytes = fs.readFileSync(path.join(backupDir, chunk.path));
    bytes[10] = (bytes[10] ?? 0) ^ 0xff;
    fs.writeFileSync(path.join(backupDir, chunk.path), bytes);

    const target = path.join(tempDir('backup-target'), 'data');
    const restore = await runOps(['restore', '--from', backupDir, '--data-dir', target], dbSettings(await freshDatabase()));
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain(`The backup is damaged: ${chunk.path} does not match its checksum in the manifest`);
    expect(fs.existsSync(target)).toBe(false);
  }, 60_000);

  it('an object store is recorded as the listing of its keys, not copied', async () => {
    const backupDir = path.join(tempDir('backup-out'), 'backup');
    const keys = ['vault-b/blob-1/0', 'vault-a/blob-2/1'];
    const manifest = await createBackup({
      config: env.config(),
      out: backupDir,
      log: silent,
      blobs: {
        kind: 's3',
        store: { bucket: 'cairn-chunks' },
        async *listKeys() {
          yield* keys;
        },
      },
    });
    expect(manifest.blobs).toEqual({ kind: 's3', listing: 'blobs-listing.txt', count: 2, store: { bucket: 'cairn-chunks' } });
    expect(fs.readFileSync(path.join(backupDir, 'blobs-listing.txt'), 'utf8')).toBe('vault-a/blob-2/1\nvault-b/blob-1/0\n');
    expect(fs.existsSync(path.join(backupDir, 'blobs'))).toBe(false);
    await expect(createBackup({ config: env.config(), out: backupDir, log: silent })).rejects.toBeInstanceOf(BackupError);
  });
});
