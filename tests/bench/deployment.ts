/**
 * `npm run bench:deployment` (and the last part of `npm run bench`): the load figure of issue 20.
 * A real deployment (server/testing/deployment.ts: Debian's nginx terminating TLS in front of
 * Cairn processes on one PostgreSQL database, one s3rver bucket and one arlocal gateway) with one
 * process, then with two, under three loads through nginx over https:
 *
 *  1. pulls: a device catching up on a vault of PULL_OPS operations from the start
 *     (GET /api/vaults/:vaultId/ops?after=0&limit=1000, as src/sync/pull.ts asks);
 *  2. operation pushes: one signed folder.create per POST /api/vaults/ops, spread over the
 *     accounts' vaults;
 *  3. chunk PUTs: PUT /api/vaults/:vaultId/blobs/:blobId/chunks/0 of CHUNK_BYTES each, every one
 *     the only chunk of a blob announced beforehand (a file of that size, as the app uploads it).
 *
 * It prints requests per second, p50 and p99 for each, side by side. It is a measurement, not a
 * test: it fails only when it cannot run.
 *
 * The load client (tests/bench/loadClient.ts) is plain node:https (autocannon is not installed and
 * nothing is added): a keep-alive Agent trusting the deployment's self-signed certificate keeps
 * BENCH_CONCURRENCY requests in flight, in a worker thread of its own, apart from the s3rver that
 * runs on this process's main thread. Everything the client would compute is done before a phase (accounts,
 * vaults and their operations, operations signed and serialised, blobs announced), so the load
 * client's own CPU is spent on TLS and sockets, not on signing, while it shares the cores with
 * nginx, the processes, PostgreSQL and s3rver. Each phase first runs WARMUP_SECONDS unrecorded
 * (connections opened, the JIT warm), then BENCH_SECONDS recorded. Only 2xx answers count as
 * successes and have their latency recorded (and a push only when its operation was accepted:
 * the answer is 200 either way); others are counted as errors by status or refusal.
 *
 * Rate limits: none of the three routes is limited; sign-up and log-in are (per address, and all
 * accounts come from 127.0.0.1), and the deployment's processes run with AUTH_RATE_LIMIT=1000
 * (startServerProcess's test setting), so setting up ACCOUNTS accounts is not refused.
 *
 * Interrupted (Ctrl-C), it stops the deployment and drops its database. tsx kills a process that
 * has not taken the signal within 30 ms, so on a very busy machine a Ctrl-C can still leave a
 * database cairn_deployment_<pid>_* and a directory /tmp/cairn-deployment-* behind;
 * `node --import tsx tests/bench/deployment.ts` runs it without that.
 *
 * Environment: BENCH_DATABASE_URL (a PostgreSQL whose user may create databases; each deployment
 * creates its own database and drops it at the end; unset: a throwaway cluster of Debian's
 * PostgreSQL, started for the bench and removed after it), BENCH_SECONDS per phase (default 10), BENCH_CONCURRENCY (default 32).
 */
import { randomBytes } from 'node:crypto';
import https from 'node:https';
import os from 'node:os';
import { ApiClient } from '../../server/testing/ApiClient';
import { Deployment } from '../../server/testing/deployment';
import { expectStatus, newSession } from '../../server/testing/flows';
import { httpApp } from '../../server/testing/httpApp';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../server/testing/throwawayPostgres';
import { TestUser } from '../../server/testing/TestUser';
import { expectAccepted, newId, sealed, sha256Hex, VaultActor } from '../../server/testing/vaults';
import { type Operation, PullResponse, PushResponse, VAULT_LIMITS } from '../../src/protocol/vaults';
import { type LoadPlan, type LoadRequest, type PhaseResult, runLoad, send } from './loadClient';
import { BenchReport, fmt } from './report';

let databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
const SECONDS = positive('BENCH_SECONDS', 10);
const CONCURRENCY = positive('BENCH_CONCURRENCY', 32);
const WARMUP_SECONDS = 1;
/** Accounts, each owning one private vault; the loads go round them. */
const ACCOUNTS = 16;
/** Operations in each vault before the pulls: vault.create and folders. */
const PULL_OPS = 200;
const CHUNK_BYTES = 256 * 1024;
/**
 * Requests prepared for a phase, per second of it (warm-up included): more than these loads reach
 * on a small machine. Should a phase use them all up, it ends early and says so; its rate is still
 * what was measured over the time it ran.
 */
const PUSHES_PER_SECOND = 2_000;
const CHUNKS_PER_SECOND = 400;

const report = new BenchReport('bench:deployment');
const { log, record } = report;
/**
 * Stops the deployment running now, once however often it is called: by the phase's `finally`, and
 * by an interruption, which may come while the other stop is under way.
 */
