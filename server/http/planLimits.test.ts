/**
 * Plans (issue 21; SYNC_SPEC R100-R102): the operator's plans file gives each account its storage
 * allowance and its vault and member limits, computed by the server; the admin command moves an
 * account to another plan. At a limit, the operation that would pass it is refused with a 403 code
 * and changes nothing; below it, it is accepted. Both databases.
 */
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/protocol/errors';
import { InviteResponse } from '../../src/protocol/members';
import type { OperationBody } from '../../src/protocol/vaults';
import { StorageResponse } from '../../src/protocol/vaults';
import { type AdminLog, AdminService } from '../admin/AdminService';
import { runAdminCommand } from '../admin/adminCommand';
import { type Config, loadConfig } from '../config';
import { transferSigningPayload } from '../../src/protocol/ledger';
import { ApiClient } from '../testing/ApiClient';
import { planPrice, writePlansFile } from '../testing/plansFixture';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { createPrivateVault, inviteOp, postInvitations } from '../testing/members';
import { countVaultRows, expectAccepted, expectRejected, newId, sealed, VaultActor } from '../testing/vaults';

/** A plans file: Pebble (free, default) allows 2 vaults of 2 members; Boulder no vault limit and 4 members. */
const PLANS = {
  default_plan: 'pebble',
  plans: [
    plan('pebble', 'Pebble', 0, { permanent_bytes: 1_000_000, cloud_bytes: 5_000_000 }, { vaults: 2, members: 2 }),
    plan('boulder', 'Boulder', 1000, { permanent_bytes: 9_000_000, cloud_bytes: 50_000_000 }, { vaults: null, members: 4 }),
  ],
};

function plan(id: string, name: string, cents: number, storage: object, limits: object) {
  return { id, name, price: planPrice(cents), metadata: { app_features: 'vaults;members' }, storage, limits };
}

/** The configuration a server started with PLANS_FILE pointing at `PLANS` gets. */
function plansConfig(): Partial<Config> {
  const file = writePlansFile(PLANS);
  const { plans, storageAllowances, memberLimit } = loadConfig({ PLANS_FILE: file });
  return { plans, storageAllowances, memberLimit };
}

function privateVaultBody(): OperationBody {
  return { type: 'vault.create', isPublic: false, isCloud: true, name: sealed(), ownerKeys: sealed(80).c };
}

