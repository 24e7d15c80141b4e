import { generate } from 'otplib';
import { expect, it } from 'vitest';
import { MfaRequired, TotpSetupResponse } from '../../src/protocol/auth';
import { StorageResponse } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus, logIn, logInSession, newSession, reauthToken } from '../testing/flows';
import { TestUser } from '../testing/TestUser';
import { newId, VaultActor } from '../testing/vaults';
import { scheduledRow } from '../arweave/storageTransactionRows';
import { type AdminLog, AdminService } from './AdminService';
import { runAdminCommand } from './adminCommand';

describeEachDatabase('admin command', (env) => {
  /** The command as `npm run admin` runs it, on the suite's database, with its output and log lines kept. */
  function admin() {
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const log: AdminLog = { info: (fields, message) => lines.push({ fields, message }) };
    const service = new AdminService(env.db, env.clock, log, 'operator');
    const out: string[] = [];
    const err: string[] = [];
    const run = (...argv: string[]) => runAdminCommand(argv, service, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { service, run, out, err, log: lines };
  }

  it('disable ends the sessions and refuses login; enable lets the user in again; both are recorded', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const cmd = admin();

    expect(await cmd.run('disable', user.email.toUpperCase())).toBe(0);
    expect(cmd.out.at(-1)).toMatch(/^Disabled .* \(1 session ended\)\.$/);
    // The session in hand no longer works, and the password no longer logs in.
    expectError(await api.get('/api/account', { token: session.token }), 401, 'UNAUTHENTICATED');
    const { response } = await logIn(api, user);
    expectError(response, 403, 'ACCOUNT_DISABLED');
    expect(JSON.stringify(response.body)).toContain('This account has been disabled');
    expect((await cmd.service.users(user.email)).map((u) => u.disabled)).toEqual([true]);

    env.clock.advance(1000);
    expect(await cmd.run('enable', user.email)).toBe(0);
    await logInSession(api, user);

    const actions = await cmd.service.actions();
    expect(actions.map((a) => [a.actor, a.action, a.target])).toEqual([
      ['operator', 'enable', user.email.toLowerCase()],
      ['operator', 'disable', user.email.toLowerCase()],
    ]);
    expect(cmd.log.map((l) => l.fields)).toEqual([
      { adminAction: 'disable', actor: 'operator', target: user.email.toLowerCase() },
      { adminAction: 'enable', actor: 'operator', target: user.email.toLowerCase() },
    ]);
  });

  it('a disabled account with two-factor is refused before any code is asked', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    await enableTotp(api, user, session.token);
    expect(await admin().run('disable', user.email)).toBe(0);
    expectError((await logIn(api, user)).response, 403, 'ACCOUNT_DISABLED');
  });

  it('reset-2fa lets the user log in with the password alone', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    await enableTotp(api, user, session.token);
    MfaRequired.parse((await logIn(api, user)).response.body);

    const cmd = admin();
    expect(await cmd.run('reset-2fa', user.email)).toBe(0);
    const result = await logInSession(api, user);
    expect(result.user.mfaType).toBeNull();
    expect((await cmd.service.actions())[0]).toMatchObject({ action: 'reset-2fa', target: user.email.toLowerCase(), actor: 'operator' });
  });

  it("allowance changes the user's totals on GET /storage; default gives the server's back", async () => {
    const api = new ApiClient(await env.buildApp({ config: { storageAllowances: { cloud: 1000, permanent: 500 } } }));
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const storage = async () => StorageResponse.parse((await api.get('/api/storage', { token: session.token })).body);
    expect(await storage()).toMatchObject({ cloudTotal: 1000, permanentTotal: 500 });

    const cmd = admin();
    expect(await cmd.run('allowance', user.email, '--permanent', '7000000', '--cloud', '9000000')).toBe(0);
    expect(await storage()).toMatchObject({ cloudTotal: 9_000_000, permanentTotal: 7_000_000 });
    env.clock.advance(1000);
    expect(await cmd.run('allowance', user.email, '--cloud', 'default')).toBe(0);
    expect(await storage()).toMatchObject({ cloudTotal: 1000, permanentTotal: 7_000_000 });

    const actions = (await cmd.service.actions()).filter((a) => a.target === user.email.toLowerCase());
    expect(actions.map((a) => [a.actor, a.action, a.details])).toEqual([
      ['operator', 'allowance', { cloud: null }],
      ['operator', 'allowance', { cloud: 9_000_000, permanent: 7_000_000 }],
    ]);
  });

  it('lists and finds users', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    await newSession(api, env.dataDir, user);
    const cmd = admin();
    const local = user.email.split('@')[0]!;
    expect(await cmd.run('users', '--find', local.toUpperCase())).toBe(0);
    expect(cmd.out).toHaveLength(1);
    expect(cmd.out[0]).toContain(user.email.toLowerCase());
    expect(await cmd.run('users', '--find', 'nobody-has-this%')).toBe(0);
    expect(cmd.out.at(-1)).toBe('No accounts.');
  });

  it('reads and closes support reports', async () => {
    const api = new ApiClient(await env.buildApp());
    const sent = await api.post('/api/support', { action: 'Uploading', error: 'Boom\u001b[31m red', path: '/vaults' });
    expectStatus(sent, 200);
    const id = (sent.body as { issueId: string }).issueId;
    const cmd = admin();

    expect(await cmd.run('reports', '--open')).toBe(0);
    const line = cmd.out.find((l) => l.startsWith(id));
    expect(line).toContain('open');
    // A report's text is the user's: no terminal escape reaches the operator's screen.
    expect(line).not.toContain('\u001b');

    expect(await cmd.run('close-report', id)).toBe(0);
    cmd.out.length = 0;
    await cmd.run('reports', '--open');
    expect(cmd.out.some((l) => l.startsWith(id))).toBe(false);
    await cmd.run('reports');
    expect(cmd.out.find((l) => l.startsWith(id))).toContain('closed');

    expect(await cmd.run('close-report', id)).toBe(1);
    expect(cmd.err.at(-1)).toBe(`Support report ${id} is already closed`);
    expect((await cmd.service.actions())[0]).toMatchObject({ action: 'close-report', target: id, actor: 'operator' });
  });

  it('relay shows storage transactions by status and the oldest pending', async () => {
    const cmd = admin();
    expect(await cmd.run('relay')).toBe(0);
    expect(cmd.out).toEqual(['Storage transactions by status:', '  (none)', 'Oldest pending: none']);

    const api = new ApiClient(await env.buildApp());
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    const rows: [string, string, number][] = [
      ['relay-done', 'COMMITTED', 1_000],
      ['relay-old', 'PENDING', 2_000],
      ['relay-new', 'SCHEDULED', 3_000],
      ['relay-new2', 'SCHEDULED', 4_000],
    ];
    for (const [id, status, createdAt] of rows) {
      await env.db
        .insertInto('storage_transactions')
        .values(
          scheduledRow({
            id,
            status,
            vault_id: vaultId,
            file_id: newId(),
            version_id: newId(),
            blob_id: newId(),
            uploader_user_id: owner.userId,
            size: 10,
            attempts: id === 'relay-old' ? 3 : 0,
            next_attempt_at: Number.MAX_SAFE_INTEGER,
            created_at: createdAt,
          }),
        )
        .execute();
    }
    cmd.out.length = 0;
    expect(await cmd.run('relay')).toBe(0);
    expect(cmd.out).toEqual([
      'Storage transactions by status:',
      '  COMMITTED    1',
      '  PENDING      1',
      '  SCHEDULED    2',
      `Oldest pending: relay-old (PENDING, since ${new Date(2_000).toISOString()}, 3 attempts)`,
    ]);
  });

  it('bad input: usage text and a non-zero exit, and nothing changes', async () => {
    const cmd = admin();
    const before = (await cmd.service.actions()).length;
    expect(await cmd.run()).toBe(2);
    expect(cmd.out.join('\n')).toContain('Usage: npm run admin -- <command>');
    expect(await cmd.run('frobnicate')).toBe(2);
    expect(cmd.err.at(-1)).toMatch(/^Unknown command "frobnicate"/);
    expect(await cmd.run('disable')).toBe(2);
    expect(await cmd.run('allowance', 'a@example.com', '--cloud', '-5')).toBe(2);
    expect(cmd.err.at(-1)).toMatch(/--cloud must be a whole number of bytes/);
    expect(await cmd.run('allowance', 'a@example.com')).toBe(2);
    expect(await cmd.run('disable', 'nobody@example.com')).toBe(1);
    expect(cmd.err.at(-1)).toBe('No account with the e-mail nobody@example.com');
    expect(await cmd.run('close-report', 'no-such-report')).toBe(1);
    expect(await cmd.service.actions()).toHaveLength(before);
    expect(cmd.log).toEqual([]);
  });

  async function enableTotp(api: ApiClient, user: TestUser, token: string): Promise<void> {
    const reauth = await reauthToken(api, user, token);
    const { secret } = TotpSetupResponse.parse((await api.post('/api/account/mfa/totp/setup', { reauthToken: reauth }, { token })).body);
    const code = await generate({ secret, epoch: Math.floor(env.clock.now() / 1000) });
    expectStatus(await api.post('/api/account/mfa/totp/enable', { code, device: 'Phone' }, { token }), 200);
  }
});
