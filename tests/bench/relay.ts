/**
 * `npm run bench:relay` (and part of `npm run bench`): the permanent relay in flat memory (issue
 * 18). A permanent version goes through the real ArweaveRelay (signed into a data item, bundled,
 * its transaction posted in chunks, mined, confirmed) and the relay process's memory is watched:
 * peak RSS, and the peak growth of RSS, V8 heap and buffer memory above the baseline taken before
 * the relay starts. Each run is a process of its own, so one run's memory is not the next one's:
 *
 *  1. to arlocal, BENCH_RELAY_ARLOCAL_MIB (default 16) MiB, the item read back byte for byte;
 *  2. to the checking gateway (tests/bench/relayGateway.mjs), 64 MiB and BENCH_RELAY_MIB (default
 *     1024) MiB: flat memory means the same growth for both. That gateway checks what a node
 *     checks (transaction signature, each chunk's proof against data_root, order) and writes the
 *     data to a file, where the bench then verifies the bundle's item signature (arbundles) and
 *     its bytes against the version.
 *
 * Why not arlocal for the large run: arlocal's /chunk route scans every stored chunk on each post
 * and a background loop re-reads all chunks of the bundle until it is complete (quadratic: 16 MiB
 * take over a minute, 256 MiB would take hours); it then rebuilds the whole bundle in one buffer
 * and keeps each item's data as one base64 string (no item over about 380 MiB: V8's longest
 * string). arlocal runs in its own process either way, and its peak RSS is printed apart.
 *
 * The version is written straight to the blob store and its rows straight to the database: the
 * upload path is not what is measured, and 1 GiB through the HTTP test client would be in memory.
 * BENCH_RELAY_RUN=arlocal:16 (or checking:1024) runs one configuration in this process.
 */
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processStream } from 'arbundles';
import { sql } from 'kysely';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { ArweaveRelay } from '../../server/arweave/ArweaveRelay';
import { arweaveFor as arweaveFor } from '../../server/arweave/arweaveClient';
import { freePort } from '../../server/arweave/embeddedArlocal';
import { loadOrCreateWallet, readWallet } from '../../server/arweave/wallet';
import { scheduledRow } from '../../server/arweave/storageTransactionRows';
import { chunkKey } from '../../server/blobs/BlobStore';
import { DiskBlobStore } from '../../server/blobs/DiskBlobStore';
import { migrateToLatest } from '../../server/db/migrate';
import { openDatabase } from '../../server/db/openDatabase';
import { systemClock } from '../../server/services/Clock';
import { TestGateway } from '../../server/testing/arlocal';
import { BenchReport, fmt } from './report';

const MiB = 1024 * 1024;
const SIZE_MIB = Number(process.env.BENCH_RELAY_MIB ?? 1024);
const ARLOCAL_MIB = Number(process.env.BENCH_RELAY_ARLOCAL_MIB ?? 16);
const CHUNK_BYTES = 8 * MiB;
const PIECE_BYTES = MiB;


/** Deterministic bytes for chunk `index` (AES-CTR keystream): the same on every read, never in memory whole. */
function* chunkPieces(key: Buffer, index: number, size: number): Generator<Buffer> {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(index, 0);
  const cipher = crypto.createCipheriv('aes-256-ctr', key, iv);
  const zeros = Buffer.alloc(PIECE_BYTES);
  for (let at = 0; at < size; at += PIECE_BYTES) yield cipher.update(zeros.subarray(0, Math.min(PIECE_BYTES, size - at)));
}

/** Samples this process's memory often enough to catch a whole-file buffer (it lives for seconds). */
class MemoryWatch {
  private timer: NodeJS.Timeout | null = null;
  readonly baseline = process.memoryUsage();
  peak = { rss: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };

  start(): void {
    this.timer = setInterval(() => this.sample(), 20);
  }

  sample(): void {
    const now = process.memoryUsage();
    for (const key of ['rss', 'heapUsed', 'external', 'arrayBuffers'] as const) this.peak[key] = Math.max(this.peak[key], now[key]);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.sample();
  }
}

