/**
 * `npm run bench:sync` (and the second half of `npm run bench`): the local-first figures. It
 * prints measurements, never fails on a slow machine, and marks a missed goal GOAL MISSED.
 *
 *  1. Realtime fan-out: 1,000 WebSocket clients (100 accounts, 10 sockets each, every account a
 *     member of one vault) stay connected to a real server process while the owner pushes 100
 *     operations; each socket's poke latency (push sent → poke received) is recorded.
 *  2. Offline drain: a device queues 1,000 operations while offline (folders and renames in a
 *     private vault, each sealed and signed), then comes back online; the time until its outbox
 *     is empty. The device runs Cairn's own sync code (SyncClient, the crypto worker's API, the
 *     outbox) in Node over real HTTP, with fake-indexeddb standing in for the browser's IndexedDB.
 *
 * Environment: BENCH_SOCKETS (default 1000), BENCH_QUEUED (default 1000), BENCH_DATABASE_URL
 * (a PostgreSQL database to run the server on instead of SQLite).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import WebSocket from 'ws';
import { ApiClient } from '../../server/testing/ApiClient';
import { newSession } from '../../server/testing/flows';
import { httpApp } from '../../server/testing/httpApp';
import { startServerProcess, type ServerProcess } from '../../server/testing/serverProcess';
import { TestUser } from '../../server/testing/TestUser';
import { expectAccepted, insertMembership, newId, sealed, VaultActor } from '../../server/testing/vaults';
import { openDatabase } from '../../server/db/openDatabase';
import { createApiClient, type FetchLike } from '../../src/platform/apiClient';
import { CairnDb } from '../../src/storage/db';
import { setCurrentSync } from '../../src/sync/currentSync';
import { SyncClient } from '../../src/sync/SyncClient';
import * as actions from '../../src/sync/vaultActions';
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../workers/transfer/createTransferApi';
import { BenchReport, fmt, percentile } from './report';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const SOCKETS_PER_ACCOUNT = 10;
const PUSHES = 100;
const QUEUED = Number(process.env.BENCH_QUEUED ?? 1000);
const report = new BenchReport('bench:sync');
const { log, record } = report;

async function newAccount(api: ApiClient, dataDir: string): Promise<VaultActor> {
  const user = await TestUser.create();
  const session = await newSession(api, dataDir, user);
  return new VaultActor(api, user, session.token, session.user.id);
}

/** 1. Poke delivery to SOCKETS sockets. */
async function realtimeFanout(server: ServerProcess, dataDir: string, databaseUrl: string | null): Promise<void> {
  const api = new ApiClient(httpApp(server.url));
  const accounts = Math.max(1, Math.ceil(SOCKETS / SOCKETS_PER_ACCOUNT));
  log(`creating ${accounts} accounts`);
  const owner = await newAccount(api, dataDir);
  const members: VaultActor[] = [owner];
  while (members.length < accounts) members.push(await newAccount(api, dataDir));
  const vaultId = await owner.createVault();
  const { db } = openDatabase({ databaseUrl, sqlitePath: join(dataDir, 'cairn.sqlite') });
  for (const member of members.slice(1)) await insertMembership(db, vaultId, member.userId, 'VIEWER');
  await db.destroy();

  log(`opening ${SOCKETS} sockets`);
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let unexpected = 0;
  const sockets: WebSocket[] = [];
  const openedAt = performance.now();
  await Promise.all(
    Array.from({ length: SOCKETS }, (_, i) => {
      const member = members[i % members.length]!;
      const socket = new WebSocket(`${server.wsUrl}?token=${member.token}`);
      sockets.push(socket);
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as { type: string; seq?: number };
        if (message.type !== 'poke') return;
        const start = sentAt.get(message.seq ?? -1);
        if (start === undefined) unexpected += 1;
        else latencies.push(performance.now() - start);
      });
      return new Promise<void>((resolve, reject) => {
        socket.once('message', () => resolve());
        socket.once('error', reject);
      });
    }),
  );
  record(`${fmt(SOCKETS)} sockets connected (hello received)`, `${fmt((performance.now() - openedAt) / 1000, 2)} s`);

  log(`owner pushes ${PUSHES} operations, one every 50 ms`);
  let seq = 1;
  for (let i = 0; i < PUSHES; i++) {
    const op = await owner.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() });
    sentAt.set(seq + 1, performance.now());
    const accepted = expectAccepted((await owner.push(op))[0]);
    if (accepted !== seq + 1) throw new Error(`Expected seq ${seq + 1}, got ${accepted}`);
    seq = accepted;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const expected = PUSHES * SOCKETS;
  const deadline = performance.now() + 10_000;
  while (latencies.length < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const socket of sockets) socket.close();
  latencies.sort((a, b) => a - b);
  const p99 = percentile(latencies, 99);
  record(
    `poke delivery to ${fmt(SOCKETS)} sockets (${fmt(PUSHES)} pushes)`,
    `p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ${fmt(p99, 1)} ms, max ${fmt(latencies.at(-1) ?? Number.NaN, 1)} ms; ` +
      `${fmt(latencies.length)} of ${fmt(expected)} delivered${unexpected ? `, ${unexpected} unexpected` : ''}  ` +
      (p99 < 200 && latencies.length === expected ? 'goal met (p99 < 200 ms, every poke delivered)' : 'GOAL MISSED (p99 < 200 ms, every poke delivered)'),
  );
}

