/**
 * Several server processes on one database (issue 20, docs/decisions.md "One relay leader per
 * database"): each app below is what one process builds, with its own relay loop running and its
 * own view of the gateway (a counting proxy in front of one real arlocal), so the test sees which
 * process posted what. On PostgreSQL two relays run at once and one leads (an advisory lock); on
 * SQLite, one process by design, one relays and the other is the restart path.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OperationBody } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { suiteGateway } from '../testing/arlocal';
import { describeEachDatabase } from '../testing/databases';
import { GatewayProxy } from '../testing/gatewayProxy';
import { expectAccepted, makeFile, newId, sealed, VaultActor } from '../testing/vaults';
import { connectSocket } from '../testing/wsClient';
import { PostgresStorageTransactionBus } from '../realtime/StorageTransactionBus';
import type { RelayOptions } from './ArweaveRelay';

const FINAL = ['COMMITTED', 'REJECTED', 'BLOCKED'];

describeEachDatabase('the permanent relay with several processes on one database', (env) => {
  const suite = suiteGateway('cairn-arlocal-multi-');
  const onPostgres = () => env.databaseUrl !== null;
  let owner: VaultActor;
  /** A process with CAIRN_RELAY=0, through which every change below is made. */
  let quiet: { app: FastifyInstance; gateway: GatewayProxy };

  /** Two versions of 1,000 bytes per bundle at most, so a few files make several bundles. */
  const relayOptions: RelayOptions = { intervalMs: 20, backoffBaseMs: 1, backoffMaxMs: 20, bundleMaxBytes: 2_500, historySettleMs: 0, historyRunMaxOps: 3 };

  /** One process: its own gateway view and, on PostgreSQL, its own LISTEN connection as main.ts makes. */
  async function startProcess(config: { relay?: boolean } = {}): Promise<{ app: FastifyInstance; gateway: GatewayProxy }> {
    const gateway = new GatewayProxy(suite.gateway.url);
    await gateway.start();
    gateways.push(gateway);
    const storageTransactionBus = env.databaseUrl ? await PostgresStorageTransactionBus.connect(env.databaseUrl, console) : undefined;
    const app = await env.buildApp({ config, arweave: { gatewayUrl: gateway.url, wallet: suite.wallet, relayOptions }, ...(storageTransactionBus ? { storageTransactionBus } : {}) });
    return { app, gateway };
  }


  type Process = Awaited<ReturnType<typeof startProcess>>;
  const gateways: GatewayProxy[] = [];
  afterAll(async () => {
    for (const gateway of gateways) await gateway.stop();
  });

  beforeAll(async () => {
    quiet = await startProcess({ relay: false });
    owner = await VaultActor.create(env, new ApiClient(quiet.app));
  });

  async function addFiles(vaultId: string, count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      const version = await owner.upload(vaultId, makeFile(1_000));
      const body: OperationBody = { type: 'file.create', parentId: null, name: sealed(), version };
      expectAccepted(await owner.apply(vaultId, newId(), body));
    }
  }

  async function addFolders(vaultId: string, count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }));
  }

  async function rowsOf(vaultId: string) {
    return env.db.selectFrom('storage_transactions').selectAll().where('vault_id', '=', vaultId).orderBy('created_at').orderBy('id').execute();
  }

  /** Mines until every storage transaction of `vaultId` is final; answers their statuses. */
  async function untilFinal(vaultId: string): Promise<string[]> {
    await expect
      .poll(
        async () => {
          await suite.gateway.mine();
          const rows = await rowsOf(vaultId);
          return rows.length > 0 && rows.every((r) => FINAL.includes(r.status));
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBe(true);
    return (await rowsOf(vaultId)).map((r) => r.status);
  }

  /** The bundle transactions of the relay wallet that the gateway holds. */
  async function bundlesHeld(): Promise<Set<string>> {
    const owner = await suite.gateway.arweave.wallets.jwkToAddress(suite.wallet);
    const response = await fetch(`${suite.gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ transactions(owners: ["${owner}"], first: 100, tags: [{ name: "Bundle-Format", values: ["binary"] }]) { edges { node { id } } } }` }),
    });
    const body = (await response.json()) as { data: { transactions: { edges: { node: { id: string } }[] } } };
    return new Set(body.data.transactions.edges.map((e) => e.node.id));
  }

  /** How often each transaction id was posted, over every process. */
  function postsById(gateways: GatewayProxy[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const gateway of gateways) for (const id of gateway.postedTxIds) counts.set(id, (counts.get(id) ?? 0) + 1);
    return counts;
  }

  it('two relays running at once over several files and history runs post each bundle exactly once; every transaction reaches COMMITTED; a CAIRN_RELAY=0 process posts nothing', async () => {
    const before = await bundlesHeld();
    const one = await startProcess();
    // SQLite is one process by design: the second relaying process exists on PostgreSQL only.
    const two = onPostgres() ? await startProcess() : null;
    const relaying = [one, ...(two ? [two] : [])];
    try {
      const vaultId = await owner.createVault({ isCloud: false });
      await addFiles(vaultId, 6);
      await addFolders(vaultId, 7);

      expect(new Set(await untilFinal(vaultId))).toEqual(new Set(['COMMITTED']));
      const rows = await rowsOf(vaultId);
      expect(rows.some((r) => r.kind === 'history')).toBe(true);
      const txIds = new Set(rows.map((r) => r.tx_id!));
      expect(txIds.size).toBeGreaterThanOrEqual(4);

      // Each bundle reached the gateway once, from whichever process led, and nothing else did.
      const posts = postsById(relaying.map((p) => p.gateway));
      expect(new Map([...posts].filter(([id]) => txIds.has(id)))).toEqual(new Map([...txIds].map((id) => [id, 1])));
      expect(quiet.gateway.postedTxIds).toEqual([]);
      expect(quiet.gateway.postedChunks).toBe(0);
      // One process did all the posting: the leader.
      expect(relaying.filter((p) => p.gateway.postedTxIds.length > 0)).toHaveLength(1);

      // The gateway holds exactly those bundles, each a verified one of this wallet.
      const added = [...(await bundlesHeld())].filter((id) => !before.has(id));
      expect(new Set(added)).toEqual(txIds);
    } finally {
      for (const p of relaying) await p.app.close();
    }
  }, 120_000);

  it('the leading process stops: another takes over and finishes, each bundle still posted once', async () => {
    const first = await startProcess();
    let second = onPostgres() ? await startProcess() : null;
    const vaultId = await owner.createVault({ isCloud: false });
    await addFiles(vaultId, 2);
    await untilFinal(vaultId);
    const firstTxIds = new Set((await rowsOf(vaultId)).map((r) => r.tx_id!));
    // Which process led (on SQLite, the only one).
    const [leader, follower]: [Process, Process | null] = first.gateway.postedTxIds.length > 0 || !second ? [first, second] : [second, first];
    expect(leader.gateway.postedTxIds.length).toBeGreaterThan(0);
    expect(follower?.gateway.postedTxIds ?? []).toEqual([]);

    await leader.app.close();
    // On SQLite the other process starts only now (a restart); on PostgreSQL it was waiting.
    const successor = follower ?? (second = await startProcess());
    try {
      await addFiles(vaultId, 3);
      await addFolders(vaultId, 4);
      expect(new Set(await untilFinal(vaultId))).toEqual(new Set(['COMMITTED']));
      const later = new Set((await rowsOf(vaultId)).map((r) => r.tx_id!).filter((id) => !firstTxIds.has(id)));
      expect(later.size).toBeGreaterThanOrEqual(2);
      // The new bundles went through the successor, once each; the stopped leader posted nothing more.
      expect(new Map([...postsById([successor.gateway])].filter(([id]) => later.has(id)))).toEqual(new Map([...later].map((id) => [id, 1])));
      expect(leader.gateway.postedTxIds.filter((id) => later.has(id))).toEqual([]);
      const allPosts = postsById([first.gateway, successor.gateway, quiet.gateway]);
      for (const id of [...firstTxIds, ...later]) expect(allPosts.get(id)).toBe(1);
    } finally {
      await successor.app.close();
    }
  }, 120_000);
});

