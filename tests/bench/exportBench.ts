/**
 * `npm run bench:export`: memory while a vault is exported both ways (issue 19, SYNC_SPEC R87,
 * R88). It prints figures and never fails on a slow machine; a memory that grows with the vault is
 * marked GOAL MISSED.
 *
 * The built app (`npm start`) in Debian's Chromium with a profile on disk: a new user creates a
 * private cloud vault and uploads random files of BENCH_FILE_MIB (default 256) through the UI
 * until the vault holds BENCH_SMALL_MIB (default 256), exports it ('Export vault', then 'Export
 * encrypted'), uploads more until it holds BENCH_LARGE_MIB (default 2048) and exports it again.
 * During each export the page's main-thread JS heap (CDP Performance.getMetrics) and the RSS of
 * Chromium's processes (/proc, renderer apart) are sampled every 100 ms: start, peak, end. Flat
 * memory means the peaks of the large vault are those of the small one, not eight times more.
 * Each export also prints the ArrayBuffers each isolate held at its highest (CDP Runtime.getHeapUsage's
 * backingStorageSize: the page, the service worker, the transfer workers), which RSS counts and the
 * JS heap does not: that is how the service worker's late-collected chunks were found.
 *
 * Both exports go through the service worker's download stream (the save picker is turned off:
 * headless Chromium cannot answer it), saved by the browser to a temp dir, checked for size and
 * deleted. BENCH_KEEP=1 keeps the temp dir, BENCH_HEADED=1 shows the browser.
 */
import { randomFillSync } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { freePort } from '../../server/testing/serverProcess';
import { type AppServer, createPrivateCloudVault, launchProfileOnDisk, outboxCount, poll, row, signUpAndLogIn, startAppServer, storeRecords } from './appSession';
import { BenchReport, fmt } from './report';
import { describeIsolates, IsolateProbe, noIsolateFigures, type IsolateFigures } from './isolateProbe';

const MiB = 1024 * 1024;
const FILE_MIB = Number(process.env.BENCH_FILE_MIB ?? 256);
const SMALL_MIB = Number(process.env.BENCH_SMALL_MIB ?? 256);
const LARGE_MIB = Number(process.env.BENCH_LARGE_MIB ?? 2048);
const report = new BenchReport('bench:export');
const { log, record } = report;
const mib = (bytes: number) => `${fmt(bytes / MiB)} MiB`;

/** Every process's parent and RSS (bytes), from /proc. */
function processTable(): Map<number, { parent: number; rss: number; kind: string }> {
  const table = new Map<number, { parent: number; rss: number; kind: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split(/[\0 ]/);
      const kind = args.find((a) => a.startsWith('--type='))?.slice(7) ?? 'other';
      table.set(Number(entry), { parent: Number(fields[1]), rss: Number(fields[21]) * 4096, kind });
    } catch {
      /* exited */
    }
  }
  return table;
}

/** RSS of Chromium's processes (under this process, not under the server), in all and of the renderers. */
function chromiumRss(serverPid: number): { total: number; renderer: number } {
  const table = processTable();
  let total = 0;
  let renderer = 0;
  for (const [pid, entry] of table) {
    if (pid === process.pid) continue;
    let isOurs = false;
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = table.get(p)?.parent) {
      if (p === serverPid) break;
      if (p === process.pid) {
        isOurs = true;
        break;
      }
    }
    if (!isOurs || entry.kind === 'other') continue;
    total += entry.rss;
    if (entry.kind === 'renderer') renderer += entry.rss;
  }
  return { total, renderer };
}


interface Sample {
  heap: number;
  rss: number;
  renderer: number;
}

/** Samples the page's JS heap and Chromium's RSS every 100 ms between start and stop. */
class MemorySampler {
  private timer: ReturnType<typeof setInterval> | null = null;
  private busy = false;
  first: Sample | null = null;
  last: Sample | null = null;
  peak: Sample = { heap: 0, rss: 0, renderer: 0 };

  constructor(
    private readonly cdp: CDPSession,
    private readonly serverPid: number,
    private readonly probe: IsolateProbe,
  ) {}