describeEachDatabase('plans: allowances and limits', (env) => {
  let api: ApiClient;
  let config: Partial<Config>;

  beforeAll(async () => {
    config = plansConfig();
    api = new ApiClient(await env.buildApp({ config }));
  });

  function admin() {
    const lines: Record<string, unknown>[] = [];
    const log: AdminLog = { info: (fields) => lines.push(fields) };
    const service = new AdminService(env.db, env.clock, log, 'operator', config.plans);
    const out: string[] = [];
    const err: string[] = [];
    const run = (...argv: string[]) => runAdminCommand(argv, service, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { service, run, out, err, log: lines };
  }

  /** A member.airdrop of a fresh wallet (never used to sign in). */
  function airdropBody(): OperationBody {
    return {
      type: 'member.airdrop',
      name: sealed(),
      memberKey: newWalletKey(),
      memberEncryptionKey: newWalletKey(),
      keys: sealed(80).c,
      keyCount: 1,
      role: 'VIEWER',
      storageAllowance: 1000,
      expiresAt: env.clock.now() + 3_600_000,
    };
  }

  async function storageOf(actor: VaultActor) {
    const response = await api.get('/api/storage', { token: actor.token });
    expectStatus(response, 200);
    return StorageResponse.parse(response.body);
  }

  it('[R101] at the vault limit a vault.create is refused with VAULT_LIMIT (403) and nothing is made; a deleted vault frees its place, an archived one does not', async () => {
    const owner = await VaultActor.create(env, api);
    const first = await owner.createVault();
    await owner.createVault({ isPublic: true });

    const rows = await countVaultRows(env.db);
    const third = newId();
    expectRejected(await owner.apply(third, third, privateVaultBody()), 'VAULT_LIMIT');
    expect(ERROR_STATUS.VAULT_LIMIT).toBe(403);
    expect(await countVaultRows(env.db)).toEqual(rows);
    expect(await env.db.selectFrom('vaults').select('id').where('id', '=', third).executeTakeFirst()).toBeUndefined();
    const [refused] = await owner.push(await owner.sign(third, third, privateVaultBody()));
    expect(refused).toMatchObject({ status: 'rejected', error: { code: 'VAULT_LIMIT', message: "You've hit the vault limit" } });

    // Archived still counts (it can be restored); deleted does not.
    expectAccepted(await owner.apply(first, first, { type: 'vault.archive' }));
    expectRejected(await owner.apply(third, third, privateVaultBody()), 'VAULT_LIMIT');
    expectAccepted(await owner.apply(first, first, { type: 'vault.delete' }));
    expectAccepted(await owner.apply(third, third, privateVaultBody()));
    const fourth = newId();
    expectRejected(await owner.apply(fourth, fourth, privateVaultBody()), 'VAULT_LIMIT');
  });

  it('[R101] two vault creations pushed at once for the last place: one is made, the other refused', async () => {
    const owner = await VaultActor.create(env, api);
    await owner.createVault();
    const [a, b] = [newId(), newId()];
    const results = await Promise.all([owner.push(await owner.sign(a, a, privateVaultBody())), owner.push(await owner.sign(b, b, privateVaultBody()))]);
    const statuses = results.map(([result]) => (result?.status === 'rejected' ? result.error.code : result?.status)).sort();
    expect(statuses).toEqual(['VAULT_LIMIT', 'accepted']);
    const owned = await env.db.selectFrom('vaults').select('id').where('owner_user_id', '=', owner.userId).execute();
    expect(owned).toHaveLength(2);
  });

  it("[R102] invitations past the vault owner's plan are refused 403 MEMBER_LIMIT with nothing changed; below it they are accepted", async () => {
    const owner = await VaultActor.create(env, api);
    const [alice, bob] = [await VaultActor.create(env, api), await VaultActor.create(env, api)];
    const { vaultId, ring } = await createPrivateVault(owner);
    // The owner is one member; Pebble allows two.
    const toAlice = await inviteOp(owner, vaultId, alice, 'VIEWER', ring);
    const toBob = await inviteOp(owner, vaultId, bob, 'VIEWER', ring);
    const rows = await countVaultRows(env.db);
    expectError(await postInvitations(owner, vaultId, [toAlice, toBob]), 403, 'MEMBER_LIMIT');
    expect(await countVaultRows(env.db)).toEqual(rows);
    expectAccepted(InviteResponse.parse((await postInvitations(owner, vaultId, [toAlice])).body).results[0]);
    expectError(await postInvitations(owner, vaultId, [toBob]), 403, 'MEMBER_LIMIT');
  });

  it('[R102] an airdrop past the limit is refused with MEMBER_LIMIT and makes no member nor account', async () => {
    const owner = await VaultActor.create(env, api);
    const { vaultId } = await createPrivateVault(owner);
    expectAccepted(await owner.apply(vaultId, newId(), airdropBody()));
    const rows = await countVaultRows(env.db);
    const users = await env.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expectRejected(await owner.apply(vaultId, newId(), airdropBody()), 'MEMBER_LIMIT');
    expect(await countVaultRows(env.db)).toEqual(rows);
    expect(await env.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).toEqual(users);
  });

  it('[R102] two airdrops pushed at once for the last place: one member is made, the other refused', async () => {
    const owner = await VaultActor.create(env, api);
    const { vaultId } = await createPrivateVault(owner);
    const results = await Promise.all([owner.push(await owner.sign(vaultId, newId(), airdropBody())), owner.push(await owner.sign(vaultId, newId(), airdropBody()))]);
    const statuses = results.map(([result]) => (result?.status === 'rejected' ? result.error.code : result?.status)).sort();
    expect(statuses).toEqual(['MEMBER_LIMIT', 'accepted']);
    const live = await env.db.selectFrom('memberships').select('id').where('vault_id', '=', vaultId).execute();
    expect(live).toHaveLength(2);
  });

  it("[R100] an account whose plan left the plans file is on the default plan", async () => {
    const owner = await VaultActor.create(env, api);
    await env.db.updateTable('users').set({ plan_id: 'granite' }).where('id', '=', owner.userId).execute();
    expect(await storageOf(owner)).toMatchObject({ cloudTotal: 5_000_000, permanentTotal: 1_000_000 });
    await owner.createVault();
    await owner.createVault();
    const third = newId();
    expectRejected(await owner.apply(third, third, privateVaultBody()), 'VAULT_LIMIT');
  });

  it("[R100] the storage figures are the plan's; `admin plan` moves the account, and its allowance and limits follow; `default` brings it back", async () => {
    const owner = await VaultActor.create(env, api);
    expect(await storageOf(owner)).toMatchObject({ cloudTotal: 5_000_000, permanentTotal: 1_000_000 });
    await owner.createVault();
    await owner.createVault();
    const blocked = newId();
    expectRejected(await owner.apply(blocked, blocked, privateVaultBody()), 'VAULT_LIMIT');

    const cmd = admin();
    expect(await cmd.run('plan', owner.user.email, 'boulder')).toBe(0);
    expect(cmd.out.at(-1)).toBe(`${owner.user.email.toLowerCase()} is on the plan Boulder (boulder).`);
    expect(await storageOf(owner)).toMatchObject({ cloudTotal: 50_000_000, permanentTotal: 9_000_000 });
    expectAccepted(await owner.apply(blocked, blocked, privateVaultBody()));
    expect((await cmd.service.users(owner.user.email))[0]?.plan).toBe('boulder');

    // The operator's own figure for the account still wins over the plan's.
    expect(await cmd.run('allowance', owner.user.email, '--cloud', '123')).toBe(0);
    expect(await storageOf(owner)).toMatchObject({ cloudTotal: 123, permanentTotal: 9_000_000 });

    env.clock.advance(1000);
    expect(await cmd.run('plan', owner.user.email, 'default')).toBe(0);
    expect(await storageOf(owner)).toMatchObject({ cloudTotal: 123, permanentTotal: 1_000_000 });
    // Three vaults on a plan of two: they stay, and no fourth is made.
    const fourth = newId();
    expectRejected(await owner.apply(fourth, fourth, privateVaultBody()), 'VAULT_LIMIT');

    const actions = (await cmd.service.actions()).filter((a) => a.target === owner.user.email.toLowerCase());
    expect(actions.map((a) => [a.actor, a.action, a.details])).toEqual([
      ['operator', 'plan', { plan: 'default' }],
      ['operator', 'allowance', { cloud: 123 }],
      ['operator', 'plan', { plan: 'boulder' }],
    ]);
    expect(cmd.log.filter((l) => l.adminAction === 'plan')).toHaveLength(2);
  });

  it('[R100] `admin plan` refuses a plan the file does not have and an unknown account, changing and recording nothing', async () => {
    const owner = await VaultActor.create(env, api);
    const cmd = admin();
    const before = (await cmd.service.actions()).length;
    expect(await cmd.run('plan', owner.user.email, 'granite')).toBe(1);
    expect(cmd.err.at(-1)).toBe('No plan "granite" in the plans file (plans: pebble, boulder)');
    expect(await cmd.run('plan', 'nobody@example.com', 'boulder')).toBe(1);
    expect(await cmd.run('plan', owner.user.email)).toBe(2);
    expect((await cmd.service.actions()).length).toBe(before);
    expect((await cmd.service.users(owner.user.email))[0]?.plan).toBe('pebble');
  });

  it('[R108] on a paid plan an account may send U whatever its permanent storage; on the free plan with 100,000,000 bytes or less it may not', async () => {
    const app = await env.buildApp({ config });
    const local = new ApiClient(app);
    const sender = await VaultActor.create(env, local);
    const receiver = await VaultActor.create(env, local);
    // 5 U, as a committed permanent upload of 5 MiB earns them.
    const announce = await env.db.transaction().execute((trx) =>
      app.services.ledger.creditRewards(trx, [{ id: crypto.randomUUID(), kind: 'version', size: 5 * 1024 * 1024, uploader_user_id: sender.userId }]),
    );
    announce();
    const send = async () => {
      const unsigned = { id: crypto.randomUUID(), from: sender.user.address, fromKey: sender.user.publicSigningKey, to: receiver.user.address, amount: '1' };
      return local.post('/api/utoken/transfers', { ...unsigned, signature: await sender.user.sign(transferSigningPayload(unsigned)) }, { token: sender.token });
    };
    // Pebble: free, 1,000,000 bytes of permanent storage.
    expectError(await send(), 403, 'TOKEN_SEND_NOT_ALLOWED');
    // Boulder: paid, although its 9,000,000 bytes are under the free plan's threshold.
    await env.db.updateTable('users').set({ plan_id: 'boulder' }).where('id', '=', sender.userId).execute();
    expectStatus(await send(), 201);
    await app.close();
  });
});

/** A random Ed25519-sized public key (32 bytes, base64url) (lower-case hex) for a wallet that is never used. */
function newWalletKey(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');
}
