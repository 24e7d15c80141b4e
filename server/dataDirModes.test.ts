/**
 * Issue 18 (trust): DATA_DIR is private to the server's user. After a start against a DATA_DIR
 * that an older version left readable by everyone, and after a sign-up (mail), an SMS code and
 * a stored chunk, no folder or file under it grants anything to group or others.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DiskBlobStore } from './blobs/DiskBlobStore';
import { ApiClient } from './testing/ApiClient';
import { describeEachDatabase } from './testing/databases';
import { expectStatus, newSession, reauthToken } from './testing/flows';
import { httpApp } from './testing/httpApp';
import { latestSmsCode } from './testing/mailbox';
import { type ServerProcess, startServerProcess } from './testing/serverProcess';
import { TestUser } from './testing/TestUser';
import { FileSms } from './sms/FileSms';

/** Every path under `root` (itself included) whose mode lets group or others in, with its mode. */
function looseEntries(root: string): string[] {
  const loose: string[] = [];
  const visit = (file: string) => {
    const stat = fs.lstatSync(file);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) loose.push(`${path.relative(root, file) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(file)) visit(path.join(file, name));
  };
  visit(root);
  return loose;
}

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

describeEachDatabase('DATA_DIR modes', (env) => {
  const dirs: string[] = [];
  let server: ServerProcess | null = null;
  afterEach(async () => {
    await server?.stop();
    server = null;
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function looseDataDir(): string {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-modes-'));
    dirs.push(dataDir);
    // What an older version (or a default umask of 022) left behind.
    fs.chmodSync(dataDir, 0o755);
    fs.mkdirSync(path.join(dataDir, 'mail'), { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'mail', '2026-01-01T00-00-00-000Z-old.eml'), 'To: a@example.com\n\nold recovery link', { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, 'mail', '2026-01-01T00-00-00-000Z-old.eml'), 0o644);
    if (env.kind === 'sqlite') {
      // An empty file is an empty SQLite database.
      fs.writeFileSync(path.join(dataDir, 'cairn.sqlite'), '');
      fs.chmodSync(path.join(dataDir, 'cairn.sqlite'), 0o644);
    }
    expect(looseEntries(dataDir).length).toBeGreaterThan(0);
    return dataDir;
  }

  it('a started server tightens an existing DATA_DIR and writes only private files (database, mail, sms)', async () => {
    const dataDir = looseDataDir();
    // SMS codes written to files (SMS_TO_FILES): the test checks the file's mode.
    server = await startServerProcess({ dataDir, databaseUrl: env.databaseUrl, timeoutMs: 120_000, env: { SMS_TO_FILES: '1' } });
    const api = new ApiClient(httpApp(server.url));
    const user = await TestUser.create();
    const { token } = await newSession(api, dataDir, user);
    const phoneNumber = '+4915112345678';
    expectStatus(await api.post('/api/account/mfa/sms/setup', { reauthToken: await reauthToken(api, user, token), phoneNumber }, { token }), 200);
    expect(latestSmsCode(dataDir, phoneNumber)).toMatch(/^\d{6}$/);

    expect(modeOf(dataDir)).toBe('700');
    expect(modeOf(path.join(dataDir, 'mail'))).toBe('700');
    expect(modeOf(path.join(dataDir, 'sms'))).toBe('700');
    if (env.kind === 'sqlite') expect(modeOf(path.join(dataDir, 'cairn.sqlite'))).toBe('600');
    expect(looseEntries(dataDir)).toEqual([]);
  });

  it('mail, sms, chunks and the SQLite database are written private in any folder', async () => {
    const api = new ApiClient(await env.buildApp());
    await newSession(api, env.dataDir, await TestUser.create());
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-modes-ports-'));
    dirs.push(root);
    fs.chmodSync(root, 0o755);
    // The process umask of a test runner is usually 022: the modes must not depend on it.
    await new FileSms(path.join(root, 'sms')).send({ to: '+4915112345678', text: 'code 123456' });
    await new DiskBlobStore(path.join(root, 'blobs')).put('vault-1/blob-1/0', Buffer.from('chunk'));
    const mail = path.join(env.dataDir, 'mail');
    for (const name of fs.readdirSync(mail)) expect(modeOf(path.join(mail, name))).toBe('600');
    expect(modeOf(mail)).toBe('700');
    expect(looseEntries(path.join(root, 'sms'))).toEqual([]);
    expect(looseEntries(path.join(root, 'blobs'))).toEqual([]);
    if (env.kind === 'sqlite') {
      for (const name of ['cairn.sqlite', 'cairn.sqlite-wal', 'cairn.sqlite-shm']) {
        const file = path.join(env.dataDir, name);
        if (name === 'cairn.sqlite' || fs.existsSync(file)) expect(modeOf(file), name).toBe('600');
      }
    }
  });
});