  /** The highest of each isolate figure during the export. */
  isolatePeak: IsolateFigures = noIsolateFigures();

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const { metrics } = (await this.cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
      const { total, renderer } = chromiumRss(this.serverPid);
      const isolates = await this.probe.figures();
      for (const key of Object.keys(isolates) as (keyof IsolateFigures)[]) this.isolatePeak[key] = Math.max(this.isolatePeak[key], isolates[key]);
      const sample = { heap, rss: total, renderer };
      this.first ??= sample;
      this.last = sample;
      this.all.push({ at: performance.now(), sample });
      const start = this.all[0]!.at;
      const middleAt = (start + performance.now()) / 2;
      this.middle = this.all.reduce((best, s) => (Math.abs(s.at - middleAt) < Math.abs(best.at - middleAt) ? s : best)).sample;
      this.peak = { heap: Math.max(this.peak.heap, heap), rss: Math.max(this.peak.rss, total), renderer: Math.max(this.peak.renderer, renderer) };
    } catch {
      /* page busy */
    } finally {
      this.busy = false;
    }
  }

  async start(): Promise<void> {
    await this.sample();
    this.timer = setInterval(() => void this.sample(), 100);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    while (this.busy) await new Promise((resolve) => setTimeout(resolve, 20));
    await this.sample();
    // What stays after a full GC: garbage not yet collected is not memory the export holds.
    await this.probe.collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const { metrics } = (await this.cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    const { total, renderer } = chromiumRss(this.serverPid);
    this.afterGc = { heap: metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0, rss: total, renderer };
  }

  /** Halfway through the export (by time): the sample nearest the middle. */
  middle: Sample | null = null;
  afterGc: Sample | null = null;
  private readonly all: { at: number; sample: Sample }[] = [];

  describe(): string {
    const line = (s: Sample | null) => (s ? `heap ${mib(s.heap)}, renderer RSS ${mib(s.renderer)}, Chromium RSS ${mib(s.rss)}` : 'n/a');
    const isolates = this.isolatePeak;
    return `start: ${line(this.first)}; halfway: ${line(this.middle)}; peak: ${line(this.peak)}; end: ${line(this.last)}; after a GC: ${line(this.afterGc)}; peak ArrayBuffers held: ${describeIsolates(isolates, mib)}`;
  }
}

function writeRandomFile(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  const piece = Buffer.alloc(16 * MiB);
  for (let written = 0; written < bytes; written += piece.length) {
    const part = piece.subarray(0, Math.min(piece.length, bytes - written));
    randomFillSync(part);
    writeSync(fd, part);
  }
  closeSync(fd);
}

/** Uploads `count` new random files of FILE_MIB through the UI and waits until they are on the server. */
async function uploadFiles(page: Page, dir: string, first: number, count: number): Promise<void> {
  for (let i = first; i < first + count; i++) {
    const path = join(dir, `field-data-${String(i).padStart(2, '0')}.bin`);
    writeRandomFile(path, FILE_MIB * MiB);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Add an asset' }).click();
    await page.getByRole('menuitem', { name: 'Upload file' }).click();
    await (await chooser).setFiles(path);
    const dialog = page.getByRole('dialog', { name: /^Upload \d+ files?$/ });
    await dialog.getByText(/^Available: /).waitFor();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const name = `field-data-${String(i).padStart(2, '0')}.bin`;
    await poll(
      `the upload of ${name} to be done`,
      async () => {
        const upload = (await storeRecords<{ name: string; state: string }>(page, 'uploads')).find((r) => r.name === name);
        if (upload?.state === 'failed' || upload?.state === 'cancelled') throw new Error(`The upload of ${name} ended ${upload.state}`);
        return upload?.state === 'done';
      },
      900_000,
      1_000,
    );
    await poll('the file operation to be pushed', () => outboxCount(page).then((n) => n === 0), 120_000, 200);
    rmSync(path, { force: true });
    log(`uploaded file ${i} (${FILE_MIB} MiB)`);
  }
}

