import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../testing/databases';
import { TABLES } from './Database';
import { migrateToLatest } from './migrate';
import { MIGRATIONS } from './migrations';
import { checkConnection, openDatabase } from './openDatabase';

describeEachDatabase('migrations', (env) => {
  it('creates every table, and running again changes nothing', async () => {
    await migrateToLatest(env.db);
    for (const table of TABLES) {
      const rows = await env.db.selectFrom(table).selectAll().execute();
      expect(rows, table).toEqual([]);
    }
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(env.db);
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS));
  });

  it('enforces foreign keys', async () => {
    await expect(
      env.db.insertInto('sessions').values({ token_hash: 'x', user_id: 'nobody', persistent: 0, created_at: 1, expires_at: 2 }).execute(),
    ).rejects.toThrow();
  });
});

describe('migration list', () => {
  it('is append-only in name order', () => {
    const names = Object.keys(MIGRATIONS);
    expect(names).toEqual([...names].sort());
    names.forEach((name, index) => expect(name.startsWith(String(index + 1).padStart(4, '0'))).toBe(true));
  });
});

describe('checkConnection', () => {
  it('fails with one line naming DATABASE_URL without its password', async () => {
    const url = 'postgres://cairn:s3cret-pass@127.0.0.1:1/cairn';
    const { db } = openDatabase({ databaseUrl: url, sqlitePath: '' });
    try {
      const error = await checkConnection(db, url).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      const message = error instanceof Error ? error.message : '';
      expect(message).toMatch(/^Cannot connect to DATABASE_URL \(postgres:\/\/cairn:\*\*\*@127\.0\.0\.1:1\/cairn\): \S/);
      expect(message).not.toContain('s3cret-pass');
      expect(message).not.toContain('\n');
    } finally {
      await db.destroy();
    }
  });
});