/** 2. QUEUED operations queued offline, then drained. */
async function offlineDrain(server: ServerProcess, dataDir: string): Promise<void> {
  const api = new ApiClient(httpApp(server.url));
  const user = await TestUser.create();
  const session = await newSession(api, dataDir, user);
  let online = true;
  let requests = 0;
  const fetchLike = (async (input: string | URL | Request, init: RequestInit = {}) => {
    if (!online) throw new TypeError('Failed to fetch');
    requests += 1;
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${session.token}`);
    return fetch(`${server.url}${String(input)}`, { ...init, headers });
  }) as typeof fetch;
  const crypto = createCryptoApi();
  await crypto.loadPendingWallet(user.phrase.split(' '));
  await crypto.activatePendingWallet();
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  const client = new SyncClient(
    { db, crypto, api: createApiClient({ fetch: fetchLike as FetchLike }), transfer: createTransferApi({ fetch: fetchLike }), log: () => {} },
    { pollIntervalMs: 0 },
  );
  client.start(session.user.id, { id: session.user.id, publicSigningKey: user.publicSigningKey, address: user.address });
  setCurrentSync(client);
  try {
    const vaultId = await actions.createVault({ title: 'Drain', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    await client.syncNow();

    online = false;
    log(`queueing ${QUEUED} operations offline`);
    const queueTimes: number[] = [];
    const folders: string[] = [];
    for (let i = 0; i < QUEUED; i++) {
      const started = performance.now();
      if (i % 5 === 4 && folders.length) await actions.renameNode(vaultId, folders[i % folders.length]!, `Renamed ${i}`);
      else folders.push(await actions.createFolder(vaultId, folders.length && i % 3 === 0 ? folders[folders.length - 1]! : null, `Folder ${i}`));
      queueTimes.push(performance.now() - started);
    }
    const waiting = await db.outbox.count();
    queueTimes.sort((a, b) => a - b);
    record(`queue ${fmt(QUEUED)} operations offline (seal, sign, outbox, projection)`, `p50 ${fmt(percentile(queueTimes, 50), 1)} ms, p99 ${fmt(percentile(queueTimes, 99), 1)} ms each; ${fmt(waiting)} waiting`);

    log('back online: draining');
    online = true;
    requests = 0;
    const started = performance.now();
    while ((await db.outbox.count()) > 0) await client.syncNow();
    const seconds = (performance.now() - started) / 1000;
    const vault = await db.vaults.get([session.user.id, vaultId]);
    record(
      `drain ${fmt(waiting)} queued operations after reconnect`,
      `${fmt(seconds, 2)} s (${fmt(waiting / seconds)} ops/s, ${requests} requests; server head seq ${vault?.headSeq})  ` +
        (seconds <= 30 ? 'goal met (≤ 30 s)' : 'GOAL MISSED (≤ 30 s)'),
    );
  } finally {
    client.stop();
    setCurrentSync(null);
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-sync-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
  const server = await startServerProcess({ dataDir, databaseUrl, env: { LOG_LEVEL: 'warn' } });
  log(`server on ${server.url} (${databaseUrl ? 'PostgreSQL' : 'SQLite'})`);
  try {
    await realtimeFanout(server, dataDir, databaseUrl);
    await offlineDrain(server, dataDir);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  report.print('Cairn bench: sync (issue 4)');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