/** One export from the vault's menu, sampled; answers the saved zip's size. */
async function measureExport(page: Page, cdp: CDPSession, serverPid: number, vaultName: string, entry: 'Export vault' | 'Export encrypted', vaultMib: number): Promise<void> {
  await page.evaluate(() => void ((window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker = undefined));
  if (process.env.BENCH_DEBUG) log(JSON.stringify((await storeRecords<Record<string, unknown>>(page, 'nodes')).map((n) => [n.name, n.status, n.parentId, n.latestVersionId, n.kind])));
  await cdp.send('HeapProfiler.collectGarbage').catch(() => undefined);
  const sampler = new MemorySampler(cdp, serverPid, new IsolateProbe(cdp));
  await sampler.start();
  const started = performance.now();
  const downloading = page.waitForEvent('download', { timeout: 1_800_000 });
  await page.getByRole('button', { name: `Actions for ${vaultName}` }).click();
  await page.getByRole('menuitem', { name: entry, exact: true }).click();
  const download = await downloading;
  const path = await download.path();
  const seconds = (performance.now() - started) / 1000;
  await sampler.stop();
  const failure = await download.failure();
  const size = path ? statSync(path).size : 0;
  const alerts = await page.getByRole('alert').allTextContents();
  if (alerts.length) log(`the page says: ${alerts.join(' | ')}`);
  log(`saved from ${download.url().slice(0, 60)}`);
  if (size < vaultMib * MiB) throw new Error(`The ${entry} zip holds ${mib(size)}, less than the vault's ${fmt(vaultMib)} MiB`);
  record(
    `${entry}, vault of ${fmt(vaultMib)} MiB`,
    `${failure ? `FAILED (${failure})` : `${mib(size)} zip`} in ${fmt(seconds, 1)} s (${fmt(size / MiB / seconds)} MiB/s); ${sampler.describe()}`,
  );
  peaks.push({ entry, vaultMib, sample: sampler.peak, first: sampler.first });
  await download.delete().catch(() => undefined);
}

const peaks: { entry: string; vaultMib: number; sample: Sample; first: Sample | null }[] = [];

async function main(server: AppServer, context: BrowserContext, dataDir: string, filesDir: string): Promise<void> {
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  const email = `bench.export.${Date.now().toString(36)}@example.com`;
  log(`signing up ${email}`);
  await signUpAndLogIn(page, server.baseUrl, dataDir, email);
  const vaultName = 'Export vault bench';
  const vaultId = await createPrivateCloudVault(page, server.baseUrl, vaultName);
  const vaultUrl = `${server.baseUrl}/vaults/active/${vaultId}/assets`;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const serverPid = server.child.pid ?? -1;

  const smallCount = Math.max(1, Math.round(SMALL_MIB / FILE_MIB));
  const largeCount = Math.max(smallCount, Math.round(LARGE_MIB / FILE_MIB));
  for (const [from, to] of [
    [0, smallCount],
    [smallCount, largeCount],
  ] as const) {
    await uploadFiles(page, filesDir, from + 1, to - from);
    // Under the service worker, as a user's download is from the load after it activated.
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await page.goto(vaultUrl);
    await page.getByRole('status', { name: /Synced/ }).filter({ visible: true }).first().waitFor({ timeout: 120_000 });
    // The list shows the newest file: the device's projection is loaded (as a user sees it before exporting).
    await row(page, `field-data-${String(to).padStart(2, '0')}.bin`).waitFor({ timeout: 60_000 });
    const vaultMib = to * FILE_MIB;
    for (const entry of ['Export vault', 'Export encrypted'] as const) {
      log(`${entry}: vault of ${vaultMib} MiB`);
      await measureExport(page, cdp, serverPid, vaultName, entry, vaultMib);
    }
  }

  for (const entry of ['Export vault', 'Export encrypted']) {
    const [small, large] = peaks.filter((p) => p.entry === entry);
    if (!small?.first || !large?.first) continue;
    // Each export's peak over its own start (the one before it may have left garbage behind).
    const rise = (p: typeof small, key: keyof Sample) => p.sample[key] - p.first![key];
    const ratio = (large.vaultMib / small.vaultMib).toFixed(0);
    const isFlat = rise(large, 'rss') < 2 * Math.max(rise(small, 'rss'), 64 * MiB) && rise(large, 'heap') < 64 * MiB;
    record(
      `${entry}: peak over start, ${fmt(small.vaultMib)} → ${fmt(large.vaultMib)} MiB (${ratio}× the vault)`,
      `JS heap +${mib(rise(small, 'heap'))} → +${mib(rise(large, 'heap'))}; renderer RSS +${mib(rise(small, 'renderer'))} → +${mib(rise(large, 'renderer'))}; Chromium RSS +${mib(rise(small, 'rss'))} → +${mib(rise(large, 'rss'))}  ${isFlat ? '(flat: not ' + ratio + '× more)' : 'GOAL MISSED (grows with the vault)'}`,
    );
  }
}

const tempDir = mkdtempSync(join(tmpdir(), 'cairn-bench-export-'));
const dataDir = join(tempDir, 'data');
let exitCode = 0;
let server: AppServer | null = null;
let context: BrowserContext | null = null;
try {
  const port = await freePort();
  log(`starting the server on port ${port} (building dist/ if stale)...`);
  server = await startAppServer(port, dataDir, { CLOUD_STORAGE_BYTES: String((LARGE_MIB + 512) * MiB) });
  context = await launchProfileOnDisk(join(tempDir, 'profile'), {
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
    downloadsPath: join(tempDir, 'downloads'),
  });
  context.setDefaultTimeout(30_000);
  await main(server, context, dataDir, tempDir);
} catch (error) {
  exitCode = 1;
  console.error('\nThe bench stopped early:', error instanceof Error ? (error.stack ?? error.message) : error);
} finally {
  report.print('Cairn bench: vault export memory (issue 19)');
  await context?.close().catch(() => undefined);
  await server?.stop();
  if (process.env.BENCH_KEEP === '1') console.log(`Kept ${tempDir}`);
  else rmSync(tempDir, { recursive: true, force: true });
}
process.exit(exitCode);