let stopRunning: (() => Promise<void>) | null = null;

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let nextIndex = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      // Interrupted: no more requests to a deployment that is stopping.
      while (nextIndex < items.length && !interrupted) {
        const index = nextIndex++;
        await work(items[index]!, index);
      }
    }),
  );
  if (interrupted) throw new Error('Interrupted');
}

/** An account and its vault, made through one process directly (its DATA_DIR holds the mail). */
interface Owner {
  actor: VaultActor;
  vaultId: string;
}

async function setUpOwners(deployment: Deployment): Promise<Owner[]> {
  const first = deployment.processes[0]!;
  const api = new ApiClient(httpApp(first.server.url));
  const owners: Owner[] = [];
  await inParallel(Array.from({ length: ACCOUNTS }), 4, async () => {
    const user = await TestUser.create();
    const session = await newSession(api, first.dataDir, user);
    const actor = new VaultActor(api, user, session.token, session.user.id);
    const vaultId = await actor.createVault();
    const folders: Operation[] = [];
    for (let i = 1; i < PULL_OPS; i++) folders.push(await actor.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }));
    for (let i = 0; i < folders.length; i += VAULT_LIMITS.PUSH_BATCH_MAX) {
      const response = await actor.pushRaw(folders.slice(i, i + VAULT_LIMITS.PUSH_BATCH_MAX));
      expectStatus(response, 200);
      for (const result of PushResponse.parse(response.body).results) expectAccepted(result);
    }
    owners.push({ actor, vaultId });
  });
  return owners;
}

async function measure(processes: 1 | 2): Promise<Map<string, PhaseResult>> {
  log(`starting nginx and ${processes} process${processes === 1 ? '' : 'es'} on PostgreSQL, s3rver and arlocal`);
  const deployment = await Deployment.start({ processes, adminDatabaseUrl: databaseUrl });
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= deployment.stop());
  stopRunning = stop;
  const phase = (requests: LoadRequest[], order: LoadPlan['order']) =>
    runLoad({ url: deployment.url, certificate: deployment.certificate, concurrency: CONCURRENCY, warmupSeconds: WARMUP_SECONDS, seconds: SECONDS, requests, order });
  const results = new Map<string, PhaseResult>();
  const keep = (name: string, result: PhaseResult) => {
    results.set(name, result);
    const errors = [...result.errors].map(([status, count]) => `${fmt(count)} × ${status}`).join(', ');
    record(
      `${processes} process${processes === 1 ? '' : 'es'}, ${name}`,
      `${fmt(result.successes / result.seconds)} rps (${fmt(result.successes)} in ${fmt(result.seconds, 1)} s), p50 ${fmt(result.p50Ms, 1)} ms, p99 ${fmt(result.p99Ms, 1)} ms` +
        `; load ${fmt(result.load, 1)}${errors ? `; errors: ${errors}` : ''}${result.exhausted ? '; PREPARED REQUESTS USED UP (the phase ended early)' : ''}`,
    );
  };
  try {
    log(`setting up ${ACCOUNTS} accounts, each with a private vault of ${PULL_OPS} operations (through ${deployment.processes[0]!.upstream})`);
    const owners = await setUpOwners(deployment);
    const auth = (owner: Owner) => ({ authorization: `Bearer ${owner.actor.token}` });

    // 1. Pulls: the same catch-up over and over, round the vaults; one is read first, to be sure
    // they answer the whole vault through nginx.
    const pullPath = (owner: Owner) => `/api/vaults/${owner.vaultId}/ops?after=0&limit=${VAULT_LIMITS.PULL_PAGE_MAX}`;
    const pulls: LoadRequest[] = owners.map((owner) => ({ method: 'GET', path: pullPath(owner), headers: auth(owner) }));
    const agent = new https.Agent({ ca: deployment.certificate });
    const wrongPull = await send(agent, new URL(deployment.url), pulls[0]!, (body) => {
      const page = PullResponse.parse(JSON.parse(body));
      return page.ops.length === PULL_OPS && !page.hasMore ? null : `${page.ops.length} operations`;
    });
    agent.destroy();
    if (wrongPull !== null) throw new Error(`A pull through nginx did not answer the vault's ${PULL_OPS} operations: ${wrongPull}`);
    log(`pulls: ${CONCURRENCY} in flight for ${SECONDS} s`);
    keep('pulls', await phase(pulls, 'cycle'));

    // 2. Pushes: signed and serialised before the phase.
    const pushCount = Math.ceil((SECONDS + WARMUP_SECONDS) * PUSHES_PER_SECOND);
    log(`signing ${fmt(pushCount)} operations`);
    const pushes: LoadRequest[] = [];
    for (let i = 0; i < pushCount; i++) {
      // Signing never waits on I/O: let signals through now and then (see the file's comment).
      if (i % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
      const owner = owners[i % owners.length]!;
      const op = await owner.actor.sign(owner.vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() });
      pushes.push({ method: 'POST', path: '/api/vaults/ops', headers: { ...auth(owner), 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ ops: [op] })), check: 'push' });
    }
    log(`operation pushes: ${CONCURRENCY} in flight for ${SECONDS} s`);
    keep('pushes', await phase(pushes, 'once'));

    // 3. Chunk PUTs: one-chunk blobs announced before the phase; the same bytes for each (the
    // server hashes every body anyway, and stores it under its blob).
    const chunkCount = Math.ceil((SECONDS + WARMUP_SECONDS) * CHUNKS_PER_SECOND);
    const chunk = randomBytes(CHUNK_BYTES);
    const chunkSha256 = sha256Hex(chunk);
    log(`announcing ${fmt(chunkCount)} blobs of ${CHUNK_BYTES / 1024} KiB`);
    const puts: LoadRequest[] = Array.from({ length: chunkCount });
    await inParallel(puts, 16, async (_, i) => {
      const owner = owners[i % owners.length]!;
      const blobId = newId();
      expectStatus(await owner.actor.announce(owner.vaultId, blobId, CHUNK_BYTES, 1), 200);
      puts[i] = {
        method: 'PUT',
        path: `/api/vaults/${owner.vaultId}/blobs/${blobId}/chunks/0`,
        headers: { ...auth(owner), 'content-type': 'application/octet-stream', 'x-chunk-sha256': chunkSha256 },
        body: chunk,
      };
    });
    log(`chunk PUTs: ${CONCURRENCY} in flight for ${SECONDS} s`);
    keep('chunks', await phase(puts, 'once'));
  } finally {
    await stop();
    stopRunning = null;
  }
  return results;
}

