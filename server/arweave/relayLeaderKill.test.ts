/**
 * The relay's leader dies abruptly (SIGKILL: no drain, no release of anything) while it posts a
 * bundle, in a real deployment (server/testing/deployment.ts): two server processes on one
 * PostgreSQL, one S3 bucket and one gateway. PostgreSQL frees the advisory lock with the dead
 * process's connection (RelayLeadership.ts); the other process takes the lead at its next pass,
 * reads the signed bundle back from the shared bucket and finishes posting that same transaction
 * (R66a), so the version is paid for once, under the id the database already names.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { openDatabase } from '../db/openDatabase';
import type { Database } from '../db/Database';
import type { OperationBody } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describePostgres } from '../testing/databases';
import { Deployment, type DeployedProcess } from '../testing/deployment';
import { newSession } from '../testing/flows';
import { httpApp } from '../testing/httpApp';
import { TestUser } from '../testing/TestUser';
import { expectAccepted, makeFile, newId, sealed, VaultActor } from '../testing/vaults';
import { arweaveFor } from './arweaveClient';
import { readWallet } from './wallet';

const FINAL = ['COMMITTED', 'REJECTED', 'BLOCKED'];
/** A version posted in some 24 chunks of 256 KiB. */
const BIG = 6 * 1024 * 1024;

describePostgres('the relay leader killed in the middle of a post', () => {
  let deployment: Deployment;
  let db: Kysely<Database>;
  let owner: VaultActor;
  /** The owner, talking to `process` directly. */
  let ownerOn: (process: DeployedProcess) => VaultActor;

  beforeAll(async () => {
    deployment = await Deployment.start({ processes: 2, adminDatabaseUrl: process.env.TEST_DATABASE_URL!, env: { HISTORY_SETTLE_MS: '0' } });
    db = openDatabase({ databaseUrl: deployment.databaseUrl, sqlitePath: '' }).db;
    // Through the first process directly: its DATA_DIR has the verification mail.
    const first = deployment.processes[0]!;
    const api = new ApiClient(httpApp(first.server.url));
    const user = await TestUser.create();
    const session = await newSession(api, first.dataDir, user);
    ownerOn = (process) => new VaultActor(new ApiClient(httpApp(process.server.url)), user, session.token, session.user.id);
    owner = ownerOn(first);
  }, 180_000);

  afterAll(async () => {
    await db?.destroy();
    await deployment?.stop();
  });

  async function addFile(vaultId: string, size: number): Promise<void> {
    const version = await owner.upload(vaultId, makeFile(size));
    const body: OperationBody = { type: 'file.create', parentId: null, name: sealed(), version };
    expectAccepted(await owner.apply(vaultId, newId(), body));
  }

  function rowsOf(vaultId: string) {
    return db.selectFrom('storage_transactions').selectAll().where('vault_id', '=', vaultId).orderBy('created_at').orderBy('id').execute();
  }

  async function untilFinal(vaultId: string): Promise<void> {
    await expect
      .poll(
        async () => {
          await deployment.arweaveGateway.mine();
          const rows = await rowsOf(vaultId);
          return rows.length > 0 && rows.every((r) => FINAL.includes(r.status));
        },
        { timeout: 90_000, interval: 250 },
      )
      .toBe(true);
  }

  const posted = (process: DeployedProcess) => deployment.metric(process, 'cairn_relay_bundles_posted_total');

  /** The bundle transactions of the relay wallet that the gateway holds. */
  async function bundlesHeld(): Promise<Set<string>> {
    const gateway = deployment.arweaveGateway;
    const address = await arweaveFor(gateway.url).wallets.jwkToAddress(readWallet(gateway.walletFile));
    const response = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ transactions(owners: ["${address}"], first: 100, tags: [{ name: "Bundle-Format", values: ["binary"] }]) { edges { node { id } } } }` }),
    });
    const body = (await response.json()) as { data: { transactions: { edges: { node: { id: string } }[] } } };
    return new Set(body.data.transactions.edges.map((e) => e.node.id));
  }

  it('the other process takes the lead and finishes the same signed transaction: one bundle at the gateway, under the id the database named', async () => {
    const vaultId = await owner.createVault({ isCloud: false });
    // A first file finds out which process leads (both may relay; one holds the lock).
    await addFile(vaultId, 1_000);
    await untilFinal(vaultId);
    const counts = await Promise.all(deployment.processes.map(posted));
    expect(counts.filter((n) => n > 0)).toHaveLength(1);
    const leader = deployment.processes[counts.findIndex((n) => n > 0)]!;
    const survivor = deployment.processes.find((p) => p !== leader)!;
    const committedBefore = new Set((await rowsOf(vaultId)).map((r) => r.id));
    const bundlesBefore = await bundlesHeld();
    owner = ownerOn(survivor);

    // The leader is killed as soon as the database shows the big version signed into a bundle
    // (BUNDLED, or already further on).
    await addFile(vaultId, BIG);
    let signedTxId: string | null = null;
    const deadline = Date.now() + 60_000;
    while (signedTxId === null) {
      const row = (await rowsOf(vaultId)).find((r) => r.kind === 'version' && r.size > BIG);
      if (row?.tx_id && ['BUNDLED', 'PENDING', 'COMMITTED'].includes(row.status)) signedTxId = row.tx_id;
      else if (Date.now() > deadline) throw new Error(`The version was never bundled: ${row?.status ?? 'no row'}`);
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await leader.server.kill();

    // The survivor finishes it, and relays what comes after.
    await untilFinal(vaultId);
    await addFile(vaultId, 2_000);
    await untilFinal(vaultId);
    // The versions and the runs of the vault's history (R84) since the kill.
    const rows = (await rowsOf(vaultId)).filter((r) => !committedBefore.has(r.id));
    expect(rows.filter((r) => r.kind === 'version')).toHaveLength(2);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['COMMITTED']));
    expect(rows.find((r) => r.kind === 'version' && r.size > BIG)!.tx_id).toBe(signedTxId);
    expect(await posted(survivor)).toBeGreaterThan(0);
    // Nothing was bundled twice: the gateway holds exactly the bundles the rows name.
    const added = [...(await bundlesHeld())].filter((id) => !bundlesBefore.has(id));
    expect(new Set(added)).toEqual(new Set(rows.map((r) => r.tx_id)));
  }, 240_000);
});
