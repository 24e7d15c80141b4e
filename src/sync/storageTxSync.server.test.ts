/**
 * The storage transaction cache against the real server and a real arlocal gateway (docs/SYNC_SPEC.md
 * R38-R39): a private permanent upload is listed SCHEDULED from GET /storage/transactions, the
 * relay's socket messages carry it to COMMITTED, a later page never takes that back, the name is
 * the device's own (the server holds only sealed bytes), and pages of 20 follow the server's token.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JWKInterface } from '../../server/arweave/arweaveClient';
import { readWallet } from '../../server/arweave/wallet';
import { ApiClient as ServerTestClient } from '../../server/testing/ApiClient';
import { TestGateway } from '../../server/testing/arlocal';
import { TestEnv } from '../../server/testing/databases';
import { expectAccepted, makeFile, newId, sealed, VaultActor } from '../../server/testing/vaults';
import { createApiClient } from '../platform/apiClient';
import { ServerMessage } from '../protocol/ws';
import { CairnDb } from '../storage/db';
import { listStorageTransactions, resolveTransactionNames } from '../storage/storageTxStore';
import type { NodeRecord } from '../storage/vaultRecords';
import { injectFetch } from './testing/realServer';
import { StorageTxSync } from './storageTxSync';

describe('storage transaction sync against the real server and relay (SYNC_SPEC R38-R39)', () => {
  const env = new TestEnv('sqlite');
  let gatewayDir: string;
  let gateway: TestGateway;
  let wallet: JWKInterface;
  let app: FastifyInstance;
  let owner: VaultActor;

  beforeAll(async () => {
    await env.setUp();
    gatewayDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-arlocal-client-'));
    gateway = new TestGateway(gatewayDir);
    await gateway.start();
    wallet = readWallet(path.join(gatewayDir, 'arweave-wallet.json'));
    app = await env.buildApp({ arweave: { gatewayUrl: gateway.url, wallet, startRelay: false, relayOptions: { intervalMs: 1, backoffBaseMs: 1, backoffMaxMs: 5 } } });
    owner = await VaultActor.create(env, new ServerTestClient(app));
  }, 120_000);

  afterAll(async () => {
    await gateway.stop();
    await env.tearDown();
    fs.rmSync(gatewayDir, { recursive: true, force: true });
  });

  function device() {
    const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
    const rejected: string[] = [];
    const api = createApiClient({ fetch: injectFetch(() => app, () => owner.token) });
    const sync = new StorageTxSync(db, api, owner.userId, { onRejected: (tx) => rejected.push(tx.id), log: () => undefined });
    return { db, sync, rejected };
  }

  async function addPrivateFile(vaultId: string, size = 2_000) {
    const version = await owner.upload(vaultId, makeFile(size));
    const fileId = newId();
    expectAccepted(await owner.apply(vaultId, fileId, { type: 'file.create', parentId: null, name: sealed(), version }));
    return { fileId, versionId: version.versionId };
  }

  it('lists a private permanent upload SCHEDULED, follows the socket to COMMITTED, and names it from the device', async () => {
    const { db, sync, rejected } = device();
    const vaultId = await owner.createVault({ isCloud: false });
    const { fileId, versionId } = await addPrivateFile(vaultId);

    await sync.refresh();
    const [first] = await listStorageTransactions(db, owner.userId);
    expect(first).toMatchObject({ fileId, versionId, vaultId, status: 'SCHEDULED', txId: null, reward: null });

    // The relay runs; what it sends to the uploader's sockets is handed to the device in order.
    const sent = vi.spyOn(app.socketHub, 'sendToUser');
    const relay = app.arweaveRelay!;
    for (let round = 0; round < 10; round += 1) {
      await relay.runOnce();
      const statuses = sent.mock.calls.map(([, message]) => ServerMessage.parse(message)).flatMap((m) => (m.type === 'storageTransaction' ? [m.transaction.status] : []));
      if (statuses.includes('COMMITTED')) break;
      await gateway.mine();
    }
    const messages = sent.mock.calls.filter(([userId]) => userId === owner.userId).map(([, message]) => ServerMessage.parse(message));
    sent.mockRestore();
    for (const message of messages) if (message.type === 'storageTransaction') await sync.receive(message.transaction);

    const [committed] = await listStorageTransactions(db, owner.userId);
    expect(committed).toMatchObject({ id: first!.id, status: 'COMMITTED' });
    expect(committed!.txId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(BigInt(committed!.reward!)).toBeGreaterThan(0n);
    await sync.refresh();
    expect((await listStorageTransactions(db, owner.userId))[0]?.status).toBe('COMMITTED');
    expect(rejected).toEqual([]);

    // The server has the name sealed; the device's projection has it in clear.
    await db.nodes.put({ accountId: owner.userId, vaultId, id: fileId, kind: 'file', parentId: null, parentKey: '', name: 'Quarterly ledger.xlsx', status: 'ACTIVE', size: 2_000, mimeType: '', versionCount: 1, latestVersionId: versionId, createdAt: 1, updatedAt: 1, pendingOpIds: [], rejection: null } as NodeRecord);
    expect((await resolveTransactionNames(db, owner.userId, [committed!])).get(fileId)).toBe('Quarterly ledger.xlsx');
  }, 120_000);

  it('loads 20 a page and the rest with the server token', async () => {
    const { db, sync } = device();
    const vaultId = await owner.createVault({ isCloud: false });
    for (let i = 0; i < 21; i += 1) await addPrivateFile(vaultId, 100);
    await sync.refresh();
    // 22 on the server (one from the test before): the first page holds the newest 20.
    expect(await listStorageTransactions(db, owner.userId)).toHaveLength(20);
    expect(sync.hasMore).toBe(true);
    await sync.loadMore();
    expect(await listStorageTransactions(db, owner.userId)).toHaveLength(22);
    expect(sync.hasMore).toBe(false);
  }, 120_000);
});