describe('0002_vaults upgrade', () => {
  it('adds the vault tables to a database at 0001 and keeps its accounts', async () => {
    const { Migrator } = await import('kysely');
    const os = await import('node:os');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-upgrade-'));
    const { db } = openDatabase({ databaseUrl: null, sqlitePath: path.join(dir, 'cairn.sqlite') });
    try {
      const first = { '0001_accounts': MIGRATIONS['0001_accounts'] ?? { up: async () => undefined } };
      await new Migrator({ db, provider: { getMigrations: async () => first } }).migrateToLatest();
      // Raw SQL: the 0001 schema, whatever today's table types say.
      await sql`insert into users (id, email, opaque_record, enc_backup_phrase, public_signing_key, public_encryption_key, address, referral_id, created_at, updated_at)
        values ('u1', 'a@b.c', 'r', 'p', 'k', 'e', 'addr', 'ref', 1, 1)`.execute(db);
      await migrateToLatest(db);
      expect((await db.selectFrom('users').select('id').execute()).map((r) => r.id)).toEqual(['u1']);
      await db
        .insertInto('vaults')
        .values({ id: 'v1', owner_user_id: 'u1', is_public: 0, is_cloud: 1, status: 'ACTIVE', head_seq: 0, size: 0, key_count: 1, needs_rotation: 0, created_at: 1, updated_at: 1 })
        .execute();
      expect(await db.selectFrom('vaults').select('id').execute()).toEqual([{ id: 'v1' }]);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('0007_op_bytes upgrade', () => {
  it("sizes the operations already logged and totals them on their vault", async () => {
    const { Migrator } = await import('kysely');
    const os = await import('node:os');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-upgrade-'));
    const { db } = openDatabase({ databaseUrl: null, sqlitePath: path.join(dir, 'cairn.sqlite') });
    try {
      const upTo0006 = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0007'));
      await new Migrator({ db, provider: { getMigrations: async () => upTo0006 } }).migrateToLatest();
      // Raw SQL: the 0006 schema, whatever today's table types say.
      await sql`insert into users (id, email, opaque_record, enc_backup_phrase, public_signing_key, public_encryption_key, address, referral_id, created_at, updated_at)
        values ('u1', 'a@b.c', 'r', 'p', 'k', 'e', 'addr', 'ref', 1, 1)`.execute(db);
      for (const id of ['v1', 'v2']) {
        await sql`insert into vaults (id, owner_user_id, is_public, is_cloud, status, head_seq, size, key_count, needs_rotation, created_at, updated_at)
          values (${id}, 'u1', 0, 1, 'ACTIVE', 2, 0, 1, 0, 1, 1)`.execute(db);
      }
      const bodies = ['{"a":1}', `{"b":"${'x'.repeat(100)}"}`];
      for (const [index, body] of bodies.entries()) {
        await sql`insert into ops (vault_id, seq, op_id, author_user_id, type, object_id, body, received_at)
          values ('v1', ${index + 1}, ${`o${index}`}, 'u1', 'folder.create', 'n', ${body}, 1)`.execute(db);
      }
      await migrateToLatest(db);
      const ops = await db.selectFrom('ops').select(['seq', 'body_bytes']).orderBy('seq').execute();
      expect(ops.map((o) => Number(o.body_bytes))).toEqual(bodies.map((b) => b.length));
      const vaults = await db.selectFrom('vaults').select(['id', 'op_bytes']).orderBy('id').execute();
      expect(vaults.map((v) => [v.id, Number(v.op_bytes)])).toEqual([
        ['v1', bodies[0]!.length + bodies[1]!.length],
        ['v2', 0],
      ]);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('0008_session_devices upgrade', () => {
  it('keeps the sessions already open, with no device or last use until their next request', async () => {
    const { Migrator } = await import('kysely');
    const os = await import('node:os');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-upgrade-'));
    const { db } = openDatabase({ databaseUrl: null, sqlitePath: path.join(dir, 'cairn.sqlite') });
    try {
      const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0008'));
      await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      await sql`insert into users (id, email, opaque_record, enc_backup_phrase, public_signing_key, public_encryption_key, address, referral_id, created_at, updated_at)
        values ('u1', 'a@b.c', 'r', 'p', 'k', 'e', 'addr', 'ref', 1, 1)`.execute(db);
      await sql`insert into sessions (token_hash, user_id, persistent, created_at, expires_at) values ('h1', 'u1', 1, 5, 10)`.execute(db);
      await migrateToLatest(db);
      expect(await db.selectFrom('sessions').selectAll().execute()).toEqual([
        { token_hash: 'h1', user_id: 'u1', persistent: 1, created_at: 5, expires_at: 10, last_seen_at: null, user_agent: null },
      ]);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('0009_bundle_post_progress upgrade', () => {
  it('keeps the bundles already signed, each counted as having no chunk acknowledged (R66a)', async () => {
    const { Migrator } = await import('kysely');
    const os = await import('node:os');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-upgrade-'));
    const { db } = openDatabase({ databaseUrl: null, sqlitePath: path.join(dir, 'cairn.sqlite') });
    try {
      const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0009'));
      await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      // Raw SQL: the 0008 schema, whatever today's table types say.
      await sql`insert into storage_bundles (tx_id, header, data_key, created_at) values ('t1', '{}', 'arweave-bundles/t1', 5)`.execute(db);
      await migrateToLatest(db);
      expect(await db.selectFrom('storage_bundles').selectAll().execute()).toEqual([
        { tx_id: 't1', header: '{}', data_key: 'arweave-bundles/t1', created_at: 5, chunks_accepted: 0 },
      ]);
      await db.updateTable('storage_bundles').set({ chunks_accepted: 3 }).where('tx_id', '=', 't1').execute();
      expect(await db.selectFrom('storage_bundles').select('chunks_accepted').execute()).toEqual([{ chunks_accepted: 3 }]);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('0010_vault_history upgrade', () => {
  it('[R84] keeps the storage transactions as file versions and puts every existing log in runs from seq 1', async () => {
    const { Migrator } = await import('kysely');
    const os = await import('node:os');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-upgrade-'));
    const { db } = openDatabase({ databaseUrl: null, sqlitePath: path.join(dir, 'cairn.sqlite') });
    try {
      const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0010'));
      await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      // Raw SQL: the 0009 schema, whatever today's table types say.
      await sql`insert into users (id, email, opaque_record, enc_backup_phrase, public_signing_key, public_encryption_key, address, referral_id, created_at, updated_at)
        values ('u1', 'a@b.c', 'r', 'p', 'k', 'e', 'addr', 'ref', 1, 1)`.execute(db);
      await sql`insert into vaults (id, owner_user_id, is_public, is_cloud, status, head_seq, size, key_count, needs_rotation, created_at, updated_at)
        values ('v1', 'u1', 0, 0, 'ACTIVE', 7, 10, 1, 0, 1, 1)`.execute(db);
      await sql`insert into storage_transactions (id, vault_id, file_id, version_id, blob_id, uploader_user_id, size, status, created_at, updated_at)
        values ('s1', 'v1', 'f1', 'ver1', 'b1', 'u1', 10, 'COMMITTED', 1, 1)`.execute(db);
      await migrateToLatest(db);
      expect(await db.selectFrom('storage_transactions').select(['id', 'kind', 'seq_from', 'seq_to']).execute()).toEqual([{ id: 's1', kind: 'version', seq_from: null, seq_to: null }]);
      expect(await db.selectFrom('vaults').select(['id', 'history_seq']).execute()).toEqual([{ id: 'v1', history_seq: 0 }]);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('0014_account_plans upgrade', () => {
  it('[R100] puts every existing account on the default plan, keeping its own allowances', async () => {
    const { Migrator } = await import('kysely');
    const os = await import('node:os');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const { AllowanceService } = await import('../services/AllowanceService');
    const { DEFAULT_PLAN_CATALOG } = await import('../../src/protocol/plans');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-upgrade-'));
    const { db } = openDatabase({ databaseUrl: null, sqlitePath: path.join(dir, 'cairn.sqlite') });
    try {
      const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0014'));
      await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
      // Raw SQL: the 0013 schema, whatever today's table types say.
      await sql`insert into users (id, email, opaque_record, enc_backup_phrase, public_signing_key, public_encryption_key, address, referral_id, created_at, updated_at, cloud_allowance)
        values ('u1', 'a@b.c', 'r', 'p', 'k', 'e', 'addr', 'ref', 1, 1, 5000)`.execute(db);
      await migrateToLatest(db);
      expect(await db.selectFrom('users').select(['id', 'plan_id', 'cloud_allowance']).execute()).toEqual([{ id: 'u1', plan_id: null, cloud_allowance: 5000 }]);
      const allowances = new AllowanceService(db, DEFAULT_PLAN_CATALOG);
      expect((await allowances.planOf('u1')).id).toBe('pebble');
      expect(await allowances.allowanceOf('u1')).toEqual({ cloud: 5000, permanent: 100_000_000 });
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