function table(one: Map<string, PhaseResult>, two: Map<string, PhaseResult>): void {
  const phases: [string, string][] = [
    ['pulls', `pulls (${PULL_OPS} operations from seq 0)`],
    ['pushes', 'operation pushes (1 signed op each)'],
    ['chunks', `chunk PUTs (${CHUNK_BYTES / 1024} KiB each)`],
  ];
  const cells = (result: PhaseResult | undefined) =>
    result ? [fmt(result.successes / result.seconds), `${fmt(result.p50Ms, 1)} ms`, `${fmt(result.p99Ms, 1)} ms`] : ['-', '-', '-'];
  const rows = [
    ['phase', '1 process rps', 'p50', 'p99', '2 processes rps', 'p50', 'p99', 'errors 1 / 2'],
    ...phases.map(([key, label]) => {
      const errors = (result: PhaseResult | undefined) => (result ? fmt([...result.errors.values()].reduce((a, b) => a + b, 0)) : '-');
      return [label, ...cells(one.get(key)), ...cells(two.get(key)), `${errors(one.get(key))} / ${errors(two.get(key))}`];
    }),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | '));
  const title = '================ Cairn bench: one process against two behind nginx (issue 20) ================';
  console.log(`\n${title}`);
  console.log(lines[0]);
  console.log(lines[0]!.replace(/[^|]/g, '-'));
  for (const line of lines.slice(1)) console.log(line);
  const loads = [...one.values(), ...two.values()].map((result) => result.load);
  console.log(
    `\n${os.cpus().length} CPU cores; nginx (TLS, 1 worker), the Cairn processes, PostgreSQL, s3rver, arlocal and this load client all share them.\n` +
      `1-minute load average at the end of the phases: ${fmt(Math.min(...loads), 1)} to ${fmt(Math.max(...loads), 1)} (it counts everything runnable on the machine, the bench too: compare runs only at similar figures).\n` +
      `Through nginx over https, ${CONCURRENCY} requests in flight, ${SECONDS} s per phase after ${WARMUP_SECONDS} s of warm-up; ${ACCOUNTS} accounts, each with one private vault. ` +
      'rps counts 2xx answers only; p50 and p99 are of those.',
  );
  console.log('='.repeat(title.length));
}

let cluster: ThrowawayPostgres | null = null;

async function main(): Promise<void> {
  if (!databaseUrl) {
    cluster = await startThrowawayPostgres();
    databaseUrl = cluster.url;
    log(`a throwaway PostgreSQL cluster at ${databaseUrl}`);
  }
  try {
    const one = await measure(1);
    const two = await measure(2);
    table(one, two);
  } finally {
    cluster?.stop();
  }
}

// Interrupted: stop nginx, the processes, s3rver and arlocal, and drop the database, as on failure.
// A second signal (Ctrl-C reaches npx, tsx and this process at once) must not cut the first short.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping the deployment (its processes first finish the requests they have, which can take a minute)`);
    void (stopRunning?.() ?? Promise.resolve())
      .catch((error: unknown) => console.error(error))
      .finally(() => {
        cluster?.stop();
        process.exit(1);
      });
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
