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
