import { expect, it } from 'vitest';
import { connectionFor, findPgTool } from './postgresTools';

it('the PostgreSQL password goes to pg_dump in PGPASSWORD, never on its command line (visible in ps)', () => {
  const { url, env } = connectionFor('postgres://cairn:s%40cret@db.example.com:5432/cairn?sslmode=require');
  expect(url).toBe('postgres://cairn@db.example.com:5432/cairn?sslmode=require');
  expect(url).not.toContain('cret');
  expect(env.PGPASSWORD).toBe('s@cret');
});

it('pg_dump is found under /usr/lib/postgresql/*/bin when PATH lacks it, and a missing tool says how to get it', () => {
  expect(findPgTool('pg_dump', { PATH: '' })).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin\/pg_dump$/);
  expect(() => findPgTool('pg_restore', { PATH: '' }, '/nonexistent')).toThrow(/pg_restore was not found on PATH or under \/nonexistent\/\*\/bin: install the PostgreSQL client tools/);
});