describeEachDatabase('storage-status notices with several processes on one database', (env) => {
  const suite = suiteGateway('cairn-arlocal-notices-');

  it('[R36] the status changes the relay makes on one process reach the uploader\'s socket on another, in order', async () => {
    // On PostgreSQL each app has its own LISTEN connection, as two processes would; SQLite is one
    // process, so there the socket is on the relaying app itself.
    const bus = async () => (env.databaseUrl ? { storageTransactionBus: await PostgresStorageTransactionBus.connect(env.databaseUrl, console) } : {});
    const relaying = await env.buildApp({ arweave: { gatewayUrl: suite.gateway.url, wallet: suite.wallet, startRelay: false, relayOptions: { historySettleMs: 3_600_000, intervalMs: 1, backoffBaseMs: 1, backoffMaxMs: 5 } }, ...(await bus()) });
    const other = env.databaseUrl ? await env.buildApp({ config: { relay: false }, arweave: { gatewayUrl: suite.gateway.url, wallet: suite.wallet }, ...(await bus()) }) : relaying;
    const owner = await VaultActor.create(env, new ApiClient(other));
    const socket = connectSocket(`${await wsUrlOfApp(other)}?token=${owner.token}`);
    try {
      await socket.opened;
      await socket.waitFor((m) => m.type === 'hello');
      const vaultId = await owner.createVault({ isCloud: false });
      const version = await owner.upload(vaultId, makeFile(1_000));
      expectAccepted(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: sealed(), version }));

      for (let round = 0; round < 10; round += 1) {
        await relaying.arweaveRelay!.runOnce();
        const row = await env.db.selectFrom('storage_transactions').select('status').where('vault_id', '=', vaultId).where('kind', '=', 'version').executeTakeFirstOrThrow();
        if (row.status === 'COMMITTED') break;
        await suite.gateway.mine();
      }
      await socket.waitFor((m) => m.type === 'storageTransaction' && m.transaction.status === 'COMMITTED', 10_000);
      const statuses = socket.messages.flatMap((m) => (m.type === 'storageTransaction' && m.transaction.versionId === version.versionId ? [m.transaction.status] : []));
      expect(statuses).toEqual(['VERIFICATION', 'BUNDLED', 'PENDING', 'COMMITTED']);
    } finally {
      socket.socket.close();
      await relaying.close();
      await other.close();
    }
  }, 120_000);
});

async function wsUrlOfApp(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('no port');
  return `ws://127.0.0.1:${address.port}/api/ws`;
}
