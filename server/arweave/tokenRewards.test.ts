/**
 * U token rewards for permanent uploads (docs/SYNC_SPEC.md R107), driven through the real relay
 * against arlocal as relay.test.ts does: a version's storage transaction reaching COMMITTED
 * credits its uploader once, in the same database transaction, whatever passes, restarts or
 * concurrent processes come after.
 */
import type { FastifyInstance } from 'fastify';
import { expect, it, vi } from 'vitest';
import { replayLedger } from '../../src/crypto/ledger';
import { LedgerEntryPage, LedgerInfo, TokenBalance } from '../../src/protocol/ledger';
import type { OperationBody } from '../../src/protocol/vaults';
import { ServerMessage } from '../../src/protocol/ws';
import { ApiClient } from '../testing/ApiClient';
import { suiteGateway } from '../testing/arlocal';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { expectAccepted, makeFile, newId, sealed, VaultActor } from '../testing/vaults';

/** Keeps the vaults' history runs (R84) out of these bundles: no test reaches this settle time. */
const NO_HISTORY_RUNS = 3_600_000;
const MIB = 1024 * 1024;
/** 0.5 U per MiB: not the default, so the setting is seen to be read. */
const RATE = 500_000;

describeEachDatabase('U token rewards for committed permanent uploads', (env) => {
  let app: FastifyInstance;
  let api: ApiClient;

  function buildRelayApp(): Promise<FastifyInstance> {
    return env.buildApp({
      config: { tokenRewardPerMiB: RATE },
      arweave: { gatewayUrl: suite.gateway.url, wallet: suite.wallet, startRelay: false, relayOptions: { historySettleMs: NO_HISTORY_RUNS, intervalMs: 1, backoffBaseMs: 1, backoffMaxMs: 5 } },
    });
  }

  const suite = suiteGateway('cairn-arlocal-token-', async () => {
    app = await buildRelayApp();
    api = new ApiClient(app);
  });

  async function rowsOf(vaultId: string) {
    return env.db.selectFrom('storage_transactions').selectAll().where('vault_id', '=', vaultId).where('kind', '=', 'version').orderBy('created_at').execute();
  }

  async function settle(target: FastifyInstance, vaultId: string): Promise<void> {
    for (let round = 0; round < 10; round += 1) {
      await target.arweaveRelay!.runOnce();
      if ((await rowsOf(vaultId)).every((r) => ['COMMITTED', 'REJECTED', 'BLOCKED'].includes(r.status))) return;
      await suite.gateway.mine();
    }
    throw new Error(`Not settled: ${JSON.stringify((await rowsOf(vaultId)).map((r) => r.status))}`);
  }

  async function upload(actor: VaultActor, vaultId: string, size: number): Promise<void> {
    const version = await actor.upload(vaultId, makeFile(size));
    const body: OperationBody = { type: 'file.create', parentId: null, name: sealed(), version };
    expectAccepted(await actor.apply(vaultId, newId(), body));
  }

  async function balanceOf(actor: VaultActor): Promise<bigint> {
    const response = await api.get('/api/utoken', { token: actor.token });
    expectStatus(response, 200);
    return BigInt(TokenBalance.parse(response.body).balance);
  }

  async function rewardsFor(reason: string) {
    return env.db.selectFrom('ledger_entries').selectAll().where('reason', '=', reason).execute();
  }

  it('[R107] a permanent upload that reaches COMMITTED credits its uploader TOKEN_REWARD_PER_MIB per MiB stored, signed by the server, and tells their sockets', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    await upload(owner, vaultId, 3 * MIB + 12_345);
    const sent = vi.spyOn(app.socketHub, 'sendToUser');
    // Nothing before COMMITTED: bundled and posted is not yet stored.
    await app.arweaveRelay!.runOnce(['bundle', 'post']);
    expect(await balanceOf(owner)).toBe(0n);
    await settle(app, vaultId);
    const [row] = await rowsOf(vaultId);
    expect(row!.status).toBe('COMMITTED');
    const expected = (BigInt(row!.size) * BigInt(RATE)) / BigInt(MIB);
    expect(expected).toBeGreaterThan(1_500_000n);
    expect(await balanceOf(owner)).toBe(expected);
    const [entry] = await rewardsFor(row!.id);
    expect(entry).toMatchObject({ kind: 'reward', from_address: null, to_address: owner.user.address, amount: String(expected) });
    await vi.waitFor(() => {
      const pushed = sent.mock.calls.filter(([userId]) => userId === owner.userId).map(([, message]) => ServerMessage.parse(message));
      expect(pushed).toContainEqual({ type: 'tokenBalance', balance: String(expected), headSeq: Number(entry!.seq) });
    });
    sent.mockRestore();
    // Any client can check it: the reward verifies under the server's ledger key.
    const info = LedgerInfo.parse((await api.get('/api/ledger', { token: owner.token })).body);
    const chain = LedgerEntryPage.parse((await api.get('/api/ledger/entries?limit=200', { token: owner.token })).body).items;
    const replay = await replayLedger(chain, { serverKey: info.serverKey });
    expect(replay.bad).toBeNull();
    expect(replay.balances.get(owner.user.address)).toBe(expected);
  });

  it('[R107] a reward is credited exactly once: more passes, a restart, the status written again and two processes at once add nothing', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    await upload(owner, vaultId, 200_000);
    await settle(app, vaultId);
    const [row] = await rowsOf(vaultId);
    const credited = await balanceOf(owner);
    expect(credited).toBe((BigInt(row!.size) * BigInt(RATE)) / BigInt(MIB));
    expect(credited).toBeGreaterThan(0n);
    expect(await rewardsFor(row!.id)).toHaveLength(1);

    await app.arweaveRelay!.runOnce();
    // A restarted process with its own relay.
    await app.close();
    app = await buildRelayApp();
    api = new ApiClient(app);
    await app.arweaveRelay!.runOnce();
    // The row taken back to PENDING (as if the gateway had been asked again) and committed again.
    await env.db.updateTable('storage_transactions').set({ status: 'PENDING', next_attempt_at: 0 }).where('id', '=', row!.id).execute();
    await settle(app, vaultId);
    expect((await rowsOf(vaultId))[0]!.status).toBe('COMMITTED');
    // Two processes crediting the same committed upload at the same moment.
    const other = await buildRelayApp();
    const upload2 = { id: row!.id, kind: 'version', size: Number(row!.size), uploader_user_id: owner.userId };
    await Promise.all([app, other].map((target) => env.db.transaction().execute((trx) => target.services.ledger.creditRewards(trx, [upload2]))));
    await other.close();

    expect(await rewardsFor(row!.id)).toHaveLength(1);
    expect(await balanceOf(owner)).toBe(credited);
  });

  it('[R107] history runs and uploads too small for one millionth earn nothing', async () => {
    const owner = await VaultActor.create(env, api);
    const before = await env.db.selectFrom('ledger_entries').select('seq').execute();
    const announce = await env.db.transaction().execute((trx) =>
      app.services.ledger.creditRewards(trx, [
        { id: newId(), kind: 'history', size: 10 * MIB, uploader_user_id: owner.userId },
        { id: newId(), kind: 'version', size: 2, uploader_user_id: owner.userId },
      ]),
    );
    announce();
    expect(await env.db.selectFrom('ledger_entries').select('seq').execute()).toHaveLength(before.length);
    expect(await balanceOf(owner)).toBe(0n);
  });
});
