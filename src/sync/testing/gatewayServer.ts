/**
 * The real server wired to a real arlocal gateway, with one signed-in user and the real device
 * path (crypto and transfer APIs, the sync client on fake-indexeddb): for client tests of what
 * goes to the network (nftMint.server.test.ts, importTransaction.server.test.ts). The relay does
 * not run on its own; a test calls `app.arweaveRelay.runOnce()` and `gateway.mine()`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { readWallet } from '../../../server/arweave/wallet';
import { ApiClient as ServerTestClient } from '../../../server/testing/ApiClient';
import { TestGateway } from '../../../server/testing/arlocal';
import { TestEnv } from '../../../server/testing/databases';
import { newSession } from '../../../server/testing/flows';
import { TestUser } from '../../../server/testing/TestUser';
import { createCryptoApi } from '../../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../../workers/transfer/createTransferApi';
import { createApiClient, type FetchLike } from '../../platform/apiClient';
import { CairnDb } from '../../storage/db';
import { startSync, stopSync } from '../index';
import type { SyncClient } from '../SyncClient';
import { injectFetch } from './realServer';

export interface GatewayServer {
  readonly app: FastifyInstance;
  readonly gateway: TestGateway;
  readonly user: TestUser;
  readonly userId: string;
  /** The signed-in user's fetch, routed to the server. */
  fetch(): typeof fetch;
  /** An api client as the user. */
  api(): ReturnType<typeof createApiClient>;
  /** A fresh device of the user (its own IndexedDB), made the current sync client. */
  device(): Promise<{ db: CairnDb; client: SyncClient }>;
}

/** Registers the suite's beforeAll/afterAll; the answer's members are ready inside tests. */
export function gatewayServerSuite(label: string): GatewayServer {
  const env = new TestEnv('sqlite');
  let gatewayDir = '';
  let gateway: TestGateway | undefined;
  let app: FastifyInstance | undefined;
  let user: TestUser | undefined;
  let token = '';
  let userId = '';

  beforeAll(async () => {
    await env.setUp();
    gatewayDir = fs.mkdtempSync(path.join(os.tmpdir(), `cairn-arlocal-${label}-`));
    gateway = new TestGateway(gatewayDir);
    await gateway.start();
    const wallet = readWallet(gateway.walletFile);
    app = await env.buildApp({ arweave: { gatewayUrl: gateway.url, wallet, startRelay: false, relayOptions: { intervalMs: 1, backoffBaseMs: 1, backoffMaxMs: 5 } } });
    user = await TestUser.create();
    const session = await newSession(new ServerTestClient(app), env.dataDir, user);
    token = session.token;
    userId = session.user.id;
  }, 120_000);

  afterAll(async () => {
    stopSync();
    await gateway?.stop();
    await env.tearDown();
    if (gatewayDir) fs.rmSync(gatewayDir, { recursive: true, force: true });
  });

  const fetchAsUser = () => injectFetch(() => app!, () => token);
  return {
    get app() {
      return app!;
    },
    get gateway() {
      return gateway!;
    },
    get user() {
      return user!;
    },
    get userId() {
      return userId;
    },
    fetch: fetchAsUser,
    api: () => createApiClient({ fetch: fetchAsUser() as FetchLike }),
    async device() {
      const crypto = createCryptoApi();
      await crypto.loadPendingWallet(user!.phrase.split(' '));
      await crypto.activatePendingWallet();
      const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
      const client = startSync(
        { id: userId, publicSigningKey: user!.publicSigningKey, address: user!.address },
        { db, api: createApiClient({ fetch: fetchAsUser() as FetchLike }), crypto, transfer: createTransferApi({ fetch: fetchAsUser() }), log: () => {} },
        { pollIntervalMs: 0 },
      );
      return { db, client };
    },
  };
}
