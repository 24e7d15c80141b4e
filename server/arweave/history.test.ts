/**
 * A permanent vault's history on the network (docs/SYNC_SPEC.md R84, R85) against a real arlocal:
 * the log goes out in runs, in order, each with exactly R84's tags and data; a burst is one run;
 * two relays on one database never make two runs of one seq; an outage loses and doubles nothing;
 * a reader finds the runs by their tags through the gateway's GraphQL; the runs count in the
 * owner's permanent usage but are nobody's upload; members read them through
 * GET /vaults/{id}/history-items.
 */
import path from 'node:path';
import { Bundle } from 'arbundles';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { StorageTransactionPage, VaultHistoryPage } from '../../src/protocol/arweave';
import { StorageResponse, type OperationBody } from '../../src/protocol/vaults';
import { DiskBlobStore } from '../blobs/DiskBlobStore';
import { openDatabase } from '../db/openDatabase';
import { ApiClient } from '../testing/ApiClient';
import { suiteGateway } from '../testing/arlocal';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { airdropMember, invite, sealNewest, sealRingTo } from '../testing/members';
import { createKeyRing } from '../../src/crypto/keyRing';
import { clear, expectAccepted, insertMembership, makeFile, newId, sealed, type StoredFile, VaultActor } from '../testing/vaults';
import { ArweaveRelay, type RelayOptions } from './ArweaveRelay';
import { arweaveFor } from './arweaveClient';

const FINAL = ['COMMITTED', 'REJECTED', 'BLOCKED'];

