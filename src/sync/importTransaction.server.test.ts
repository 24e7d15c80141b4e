/**
 * Import by network transaction id against the real server, a real arlocal gateway and the real
 * device path (crypto and transfer APIs, the upload queue): a file uploaded to a public permanent
 * vault is relayed to the gateway; importing its data item id into a folder adds a file of the same
 * name, type and bytes; an unknown id, a cancel, no network and a gateway outage add nothing
 * (docs/SYNC_SPEC.md R42-R43).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWallet } from '../../server/arweave/wallet';
import { ApiClient as ServerTestClient } from '../../server/testing/ApiClient';
import { TestGateway } from '../../server/testing/arlocal';
import { TestEnv } from '../../server/testing/databases';
import { newSession } from '../../server/testing/flows';
import { TestUser } from '../../server/testing/TestUser';
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../workers/transfer/createTransferApi';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import { StorageTransactionPage } from '../protocol/arweave';
import { CairnDb } from '../storage/db';
import { getChildren } from '../storage/vaultStore';
import { downloadFileVersion } from './downloadFile';
import { ImportError, fetchTransactionFile } from './importTransaction';
import { startSync, stopSync } from './index';
import { injectFetch } from './testing/realServer';
import * as actions from './vaultActions';

const env = new TestEnv('sqlite');
let gatewayDir: string;
let gateway: TestGateway;
let app: FastifyInstance;
let user: TestUser;
let token = '';
let userId = '';

beforeAll(async () => {
  await env.setUp();
  gatewayDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-arlocal-import-'));
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
  await gateway.stop();
  await env.tearDown();
  fs.rmSync(gatewayDir, { recursive: true, force: true });
});

const serverFetch = () => injectFetch(() => app, () => token);

async function device() {
  const crypto = createCryptoApi();
  await crypto.loadPendingWallet(user.phrase.split(' '));
  await crypto.activatePendingWallet();
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  const client = startSync(
    { id: userId, publicSigningKey: user.publicSigningKey, address: user.address },
    { db, api: createApiClient({ fetch: serverFetch() as FetchLike }), crypto, transfer: createTransferApi({ fetch: serverFetch() }), log: () => {} },
    { pollIntervalMs: 0 },
  );
  return { db, client };
}

/** Relay passes and mined blocks until the vault's versions are on the network; answers their data item ids. */
async function commit(vaultId: string): Promise<string[]> {
  const api = createApiClient({ fetch: serverFetch() as FetchLike });
  for (let round = 0; round < 10; round += 1) {
    await app.arweaveRelay!.runOnce();
    const rows = (await api.get('/storage/transactions', StorageTransactionPage)).items.filter((t) => t.vaultId === vaultId);
    if (rows.length > 0 && rows.every((t) => t.status === 'COMMITTED')) return rows.map((t) => t.dataItemId!);
    await gateway.mine();
  }
  throw new Error('The vault never reached the network');
}

async function bytesOf(blob: Blob): Promise<Buffer> {
  return Buffer.from(await blob.arrayBuffer());
}

async function failureOf(promise: Promise<unknown>): Promise<ImportError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

const UNKNOWN_ID = 'Zk9vQmFyQmF6UXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo';

describe('[R42][R43] import by network transaction id', () => {
  let vaultId = '';
  let dataItemId = '';
  const content = Buffer.from('Ridge survey, day 3: 14 cairns counted, two fallen.\n'.repeat(400));

  it('[R44] imports a relayed item into a folder with its name, type and bytes, and it is stored like an upload', async () => {
    const { db, client } = await device();
    vaultId = await actions.createVault({ title: 'Field archive', description: '', tags: [], terms: '', isPublic: true, isCloud: false });
    await actions.uploadFiles(vaultId, null, [{ file: new File([content], 'ridge survey.txt', { type: 'text/plain', lastModified: 3 }) }]);
    await client.syncNow();
    dataItemId = (await commit(vaultId))[0]!;
    expect(dataItemId).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const folderId = await actions.createFolder(vaultId, null, 'Imported');
    await client.syncNow();
    const progress: [number, number | null][] = [];
    const file = await fetchTransactionFile(dataItemId, { fetch: serverFetch(), onProgress: (loaded, total) => progress.push([loaded, total]) });
    expect(file.name).toBe('ridge survey.txt');
    expect(file.type).toBe('text/plain');
    expect((await bytesOf(file)).equals(content)).toBe(true);
    expect(progress[0]).toEqual([0, content.length]);
    expect(progress.at(-1)).toEqual([content.length, content.length]);

    // Handed to the normal upload path, into the current folder.
    await actions.uploadFiles(vaultId, folderId, [{ file }]);
    await client.syncNow();
    const [imported] = await getChildren(db, userId, vaultId, folderId);
    expect(imported).toMatchObject({ kind: 'file', name: 'ridge survey.txt', mimeType: 'text/plain', size: content.length, pendingOpIds: [] });
    expect((await bytesOf(await downloadFileVersion(client.context, vaultId, imported!.id))).equals(content)).toBe(true);

    // The import is the vault's own permanent copy: relayed under its own data item (docs/decisions.md).
    const ids = await commit(vaultId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    const served = await fetch(`${gateway.url}/${ids.find((id) => id !== dataItemId)}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(content)).toBe(true);
  }, 120_000);

  it('an id the network does not know is not found, and nothing is fetched for a malformed one', async () => {
    expect((await failureOf(fetchTransactionFile(UNKNOWN_ID, { fetch: serverFetch() }))).reason).toBe('notFound');
    let requests = 0;
    const counting: FetchLike = (input, init) => {
      requests += 1;
      return serverFetch()(input, init);
    };
    expect((await failureOf(fetchTransactionFile(dataItemId.slice(0, 42), { fetch: counting }))).reason).toBe('failed');
    expect(requests).toBe(0);
  });

  it('a cancel during the transfer and a lost network stop the import', async () => {
    const controller = new AbortController();
    const cancelled = fetchTransactionFile(dataItemId, { fetch: serverFetch(), signal: controller.signal, onProgress: () => controller.abort() });
    expect((await failureOf(cancelled)).reason).toBe('cancelled');
    const offline: FetchLike = () => Promise.reject(new TypeError('Failed to fetch'));
    expect((await failureOf(fetchTransactionFile(dataItemId, { fetch: offline }))).reason).toBe('offline');
  });

  it('a gateway outage fails the import', async () => {
    await gateway.stop();
    const error = await failureOf(fetchTransactionFile(dataItemId, { fetch: serverFetch() }));
    expect(error.reason).toBe('failed');
    expect(error.code).toBe('INTERNAL');
  });
});