/** Peak RSS of a process in bytes (VmHWM), or NaN off Linux. */
function peakRss(pid: number | 'self'): number {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
    return line ? Number(line[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

type GatewayKind = 'arlocal' | 'checking';

interface BenchGateway {
  url: string;
  pid: number;
  walletFile: string;
  mine(): Promise<void>;
  stop(): Promise<void>;
}

/** The checking gateway in a child process, writing what it receives to `dataFile`. */
async function startCheckingGateway(dir: string, dataFile: string): Promise<BenchGateway> {
  const port = await freePort();
  const main = path.join(path.dirname(fileURLToPath(import.meta.url)), 'relayGateway.mjs');
  const child = spawn(process.execPath, [main, String(port), dataFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (data: Buffer) => data.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`The checking gateway exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const walletFile = path.join(dir, 'arweave-wallet.json');
  await loadOrCreateWallet(walletFile, arweaveFor(url));
  return {
    url,
    pid: child.pid!,
    walletFile,
    mine: async () => void (await fetch(`${url}/mine`)),
    stop: async () => {
      child.kill('SIGKILL');
    },
  };
}

async function startArlocal(dir: string): Promise<BenchGateway> {
  const gateway = new TestGateway(dir);
  await gateway.start();
  return {
    url: gateway.url,
    pid: Number(execFileSync('pgrep', ['-n', '-P', String(process.pid)]).toString().trim()),
    walletFile: gateway.walletFile,
    mine: () => gateway.mine(),
    stop: () => gateway.stop(),
  };
}

async function runOne(kind: GatewayKind, sizeMib: number): Promise<void> {
  const report = new BenchReport(`relay ${kind} ${sizeMib} MiB`);
  const { log, record } = report;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-relay-'));
  const dataFile = path.join(dir, 'received-bundle');
  const gateway = kind === 'arlocal' ? await startArlocal(dir) : await startCheckingGateway(dir, dataFile);
  const { db } = openDatabase({ databaseUrl: null, sqlitePath: path.join(dir, 'cairn.sqlite') });
  try {
    await migrateToLatest(db);
    // Rows without their vault, user and blob parents: only the relay's tables matter here.
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
    const wallet = readWallet(gateway.walletFile);
    const blobStore = new DiskBlobStore(path.join(dir, 'blobs'));

    log(`writing a ${sizeMib} MiB version to the blob store`);
    const size = sizeMib * MiB;
    const key = crypto.randomBytes(32);
    const blobId = `bench${crypto.randomBytes(8).toString('hex')}`;
    for (let index = 0, at = 0; at < size; index += 1, at += CHUNK_BYTES) {
      const chunkSize = Math.min(CHUNK_BYTES, size - at);
      const hash = crypto.createHash('sha256');
      for (const piece of chunkPieces(key, index, chunkSize)) hash.update(piece);
      const sha256 = hash.digest('hex');
      await (await blobStore.stage(chunkKey(blobId, index, sha256), chunkPieces(key, index, chunkSize), chunkSize)).commit();
      await db.insertInto('blob_chunks').values({ blob_id: blobId, idx: index, size: chunkSize, sha256 }).execute();
    }
    const now = Date.now();
    await db
      .insertInto('storage_transactions')
      .values(
        scheduledRow({
          id: 'bench',
          vault_id: 'bench',
          file_id: 'bench',
          version_id: 'bench',
          blob_id: blobId,
          uploader_user_id: 'bench',
          size,
          created_at: now,
        }),
      )
      .execute();
    const status = async () => (await db.selectFrom('storage_transactions').selectAll().where('id', '=', 'bench').executeTakeFirstOrThrow());

    const relay = new ArweaveRelay({
      db,
      blobStore,
      arweave: arweaveFor(gateway.url),
      wallet,
      clock: systemClock,
      log: pino({ level: 'warn' }) as unknown as FastifyBaseLogger,
      options: { intervalMs: 200, backoffBaseMs: 200, backoffMaxMs: 2_000 },
    });

    (globalThis as { gc?: () => void }).gc?.();
    const watch = new MemoryWatch();
    watch.start();
    const started = performance.now();
    log('bundling (sign, data_root, bundle file)');
    await relay.runOnce(['bundle']);
    const bundledAt = performance.now();
    let row = await status();
    if (row.status !== 'BUNDLED') throw new Error(`After bundling: ${row.status}`);
    log('posting the transaction and its chunks');
    // A gateway error backs off (R36): the bench retries at once, a few times, as the loop would later.
    for (let attempt = 0; row.status === 'BUNDLED' && attempt < 5; attempt += 1) {
      await db.updateTable('storage_transactions').set({ next_attempt_at: 0 }).where('id', '=', 'bench').execute();
      await relay.runOnce(['post']);
      row = await status();
    }
    const postedAt = performance.now();
    if (row.status !== 'PENDING') throw new Error(`After posting: ${row.status} (attempts ${row.attempts})`);
    log('mining until COMMITTED');
    for (let round = 0; row.status !== 'COMMITTED'; round += 1) {
      if (round > 600) throw new Error(`Not committed: ${row.status}`);
      await gateway.mine().catch(() => undefined);
      await db.updateTable('storage_transactions').set({ next_attempt_at: 0 }).where('id', '=', 'bench').execute();
      await relay.runOnce(['post', 'poll']);
      row = await status();
      if (row.status !== 'COMMITTED') await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const committedAt = performance.now();
    watch.stop();

    record('version size', `${fmt(sizeMib)} MiB (${fmt(Number(row.size))} bytes)`);
    record('bundle: sign + data_root + bundle file', `${fmt((bundledAt - started) / 1000, 1)} s (${fmt(sizeMib / ((bundledAt - started) / 1000), 0)} MiB/s)`);
    record('post: transaction + chunks', `${fmt((postedAt - bundledAt) / 1000, 1)} s (${fmt(sizeMib / ((postedAt - bundledAt) / 1000), 0)} MiB/s)`);
    record('mine until COMMITTED', `${fmt((committedAt - postedAt) / 1000, 1)} s`);
    record('relay process: baseline RSS', `${fmt(watch.baseline.rss / MiB)} MiB`);
    record('relay process: peak RSS (sampled / VmHWM)', `${fmt(watch.peak.rss / MiB)} MiB / ${fmt(peakRss('self') / MiB)} MiB`);
    record('relay process: peak RSS growth', `${fmt((watch.peak.rss - watch.baseline.rss) / MiB)} MiB`);
    record('relay process: peak V8 heap growth', `${fmt((watch.peak.heapUsed - watch.baseline.heapUsed) / MiB)} MiB`);
    record('relay process: peak buffer memory growth', `${fmt((watch.peak.arrayBuffers - watch.baseline.arrayBuffers) / MiB)} MiB`);
    record(`${kind} gateway process (not the relay): peak RSS`, `${fmt(peakRss(gateway.pid) / MiB)} MiB`);

    const expected = crypto.createHash('sha256');
    for (let index = 0, at = 0; at < size; index += 1, at += CHUNK_BYTES) for (const piece of chunkPieces(key, index, Math.min(CHUNK_BYTES, size - at))) expected.update(piece);
    const expectedHash = expected.digest('hex');
    let servedHash: string;
    if (kind === 'arlocal') {
      log('reading the item back from arlocal');
      const response = await fetch(`${gateway.url}/${row.data_item_id}`);
      const hash = crypto.createHash('sha256');
      for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) hash.update(piece);
      servedHash = hash.digest('hex');
    } else {
      log('verifying the bundle the gateway received (arbundles processStream: every item signature)');
      const [item] = await processStream(fs.createReadStream(dataFile, { highWaterMark: MiB }));
      if (!item || item.id !== row.data_item_id) throw new Error('The received bundle does not hold the item');
      const hash = crypto.createHash('sha256');
      for await (const piece of fs.createReadStream(dataFile, { start: item.dataOffset, end: item.dataOffset + item.dataSize - 1, highWaterMark: MiB })) hash.update(piece as Buffer);
      servedHash = hash.digest('hex');
    }
    const same = servedHash === expectedHash;
    if (kind === 'arlocal') record('item read back from arlocal', same ? 'byte for byte the version' : 'DIFFERENT');
    else record('item in the bundle the gateway received', same ? 'signature valid, byte for byte the version' : 'DIFFERENT');
    if (!same) process.exitCode = 1;
    report.print(`Permanent relay to ${kind === 'arlocal' ? 'arlocal' : 'the checking gateway'}, ${fmt(sizeMib)} MiB`);
  } finally {
    await gateway.stop();
    await db.destroy();
    if (!process.env.BENCH_KEEP) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Each configuration in a child process of its own (BENCH_RELAY_RUN), one after the other. */
async function main(): Promise<void> {
  const only = process.env.BENCH_RELAY_RUN;
  if (only) {
    const [kind, mib] = only.split(':');
    if (kind !== 'arlocal' && kind !== 'checking') throw new Error(`BENCH_RELAY_RUN=${only}: arlocal:<MiB> or checking:<MiB>`);
    return runOne(kind, Number(mib));
  }
  const runs = [`arlocal:${ARLOCAL_MIB}`, 'checking:64', `checking:${SIZE_MIB}`];
  for (const run of runs) {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, BENCH_RELAY_RUN: run } });
      child.once('exit', resolve);
    });
    if (code !== 0) process.exitCode = 1;
  }
}

await main();