describeEachDatabase('a permanent vault history on the network', (env) => {
  let app: FastifyInstance;
  let api: ApiClient;

  async function buildRelayApp(options: RelayOptions = {}): Promise<FastifyInstance> {
    return env.buildApp({
      arweave: { gatewayUrl: suite.gateway.url, wallet: suite.wallet, startRelay: false, relayOptions: { intervalMs: 1, backoffBaseMs: 1, backoffMaxMs: 5, historySettleMs: 0, ...options } },
    });
  }

  const suite = suiteGateway('cairn-arlocal-history-', async () => {
    app = await buildRelayApp();
    api = new ApiClient(app);
  });

  function relayOf(target: FastifyInstance): ArweaveRelay {
    const relay = target.arweaveRelay;
    if (!relay) throw new Error('No relay');
    return relay;
  }

  async function runsOf(vaultId: string) {
    return env.db.selectFrom('storage_transactions').selectAll().where('vault_id', '=', vaultId).where('kind', '=', 'history').orderBy('seq_from').execute();
  }

  async function allRowsOf(vaultId: string) {
    return env.db.selectFrom('storage_transactions').selectAll().where('vault_id', '=', vaultId).execute();
  }

  async function headOf(vaultId: string): Promise<number> {
    const row = await env.db.selectFrom('vaults').select('head_seq').where('id', '=', vaultId).executeTakeFirstOrThrow();
    return Number(row.head_seq);
  }

  /** Passes and mined blocks until every row of `vaultId` (runs and versions) is final. */
  async function settle(target: FastifyInstance, vaultId: string): Promise<void> {
    for (let round = 0; round < 12; round += 1) {
      await relayOf(target).runOnce();
      const rows = await allRowsOf(vaultId);
      if (rows.length > 0 && rows.every((r) => FINAL.includes(r.status))) return;
      await suite.gateway.mine();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`Not settled: ${JSON.stringify((await allRowsOf(vaultId)).map((r) => r.status))}`);
  }

  async function addFile(actor: VaultActor, vaultId: string, file: StoredFile) {
    const version = await actor.upload(vaultId, file);
    const body: OperationBody = { type: 'file.create', parentId: null, name: sealed(), version };
    expectAccepted(await actor.apply(vaultId, newId(), body));
    return version;
  }

  async function addFolders(actor: VaultActor, vaultId: string, count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) expectAccepted(await actor.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }));
  }

  async function graphql<T>(query: string): Promise<T> {
    const response = await fetch(`${suite.gateway.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return ((await response.json()) as { data: T }).data;
  }

  async function gatewayTags(id: string): Promise<[string, string][]> {
    const data = await graphql<{ transaction: { tags: { name: string; value: string }[] } | null }>(`{ transaction(id: "${id}") { tags { name value } } }`);
    return (data.transaction?.tags ?? []).map((t) => [t.name, t.value]);
  }

  /** What a reader does (R86): every item tagged as this vault's history, all pages. */
  async function findRunsByTags(vaultId: string): Promise<{ id: string; tags: Record<string, string> }[]> {
    const found: { id: string; tags: Record<string, string> }[] = [];
    let after = '';
    for (;;) {
      const data = await graphql<{ transactions: { pageInfo: { hasNextPage: boolean }; edges: { cursor: string; node: { id: string; tags: { name: string; value: string }[] } }[] } }>(
        `{ transactions(first: 100, ${after ? `after: "${after}", ` : ''}tags: [{ name: "App-Name", values: ["Cairn"] }, { name: "Cairn-Item", values: ["vault-history"] }, { name: "Vault-Id", values: ["${vaultId}"] }]) { pageInfo { hasNextPage } edges { cursor node { id tags { name value } } } } }`,
      );
      // Keyed by id, as a reader must: arlocal may list an item once per indexing of its bundle.
      for (const edge of data.transactions.edges) {
        if (!found.some((f) => f.id === edge.node.id)) found.push({ id: edge.node.id, tags: Object.fromEntries(edge.node.tags.map((t) => [t.name, t.value])) });
      }
      if (!data.transactions.pageInfo.hasNextPage || data.transactions.edges.length === 0) return found;
      after = data.transactions.edges.at(-1)!.cursor;
    }
  }

  /** R84's data for `seqFrom..seqTo`, from the stored log. */
  async function expectedRun(vaultId: string, seqFrom: number, seqTo: number) {
    const ops = await env.db.selectFrom('ops').select(['seq', 'received_at', 'body']).where('vault_id', '=', vaultId).where('seq', '>=', seqFrom).where('seq', '<=', seqTo).orderBy('seq').execute();
    return {
      format: 'cairn-vault-history',
      version: 1,
      vaultId,
      seqFrom,
      seqTo,
      ops: ops.map((op) => ({ seq: Number(op.seq), receivedAt: Number(op.received_at), op: JSON.parse(op.body) as unknown })),
    };
  }

  const r84Tags = (vaultId: string, seqFrom: number, seqTo: number): [string, string][] => [
    ['App-Name', 'Cairn'],
    ['Cairn-Item', 'vault-history'],
    ['Cairn-Format-Version', '1'],
    ['Vault-Id', vaultId],
    ['Seq-From', String(seqFrom)],
    ['Seq-To', String(seqTo)],
  ];

  it('[R84] a private vault\'s log goes out in consecutive runs, in order, each with exactly R84\'s tags and its operations as stored', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    await addFolders(owner, vaultId, 3);
    await addFile(owner, vaultId, makeFile(2_000));
    const small = await buildRelayApp({ historyRunMaxOps: 2 });
    await settle(small, vaultId);
    const head = await headOf(vaultId);
    expect(head).toBe(5);

    const runs = await runsOf(vaultId);
    expect(runs.map((r) => [Number(r.seq_from), Number(r.seq_to)])).toEqual([
      [1, 2],
      [3, 4],
      [5, 5],
    ]);
    const vault = await env.db.selectFrom('vaults').select('history_seq').where('id', '=', vaultId).executeTakeFirstOrThrow();
    expect(Number(vault.history_seq)).toBe(head);
    for (const run of runs) {
      const [from, to] = [Number(run.seq_from), Number(run.seq_to)];
      expect(run.status).toBe('COMMITTED');
      // The item on the network: its tags are R84's, in order, and nothing else (no name, type or e-mail).
      expect(await gatewayTags(run.data_item_id!)).toEqual(r84Tags(vaultId, from, to));
      const served = Buffer.from(await (await fetch(`${suite.gateway.url}/${run.data_item_id}`)).arrayBuffer());
      expect(served.length).toBe(Number(run.size));
      expect(JSON.parse(served.toString('utf8'))).toEqual(await expectedRun(vaultId, from, to));
      // Each operation's canonical body is in the data verbatim, so its signature still verifies.
      for (const op of (await expectedRun(vaultId, from, to)).ops) expect(served.toString('utf8')).toContain(JSON.stringify(op.op));
      const bundleData = (await suite.gateway.arweave.transactions.getData(run.tx_id!, { decode: true })) as Uint8Array;
      const bundle = new Bundle(Buffer.from(bundleData));
      expect(await bundle.verify()).toBe(true);
      const item = bundle.items.find((i) => i.id === run.data_item_id)!;
      expect(item.tags.map((t) => [t.name, t.value])).toEqual(r84Tags(vaultId, from, to));
    }
  });

  it('[R84] a private vault\'s runs tell the network nothing the server could not read: no name, no e-mail, no note or message in clear', async () => {
    const owner = await VaultActor.create(env, api);
    const member = await VaultActor.create(env, api);
    const vaultId = newId();
    const ring = createKeyRing();
    const secret = `Quarterly ledger ${newId()}`;
    expectAccepted(
      await owner.apply(vaultId, vaultId, {
        type: 'vault.create',
        isPublic: false,
        isCloud: false,
        name: await sealNewest(ring, { vaultId, objectId: vaultId, field: 'name' }, secret),
        ownerKeys: await sealRingTo(ring, owner.user.publicEncryptionKey),
      }),
    );
    expect((await invite(owner, vaultId, member, 'CONTRIBUTOR', ring, `Welcome to ${secret}`)).status).toBe('accepted');
    const memoId = newId();
    expectAccepted(await owner.apply(vaultId, memoId, { type: 'memo.create', message: await sealNewest(ring, { vaultId, objectId: memoId, field: 'message' }, `${secret} memo`) }));
    await settle(app, vaultId);
    const runs = await runsOf(vaultId);
    expect(runs.map((r) => [Number(r.seq_from), Number(r.seq_to)])).toEqual([[1, await headOf(vaultId)]]);
    for (const run of runs) {
      expect(await gatewayTags(run.data_item_id!)).toEqual(r84Tags(vaultId, Number(run.seq_from), Number(run.seq_to)));
      const served = Buffer.from(await (await fetch(`${suite.gateway.url}/${run.data_item_id}`)).arrayBuffer()).toString('utf8');
      for (const clear of [secret, 'Quarterly', owner.user.email, member.user.email, 'Welcome']) expect(served).not.toContain(clear);
      const data = JSON.parse(served) as { ops: { op: { body: { type: string } } }[] };
      expect(data.ops.map((o) => o.op.body.type)).toEqual(['vault.create', 'member.invite', 'memo.create']);
    }
  });

  it('[R84] a public vault\'s runs carry R84\'s tags too, no File-Name or Content-Type', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false, isPublic: true });
    const version = await owner.upload(vaultId, makeFile(500, { isPublic: true }), { isPublic: true });
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: clear('Field notes.txt'), version }));
    await settle(app, vaultId);
    const [run] = await runsOf(vaultId);
    expect(await gatewayTags(run!.data_item_id!)).toEqual(r84Tags(vaultId, 1, 2));
  });

  it('[R84] a burst becomes one run, made only once its newest operation is HISTORY_SETTLE_MS old', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    await addFolders(owner, vaultId, 4);
    const patient = await buildRelayApp({ historySettleMs: 60_000 });
    await relayOf(patient).runOnce(['history']);
    expect(await runsOf(vaultId)).toEqual([]);
    env.clock.advance(60_001);
    await relayOf(patient).runOnce(['history']);
    await relayOf(patient).runOnce(['history']);
    const runs = await runsOf(vaultId);
    expect(runs.map((r) => [Number(r.seq_from), Number(r.seq_to), r.status])).toEqual([[1, 5, 'SCHEDULED']]);
  });

  it('[R84] a full run is made without waiting, and a run stops before 2 MiB of data', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    await addFolders(owner, vaultId, 4);
    const byOps = await buildRelayApp({ historySettleMs: 3_600_000, historyRunMaxOps: 2 });
    await relayOf(byOps).runOnce(['history']);
    // Two full runs; the fifth operation waits for company or for time.
    expect((await runsOf(vaultId)).map((r) => [Number(r.seq_from), Number(r.seq_to)])).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const bySize = await buildRelayApp({ historySettleMs: 0, historyRunMaxBytes: 1_500 });
    await relayOf(bySize).runOnce(['history']);
    const runs = await runsOf(vaultId);
    expect(runs.every((r) => Number(r.size) <= 1_500 || Number(r.seq_from) === Number(r.seq_to))).toBe(true);
    expect(runs.map((r) => Number(r.seq_to)).at(-1)).toBe(5);
  });

  it('[R84] a run planned from sizes that undercount its operations (logs from before 0007) is cut to its limit', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    await addFolders(owner, vaultId, 3);
    await env.db.updateTable('ops').set({ body_bytes: 1 }).where('vault_id', '=', vaultId).execute();
    const bySize = await buildRelayApp({ historySettleMs: 0, historyRunMaxBytes: 1_500 });
    await relayOf(bySize).runOnce(['history']);
    const runs = await runsOf(vaultId);
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.every((r) => Number(r.size) <= 1_500 || Number(r.seq_from) === Number(r.seq_to))).toBe(true);
    expect(runs.map((r) => [Number(r.seq_from), Number(r.seq_to)]).flat().at(-1)).toBe(4);
  });

  it('[R84] two relays on one database (two processes) never make two runs of one seq', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    // A second process: its own connection pool and relay. On SQLite (one process by design) the
    // second relay shares the connection: better-sqlite3 blocks the event loop while it waits for a
    // lock, so two connections in one process would only wait for each other; the passes still
    // interleave at every await.
    const second = env.databaseUrl ? openDatabase({ databaseUrl: env.databaseUrl, sqlitePath: '' }).db : env.db;
    try {
      const options = { historySettleMs: 0, historyRunMaxOps: 3 };
      const relays = [relayOf(await buildRelayApp(options)), new ArweaveRelay({ db: second, blobStore: new DiskBlobStore(path.join(env.dataDir, 'blobs')), arweave: arweaveFor(suite.gateway.url), wallet: suite.wallet, clock: env.clock, log: app.log, options })];
      for (let round = 0; round < 4; round += 1) {
        await addFolders(owner, vaultId, 5);
        await Promise.all([...relays, ...relays].map((relay) => relay.runOnce(['history'])));
      }
      // A pass that found the other process writing leaves the rest to the next pass.
      await relays[1]!.runOnce(['history']);
    } finally {
      if (second !== env.db) await second.destroy();
    }
    const runs = await runsOf(vaultId);
    const seqs = runs.flatMap((r) => Array.from({ length: Number(r.seq_to) - Number(r.seq_from) + 1 }, (_, i) => Number(r.seq_from) + i));
    expect(seqs).toEqual(Array.from({ length: await headOf(vaultId) }, (_, i) => i + 1));
  });

  it('[R84] a gateway outage: runs wait, then each is posted once when the gateway is back', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    await addFolders(owner, vaultId, 2);
    const relayApp = await buildRelayApp({ historyRunMaxOps: 2 });
    await relayOf(relayApp).runOnce(['history', 'bundle']);
    const bundled = await runsOf(vaultId);
    expect(bundled.map((r) => r.status)).toEqual(['BUNDLED', 'BUNDLED']);

    await suite.gateway.stop();
    await relayOf(relayApp).runOnce();
    await relayOf(relayApp).runOnce();
    // Nothing lost: the runs wait with their signed items; nothing new was made of their seqs.
    const during = await runsOf(vaultId);
    expect(during.map((r) => [r.status, r.data_item_id])).toEqual(bundled.map((r) => ['BUNDLED', r.data_item_id]));

    await suite.gateway.start();
    await settle(relayApp, vaultId);
    const after = await runsOf(vaultId);
    expect(after.map((r) => [r.status, r.data_item_id, r.tx_id])).toEqual(bundled.map((r) => ['COMMITTED', r.data_item_id, r.tx_id]));
    // Posted once: the network holds the items signed before the outage and no other item for these seqs.
    const found = await findRunsByTags(vaultId);
    expect(found.map((f) => f.id).sort()).toEqual(bundled.map((r) => r.data_item_id).sort());
  });

  it('[R84] a reader finds every run of the vault by its tags through GraphQL after mining, in a chunked bundle too', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    // A version of 700 KB makes the bundle travel in chunks (POST /chunk), the runs with it.
    await addFile(owner, vaultId, makeFile(700_000));
    await addFolders(owner, vaultId, 2);
    await settle(app, vaultId);
    const runs = await runsOf(vaultId);
    const versions = (await allRowsOf(vaultId)).filter((r) => r.kind === 'version');
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.some((r) => versions.some((v) => v.tx_id === r.tx_id))).toBe(true);
    const found = await findRunsByTags(vaultId);
    expect(found.map((f) => f.id).sort()).toEqual(runs.map((r) => r.data_item_id).sort());
    for (const run of runs) {
      const item = found.find((f) => f.id === run.data_item_id)!;
      expect([item.tags['Seq-From'], item.tags['Seq-To']]).toEqual([String(run.seq_from), String(run.seq_to)]);
    }
    // Chained from seq 1 to the head, as a reader would.
    const ordered = found.map((f) => [Number(f.tags['Seq-From']), Number(f.tags['Seq-To'])]).sort((a, b) => a[0]! - b[0]!);
    expect(ordered[0]![0]).toBe(1);
    for (let i = 1; i < ordered.length; i += 1) expect(ordered[i]![0]).toBe(ordered[i - 1]![1]! + 1);
    expect(ordered.at(-1)![1]).toBe(await headOf(vaultId));
  });

  it('[R84] cloud vaults put nothing on the network', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: true });
    await addFolders(owner, vaultId, 2);
    await relayOf(app).runOnce();
    expect(await allRowsOf(vaultId)).toEqual([]);
    const page = VaultHistoryPage.parse((await api.get(`/api/vaults/${vaultId}/history-items`, { token: owner.token })).body);
    expect(page).toMatchObject({ items: [], isPermanent: false });
  });

  it('[R84] the runs count in the owner\'s permanent usage and are not among anybody\'s uploads', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    const file = makeFile(1_000);
    await addFile(owner, vaultId, file);
    const usage = async () => StorageResponse.parse((await api.get('/api/storage', { token: owner.token })).body);
    expect((await usage()).permanentUsed).toBe(file.storedSize);
    await relayOf(app).runOnce(['history']);
    const runs = await runsOf(vaultId);
    expect(runs.length).toBe(1);
    expect(Number(runs[0]!.size)).toBeGreaterThan(0);
    expect((await usage()).permanentUsed).toBe(file.storedSize + Number(runs[0]!.size));
    // The cards show the runs as Other: the response says how much of the figure they are.
    expect((await usage()).permanentLogUsed).toBe(Number(runs[0]!.size));

    const listed = StorageTransactionPage.parse((await api.get('/api/storage/transactions', { token: owner.token })).body);
    expect(listed.items.filter((t) => t.vaultId === vaultId).map((t) => t.versionId)).toEqual([(await allRowsOf(vaultId)).find((r) => r.kind === 'version')!.version_id]);
  });

  it('[R84] GET /vaults/{id}/history-items answers the runs in seq order to any member, 404 to others, 403 to a removed member', async () => {
    const owner = await VaultActor.create(env, api);
    const viewer = await VaultActor.create(env, api);
    const stranger = await VaultActor.create(env, api);
    const removed = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    await insertMembership(env.db, vaultId, viewer.userId, 'VIEWER');
    await insertMembership(env.db, vaultId, removed.userId, 'CONTRIBUTOR', 'REVOKED');
    await addFolders(owner, vaultId, 4);
    const small = await buildRelayApp({ historyRunMaxOps: 2 });
    await relayOf(small).runOnce(['history', 'bundle']);

    const url = `/api/vaults/${vaultId}/history-items`;
    const first = VaultHistoryPage.parse((await api.get(`${url}?limit=2`, { token: viewer.token })).body);
    expect(first.items.map((i) => [i.seqFrom, i.seqTo, i.status])).toEqual([
      [1, 2, 'BUNDLED'],
      [3, 4, 'BUNDLED'],
    ]);
    expect(first.items[0]!.dataItemId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first).toMatchObject({ isPermanent: true, headSeq: 5, historySeq: 5, nextAfter: 4 });
    const second = VaultHistoryPage.parse((await api.get(`${url}?limit=2&after=4`, { token: owner.token })).body);
    expect(second.items.map((i) => [i.seqFrom, i.seqTo])).toEqual([[5, 5]]);
    expect(second.nextAfter).toBeNull();

    expectStatus(await api.get(url, { token: stranger.token }), 404);
    expectStatus(await api.get(`/api/vaults/${newId()}/history-items`, { token: owner.token }), 404);
    expectStatus(await api.get(url, { token: removed.token }), 403);
    expectStatus(await api.get(url), 401);
    expectStatus(await api.get(`${url}?limit=51`, { token: owner.token }), 400);
    expectStatus(await api.get(`${url}?after=-1`, { token: owner.token }), 400);
    expectStatus(await api.get(`/api/vaults/${'x'.repeat(65)}/history-items`, { token: owner.token }), 400);
  });

  it('[R90] an airdrop guest reads the history of the vault of its link, and only of that vault', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isCloud: false });
    const otherVault = await owner.createVault({ isCloud: false });
    const guest = await airdropMember(owner, vaultId, { role: 'VIEWER', storageAllowance: 0, expiresAt: Date.now() + 3_600_000 });
    await relayOf(app).runOnce(['history']);
    const page = VaultHistoryPage.parse((await api.get(`/api/vaults/${vaultId}/history-items`, { token: guest.token })).body);
    expect(page.items.map((i) => i.seqFrom)).toEqual([1]);
    expectStatus(await api.get(`/api/vaults/${otherVault}/history-items`, { token: guest.token }), 404);
  });
});
