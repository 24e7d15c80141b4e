/**
 * `npm run bench`: the speed figures of issue 3 (a measurement that prints figures, not a timed
 * test; it exits 0 when a goal is missed and prints GOAL MISSED next to it).
 *
 * Starts the real server (scripts/start.mjs, which builds dist/ when stale) on a free port with a
 * temporary DATA_DIR, drives Debian's Chromium through playwright-core as a new user would (sign
 * up, verify, log in, create a private cloud vault through the wizard) and measures:
 *  1. the WebCrypto AES-256-GCM baseline on the page's main thread (256 MiB in 4 MiB chunks);
 *  2. upload of a 256 MiB file through the UI, and 3. its download (byte-identical check),
 *     streamed through the service worker (the page is reloaded once it is active);
 *  4. peak memory during both (and each isolate's ArrayBuffers), and the same work with no app:
 *     a bare page sealing and PUTting, a bare service worker fetching, checking, opening and
 *     saving (tests/bench/browserCeiling.ts, tests/bench/swDownloadCeiling.ts);
 *  5. a folder of 10,000 files (seeded through the API with the client's crypto): first render,
 *     scrolling, and the first sync into a fresh browser profile;
 *  6. that vault's timeline (10,000+ operations): first render, every page loaded, scrolling.
 *  7. on-device search (tests/bench/search.ts, in Node): index build over 100,000 names and
 *     per-keystroke query time.
 *
 * Environment: BENCH_SIZE_MIB (default 256; the server's cloud allowance grows to fit), BENCH_FILES (default 10000), BENCH_KEEP=1 keeps the
 * temp dir, BENCH_HEADED=1 shows the browser, BENCH_NO_SW=1 blocks the service worker (downloads
 * then take the Blob fallback), BENCH_ONLY=timeline runs steps 5 and 6 only: the vault is seeded
 * and pulled, the folder measured (the known-smooth list: a control for how loaded the machine
 * is), then the timeline; the search, the 256 MiB transfers and the fresh profile are skipped.
 * BENCH_ONLY=transfer runs only steps 1 to 4 (the baselines and the large file's transfers).
 * BENCH_ONLY=sync seeds the folder and measures only the fresh device's first sync (with
 * BENCH_FILES=100000, issue 25's very large vault).
 * BENCH_ONLY=pick runs only the pick of many small files (BENCH_PICK_FILES of them, default 1000).
 * BENCH_THREADS=n lists the n threads that used the most CPU in a transfer (default 10).
 * BENCH_SERVER_PROFILE=dir has the server write a V8 CPU profile of its whole run there.
 * BENCH_PROFILE=memory gives the user's browser no profile on disk (a private window's storage).
 */
import { createHash, randomBytes, randomFillSync } from 'node:crypto';
import { createReadStream, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync, closeSync, appendFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { freePort } from '../../server/testing/serverProcess';
import { type AppServer, createPrivateCloudVault, launchProfileOnDisk, logIn, outboxCount, poll, ROOT, row, signUpAndLogIn, startAppServer, storeRecords } from './appSession';
import { browserCeiling } from './browserCeiling';
import { swDownloadCeiling, type MemoryProbe } from './swDownloadCeiling';
import { seedFolder, serverCeiling } from './seed';
import { flingToBottom } from './scrollFling';
import { benchTimeline, startProfile, stopProfile } from './timelineBench';
import { benchSearch, searchBenchRows } from './search';
import { indexedDbCeiling } from './idbCeiling';
import { describeIsolates, IsolateProbe, noIsolateFigures, type IsolateFigures } from './isolateProbe';
import { CHROMIUM_FLAGS } from '../chromiumFlags';

const MiB = 1024 * 1024;
const SIZE_MIB = Number(process.env.BENCH_SIZE_MIB ?? 256);
const FILE_COUNT = Number(process.env.BENCH_FILES ?? 10_000);
/** Files of one pick, uploaded through the dialog (BENCH_PICK_FILES). */
const PICK_FILES = Number(process.env.BENCH_PICK_FILES ?? 1_000);
if (process.env.BENCH_ONLY && !['timeline', 'pick', 'transfer', 'sync'].includes(process.env.BENCH_ONLY)) throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY}: only 'timeline', 'pick', 'transfer' and 'sync' are known`);
/** BENCH_ONLY=timeline: seed the vault, measure its folder and its timeline, nothing else (a quick loop for timeline work). */
const TIMELINE_ONLY = process.env.BENCH_ONLY === 'timeline';
/** BENCH_ONLY=pick: sign up and measure one pick of PICK_FILES small files, nothing else. */
const PICK_ONLY = process.env.BENCH_ONLY === 'pick';
/** BENCH_ONLY=transfer: the baselines, then the large file's upload and download, nothing else. */
const TRANSFER_ONLY = process.env.BENCH_ONLY === 'transfer';
/** BENCH_ONLY=sync: seed the vault (the user's page closed, so it pulls nothing), then a fresh device's first sync, nothing else. */
const SYNC_ONLY = process.env.BENCH_ONLY === 'sync';
const VIEWPORT = { width: 1280, height: 800 };
/** Issue 3's goal for the first sync of a 10,000-item vault into a fresh device. */
const FIRST_SYNC_GOAL_S = 10;

// --- results -------------------------------------------------------------------------------------

interface Row {
  label: string;
  value: string;
  note?: string;
}
const rows: Row[] = [];
/**
 * Issue 25's goals: each with the figure measured when the issue was filed (before), this run's,
 * and whether it is met (null: not judged in this run, as for a smaller vault than the goal's).
 */
const issue25: { what: string; before: string; now: string; goal: string; met: boolean | null }[] = [];
function goal25(what: string, before: string, now: string, goal: string, met: boolean | null) {
  issue25.push({ what, before, now, goal, met });
}
const problems: string[] = [];
function record(label: string, value: string, note?: string) {
  rows.push({ label, value, ...(note ? { note } : {}) });
  console.log(`  → ${label}: ${value}${note ? `  ${note}` : ''}`);
}
function log(text: string) {
  console.log(`[bench ${((performance.now() - T0) / 1000).toFixed(1)}s] ${text}`);
}
const T0 = performance.now();
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mib = (bytes: number) => `${fmt(bytes / MiB)} MiB`;

// --- process and temp dir cleanup ---------------------------------------------------------------

const tempDir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
const dataDir = join(tempDir, 'data');
let server: AppServer | null = null;
let browser: Browser | null = null;
/** The user's browser with its profile on disk (unless BENCH_PROFILE=memory), beside `browser`. */
let profileContext: BrowserContext | null = null;
let cleanedUp = false;

async function cleanup(): Promise<void> {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const closing of [profileContext, browser]) {
    try {
      await closing?.close();
    } catch {
      /* already gone */
    }
  }
  await server?.stop();
  if (process.env.BENCH_KEEP === '1') console.log(`Kept ${tempDir}`);
  else rmSync(tempDir, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

// --- helpers ------------------------------------------------------------------------------------


function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path, { highWaterMark: 4 * MiB })
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

/** Writes `bytes` random bytes to `path` and answers their SHA-256. */
function writeRandomFile(path: string, bytes: number): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'w');
  const piece = Buffer.alloc(16 * MiB);
  for (let written = 0; written < bytes; written += piece.length) {
    const part = piece.subarray(0, Math.min(piece.length, bytes - written));
    randomFillSync(part);
    hash.update(part);
    writeSync(fd, part);
  }
  closeSync(fd);
  return hash.digest('hex');
}

/** Clock ticks per second of /proc/{pid}/stat's CPU times (`getconf CLK_TCK`: 100 on Linux). */
const CLOCK_TICKS = 100;

/** Every process's parent and /proc/{pid}/stat fields after the command name. */
function processTable(): Map<number, { parent: number; fields: string[] }> {
  const table = new Map<number, { parent: number; fields: string[] }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), { parent: Number(fields[1]), fields });
    } catch {
      /* exited */
    }
  }
  return table;
}

/** The processes under `rootPid` (and `rootPid` itself when `withRoot`), leaving out the tree under `skipPid`. */
function processesUnder(table: ReturnType<typeof processTable>, rootPid: number, skipPid: number, withRoot = false): number[] {
  const found: number[] = [];
  for (const pid of table.keys()) {
    if (pid === rootPid && !withRoot) continue;
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = table.get(p)?.parent) {
      if (p === skipPid) break;
      if (p === rootPid) {
        found.push(pid);
        break;
      }
    }
  }
  return found;
}

/** `fields` [11] and [12]: user and system CPU ticks; [21]: RSS pages. */
const cpuOf = (fields: string[]) => (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;

/** CPU seconds (user and system) used so far by Chromium's processes and by the server's. */
function cpuSeconds(): { browser: number; server: number } {
  const table = processTable();
  const serverPid = server?.child.pid ?? -1;
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + cpuOf(table.get(pid)!.fields), 0);
  return { browser: sum(processesUnder(table, process.pid, serverPid)), server: serverPid > 0 ? sum(processesUnder(table, serverPid, -1, true)) : 0 };
}

/** The kind of a Chromium process by its command line: browser, renderer, network, gpu-process... */
function chromiumKind(pid: number): string {
  try {
    // Chromium rewrites its command line into one string joined by spaces.
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    const type = args.find((a) => a.startsWith('--type='))?.slice(7);
    if (!type) return 'browser';
    const sub = args.find((a) => a.startsWith('--utility-sub-type='))?.slice(19);
    return sub ? sub.replace(/\.mojom\..*$/, '').replace(/^.*\./, '') : type;
  } catch {
    return 'gone';
  }
}

/**
 * CPU seconds so far of the processes under `rootPid` (not under `skipPid`), by process kind
 * (`kindOf`) and thread name (CrRendererMain, DedicatedWorker, ThreadPoolForeg, libuv-worker...).
 */
function cpuByThread(rootPid: number, skipPid: number, kindOf: (pid: number) => string, withRoot = false): Map<string, number> {
  const table = processTable();
  const byKind = new Map<string, number>();
  for (const pid of processesUnder(table, rootPid, skipPid, withRoot)) {
    const kind = kindOf(pid);
    let threads: string[] = [];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      /* exited */
    }
    for (const tid of threads) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim().replace(/[\d:]+$/, '');
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const key = `${kind}/${name}`;
        byKind.set(key, (byKind.get(key) ?? 0) + cpuOf(stat.slice(stat.lastIndexOf(')') + 2).split(' ')));
      } catch {
        /* exited */
      }
    }
  }
  return byKind;
}

/** The command a server-side process runs (node script or program name), for cpuByThread. */
function serverKind(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const script = args.find((a) => /\.(m?js|ts)$/.test(a));
    return script ? script.replace(/^.*\//, '') : (args[0] ?? 'process').replace(/^.*\//, '');
  } catch {
    return 'gone';
  }
}

/**
 * A Chromium trace through a page's CDP session (Playwright's own tracing needs a launched browser,
 * and the user's context has a profile on disk): task events of every process and thread, with
 * where each task was posted from.
 */
async function startCdpTrace(cdp: CDPSession): Promise<{ stop(path: string): Promise<void> }> {
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: { includedCategories: ['toplevel', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'v8', 'blink', 'ServiceWorker', 'loading'] },
  });
  return {
    async stop(path) {
      const complete = new Promise<{ stream?: string }>((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      const { stream } = await complete;
      if (!stream) return;
      const parts: string[] = [];
      for (;;) {
        const read = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
        parts.push(read.base64Encoded ? Buffer.from(read.data, 'base64').toString('utf8') : read.data);
        if (read.eof) break;
      }
      await cdp.send('IO.close', { handle: stream });
      writeFileSync(path, parts.join(''));
      log(`trace written to ${path}`);
    },
  };
}

/** Browser and server CPU seconds so far, by process kind and thread. */
function cpuThreads(): Map<string, number> {
  const serverPid = server?.child.pid ?? -1;
  const threads = cpuByThread(process.pid, serverPid, (pid) => `chromium ${chromiumKind(pid)}`);
  if (serverPid > 0) for (const [key, seconds] of cpuByThread(serverPid, -1, (pid) => `server ${serverKind(pid)}`, true)) threads.set(key, seconds);
  return threads;
}

/** CPU seconds since `before` by process kind and thread, largest first. */
function cpuByKindSince(before: Map<string, number>): string {
  return [...cpuThreads()]
    .map(([kind, seconds]) => [kind, seconds - (before.get(kind) ?? 0)] as const)
    .filter(([, seconds]) => seconds >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(process.env.BENCH_THREADS ?? 10))
    .map(([kind, seconds]) => `${kind} ${fmt(seconds, 1)} s`)
    .join(', ');
}

/**
 * What a transfer of `mib` MiB cost in CPU time, and the rate that cost allows on this machine's
 * cores if nothing else ran: a bound that no scheduling or parallelism can beat.
 */
function cpuCost(before: { browser: number; server: number }, mib: number, goalMiBs: number): string {
  const after = cpuSeconds();
  const browser = after.browser - before.browser;
  const serverSide = after.server - before.server;
  const perMiB = ((browser + serverSide) * 1000) / mib;
  const cores = availableParallelism();
  return `browser ${fmt(browser, 1)} s + server ${fmt(serverSide, 1)} s = ${fmt(perMiB, 1)} CPU-ms per MiB; ${cores} cores fully used allow at most ${fmt((cores * 1000) / perMiB)} MiB/s; the goal's ${fmt(goalMiBs)} MiB/s would keep ${fmt((goalMiBs * perMiB) / 1000, 1)} cores busy`;
}

/** Samples the page's main-thread JS heap (CDP) and the browser tree's RSS until stopped. */
class MemorySampler {
  private timer: ReturnType<typeof setInterval> | null = null;
  private busy = false;
  peakHeap = 0;
  peakRss = 0;
  startHeap = 0;
  startRss = 0;
  /** The peak sample's RSS by Chromium process kind (browser, renderer, gpu-process...). */
  peakByKind = new Map<string, number>();
  private startByKind = new Map<string, number>();
  /** Browser RSS samples over the transfer, for the growth of its first and second half. */
  private readonly samples: { at: number; rss: number }[] = [];

  /** The most each isolate held in ArrayBuffers (and the service worker in its JS heap) at once. */
  private readonly isolatePeak = noIsolateFigures();
  /** Browser RSS once the transfer ended and every isolate collected its garbage. */
  private afterGcRss = 0;
  private readonly probe: IsolateProbe;

  constructor(
    private readonly cdp: CDPSession,
    private readonly browserPid: number | undefined,
  ) {
    this.probe = new IsolateProbe(cdp);
  }

  private async heap(): Promise<number> {
    const { metrics } = (await this.cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
    return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  }

  private rssByKind(): Map<string, number> {
    const byKind = new Map<string, number>();
    if (!this.browserPid) return byKind;
    const table = processTable();
    // Under this process but not this process itself (nor the server): Chromium's processes.
    for (const pid of processesUnder(table, this.browserPid, server?.child.pid ?? -1)) {
      const kind = chromiumKind(pid);
      byKind.set(kind, (byKind.get(kind) ?? 0) + Number(table.get(pid)!.fields[21]) * 4096);
    }
    return byKind;
  }

  private async sample() {
    if (this.busy) return;
    this.busy = true;
    try {
      this.peakHeap = Math.max(this.peakHeap, await this.heap());
      const isolates = await this.probe.figures();
      for (const key of Object.keys(isolates) as (keyof IsolateFigures)[]) this.isolatePeak[key] = Math.max(this.isolatePeak[key], isolates[key]);
      const byKind = this.rssByKind();
      const rss = [...byKind.values()].reduce((a, b) => a + b, 0);
      this.samples.push({ at: performance.now(), rss });
      if (rss > this.peakRss) {
        this.peakRss = rss;
        this.peakByKind = byKind;
      }
    } catch {
      /* page busy or navigating */
    } finally {
      this.busy = false;
    }
  }

  async start() {
    // From a collected start: garbage left by earlier work would hide this work's growth.
    await this.probe.collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    this.startHeap = this.peakHeap = await this.heap();
    this.peakByKind = this.startByKind = this.rssByKind();
    this.startRss = this.peakRss = [...this.peakByKind.values()].reduce((a, b) => a + b, 0);
    this.samples.push({ at: performance.now(), rss: this.startRss });
    this.timer = setInterval(() => void this.sample(), 100);
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    while (this.busy) await new Promise((resolve) => setTimeout(resolve, 20));
    await this.sample();
    // What stays once every isolate collected: garbage not yet collected is not memory held.
    await this.probe.collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    this.afterGcRss = [...this.rssByKind().values()].reduce((a, b) => a + b, 0);
  }

  /** Growth of the browser's RSS peak over its start (after a full collection). */
  get grownBytes(): number {
    return this.peakRss - this.startRss;
  }

  /**
   * Peak browser RSS growth in the first and in the second half of the transfer. Memory that
   * grows with the file keeps growing in the second half; flat memory levels off in the first.
   */
  halves(): { first: number; second: number } {
    const start = this.samples[0]!.at;
    const middle = (start + this.samples.at(-1)!.at) / 2;
    const peakOf = (list: { rss: number }[]) => list.reduce((peak, s) => Math.max(peak, s.rss), 0);
    const firstPeak = peakOf(this.samples.filter((s) => s.at <= middle));
    return { first: firstPeak - this.startRss, second: peakOf(this.samples.filter((s) => s.at > middle)) - firstPeak };
  }

  /** One line: heap, RSS peak, its growth by half and the peak's split by process kind (with each kind's growth). */
  describe(): string {
    const { first, second } = this.halves();
    const grown = (kind: string, rss: number) => {
      const growth = rss - (this.startByKind.get(kind) ?? 0);
      return `${growth >= 0 ? '+' : ''}${mib(growth)}`;
    };
    const kinds = [...this.peakByKind].sort((a, b) => b[1] - a[1]).map(([kind, rss]) => `${kind} ${mib(rss)} (${grown(kind, rss)})`);
    return (
      `main-thread JS heap peak ${mib(this.peakHeap)} (start ${mib(this.startHeap)}); browser RSS peak ${mib(this.peakRss)} ` +
      `(start ${mib(this.startRss)}, +${mib(this.grownBytes)}: +${mib(first)} in the first half, ${second >= 0 ? '+' : ''}${mib(second)} in the second; at the peak ${kinds.join(', ')}); ` +
      `after the end and a full GC of every isolate +${mib(this.afterGcRss - this.startRss)}; peak ArrayBuffers held: ${describeIsolates(this.isolatePeak, mib)}`
    );
  }

  /** Flat: the second half adds under a quarter of the file (memory that holds the file adds about half). */
  isFlat(fileBytes: number): boolean {
    return this.halves().second < fileBytes / 4;
  }
}


async function uploadState(page: Page, name: string): Promise<{ state: string; sentBytes: number } | null> {
  const found = (await storeRecords<{ name: string; state: string; sentBytes: number }>(page, 'uploads')).find((r) => r.name === name);
  return found ? { state: found.state, sentBytes: found.sentBytes } : null;
}

/**
 * Times an upload in the page, as its user sees it: from the click on the dialog's Upload button
 * (a capturing listener) to the box saying every file is done, and when the box first shows
 * progress. A MutationObserver does the looking, so the timing costs the page nothing between
 * the box's own renders (polling from the bench runs on the page's main thread and is late by up
 * to its interval).
 */
async function watchUploadBox(page: Page): Promise<void> {
  await page.evaluate(() => {
    const times = { clickAt: 0, shownAt: 0, firstProgressAt: 0, doneAt: 0 };
    (window as unknown as { __benchUpload: typeof times }).__benchUpload = times;
    document.addEventListener(
      'click',
      (event) => {
        const button = (event.target as Element | null)?.closest('button');
        if (!times.clickAt && button?.textContent?.trim() === 'Upload') times.clickAt = performance.now();
      },
      { capture: true },
    );
    const observer = new MutationObserver(() => {
      const box = [...document.querySelectorAll('[role="status"]')].find((el) => el.querySelector('[aria-label="Upload progress"]'));
      if (!box) return;
      times.shownAt ||= performance.now();
      const text = box.textContent ?? '';
      if (!times.firstProgressAt && /[1-9]\d*%/.test(text)) times.firstProgressAt = performance.now();
      if (/(?<!\d)([1-9]\d*) of \1 files/.test(text)) {
        times.doneAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

interface UploadBoxTimes {
  /** The click on the dialog's Upload button. */
  clickAt: number;
  /** The box's first render: the upload is queued (after the spec's 500 ms confirm delay). */
  shownAt: number;
  firstProgressAt: number;
  /** The box says every file is done. */
  doneAt: number;
}

async function uploadBoxTimes(page: Page): Promise<UploadBoxTimes> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const times = await page.evaluate(() => (window as unknown as { __benchUpload: UploadBoxTimes }).__benchUpload);
    if (times.clickAt && times.firstProgressAt && times.doneAt) return times;
    if (Date.now() > deadline) throw new Error(`The upload box was not seen through: ${JSON.stringify(times)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The pull cursor of vault `vaultId` in the local projection (0 before its record exists). A
 * single small read, cheap enough to poll while a pull runs: polling `childCount` instead scans
 * every node each time, and that read-only transaction holds off the pull's own write
 * transactions (it made the measured first sync seconds slower than the sync itself).
 */
async function vaultCursor(page: Page, vaultId: string): Promise<number> {
  return (await storeRecords<{ vaultId: string; cursor: number }>(page, 'vaults')).find((v) => v.vaultId === vaultId)?.cursor ?? 0;
}

/** The server's head of vault `vaultId`: the cursor a device has once it pulled everything. */
async function serverHeadSeq(baseUrl: string, token: string, vaultId: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/vaults`, { headers: { authorization: `Bearer ${token}` } });
  const { vaults } = (await response.json()) as { vaults: Array<{ vaultId: string; headSeq: number }> };
  const headSeq = vaults.find((v) => v.vaultId === vaultId)?.headSeq;
  if (!headSeq) throw new Error(`No head for vault ${vaultId}`);
  return headSeq;
}

/** Polls the cursor of `vaultId` until it reaches `headSeq`, then checks the folder holds `count` active files. */
async function waitForPull(what: string, page: Page, vaultId: string, headSeq: number, folderId: string, count: number, timeoutMs: number) {
  await poll(what, () => vaultCursor(page, vaultId).then((cursor) => cursor >= headSeq).catch(() => false), timeoutMs, 100);
  const pulledAt = performance.now();
  const children = await childCount(page, folderId);
  if (children < count) throw new Error(`${what}: the cursor reached ${headSeq} but the folder holds ${children} of ${count} files`);
  return pulledAt;
}

/** Active children of `parentId` in the local projection. */
async function childCount(page: Page, parentId: string): Promise<number> {
  return (await storeRecords<{ parentId?: string | null; status?: string }>(page, 'nodes')).filter((n) => n.parentId === parentId && n.status === 'ACTIVE').length;
}

// --- in-page instrumentation ------------------------------------------------------------------

/** Installed before any app script: long tasks, and the time the first seeded row appears. */
const INIT_SCRIPT = `
(() => {
  // tsx (esbuild keepNames) wraps named functions in page.evaluate callbacks with __name().
  window.__name = window.__name || ((f) => f);
  window.__bench = { longTasks: [], longFrames: [], firstRowAt: null };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  // Long animation frames (over 50 ms) with where their time went: scripts (named), then style and layout.
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__bench.longFrames.push({
          start: e.startTime,
          duration: e.duration,
          styleAndLayout: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
          scripts: (e.scripts || []).map((s) => ({ what: (s.invoker || '?') + (s.sourceFunctionName ? ' ' + s.sourceFunctionName : ''), duration: s.duration })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {}
  const check = () => {
    if (window.__bench.firstRowAt !== null) return;
    for (const tr of document.querySelectorAll('tbody tr')) {
      if ((tr.textContent || '').includes('bench-0')) { window.__bench.firstRowAt = performance.now(); observer.disconnect(); return; }
    }
  };
  const observer = new MutationObserver(check);
  // Pages that show no folder rows (the timeline) stop the watch, so it does not weigh on what they measure.
  window.__bench.stopRowWatch = () => observer.disconnect();
  const start = () => observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  if (document.documentElement) start(); else document.addEventListener('DOMContentLoaded', start);
})();
`;

interface BenchWindow {
  __bench: { longTasks: Array<{ start: number; duration: number }>; firstRowAt: number | null };
}

// --- the benchmark ------------------------------------------------------------------------------

async function baseline(page: Page): Promise<{ encrypt: number[]; decrypt: number[] }> {
  return page.evaluate(async (sizeMiB) => {
    const CHUNK = 4 * 1024 * 1024;
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    for (let i = 0; i < (sizeMiB * 1024 * 1024) / CHUNK; i++) {
      const chunk = new Uint8Array(CHUNK);
      for (let at = 0; at < CHUNK; at += 65536) crypto.getRandomValues(chunk.subarray(at, at + 65536));
      chunks.push(chunk);
    }
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
    const encrypt: number[] = [];
    const decrypt: number[] = [];
    for (let round = 0; round < 5; round++) {
      const ivs = chunks.map(() => crypto.getRandomValues(new Uint8Array(12)));
      const sealed: ArrayBuffer[] = [];
      let t = performance.now();
      for (let i = 0; i < chunks.length; i++) sealed.push(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: ivs[i]! }, key, chunks[i]!));
      encrypt.push((sizeMiB * 1000) / (performance.now() - t));
      t = performance.now();
      for (let i = 0; i < sealed.length; i++) await crypto.subtle.decrypt({ name: 'AES-GCM', iv: ivs[i]! }, key, sealed[i]!);
      decrypt.push((sizeMiB * 1000) / (performance.now() - t));
    }
    return { encrypt, decrypt };
  }, SIZE_MIB);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function goal(ratio: number, min: number, aim: number): string {
  if (ratio < min) return `GOAL MISSED (needs ≥ ${min})`;
  return ratio >= aim ? `goal met (≥ ${min}; aim ${aim} reached)` : `goal met (≥ ${min}; aim ${aim} not reached)`;
}

async function main(): Promise<void> {
  log(`temp dir ${tempDir}`);
  // On-device search (issue 6): Node only, before the browser and the server start.
  if (!TIMELINE_ONLY && !PICK_ONLY && !TRANSFER_ONLY && !SYNC_ONLY) {
    log('search index: 100,000 names, then typing key by key...');
    for (const [label, value, note] of searchBenchRows(benchSearch())) record(label, value, note);
  }
  const port = await freePort();
  log(`starting the server on port ${port} (building dist/ if stale)...`);
  // The account's cloud allowance is the free plan's 1 GB unless the transfers need more
  // (BENCH_SIZE_MIB=2048 shows a 2 GiB file's memory): room for the big file, the seeded files
  // and the fresh profile's copy.
  const cloudBytes = Math.max(1_000_000_000, (SIZE_MIB + 512) * MiB);
  server = await startAppServer(port, dataDir, { CLOUD_STORAGE_BYTES: String(cloudBytes) });
  const baseUrl = server.baseUrl;
  log('server up');

  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: process.env.BENCH_HEADED !== '1' });
  // Chromium is a child of this process (as is the server, which MemorySampler leaves out).
  const browserPid = process.pid;
  const contextOptions = { viewport: VIEWPORT, acceptDownloads: true, ...(process.env.BENCH_NO_SW ? { serviceWorkers: 'block' as const } : {}) };
  // The user's context has a profile on disk, as an installed browser's does. BENCH_PROFILE=memory
  // gives it none, as a private window: IndexedDB and the origin private file system then live in
  // memory (a picked file is kept by reference rather than copied, one of about 1.6 GB or more is
  // refused, and the chunk spool costs more CPU).
  profileContext =
    process.env.BENCH_PROFILE !== 'memory'
      ? await launchProfileOnDisk(join(tempDir, 'profile'), contextOptions)
      : null;
  const context = profileContext ?? (await browser.newContext(contextOptions));
  context.setDefaultTimeout(30_000);
  await context.addInitScript(INIT_SCRIPT);
  const page = await context.newPage();
  // Diagnostics: BENCH_SERVER_LOG also keeps the page's and workers' console; BENCH_NO_SW blocks
  // the service worker to rule it out of the transfer path.
  if (process.env.BENCH_SERVER_LOG) page.on('console', (m) => appendFileSync(`${process.env.BENCH_SERVER_LOG}.console`, `${m.text()}\n`));
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`[page console] ${message.text().slice(0, 300)}`);
  });
  currentPage = page;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');

  const email = `bench.${Date.now().toString(36)}@example.com`;
  log(`signing up ${email}`);
  const words = await signUpAndLogIn(page, baseUrl, dataDir, email);
  log('creating a private cloud vault through the wizard');
  const vaultId = await createPrivateCloudVault(page, baseUrl, 'Bench vault');
  const vaultUrl = `${baseUrl}/vaults/active/${vaultId}/assets`;
  if (PICK_ONLY) {
    currentPage = page;
    log(`a pick of ${PICK_FILES} small files`);
    return benchPick(page, baseUrl, tempDir);
  }

  if (!TIMELINE_ONLY && !SYNC_ONLY) {
    // 1. Baseline --------------------------------------------------------------------------------
    log(`baseline: WebCrypto AES-256-GCM, ${SIZE_MIB} MiB in 4 MiB chunks, page main thread, 5 rounds (median)`);
    const base = await baseline(page);
    const baseEncrypt = median(base.encrypt);
    const baseDecrypt = median(base.decrypt);
    record(`baseline encrypt ${SIZE_MIB} MiB, 1 thread`, `${fmt(baseEncrypt)} MiB/s`, `(rounds: ${base.encrypt.map((v) => fmt(v)).join(', ')})`);
    record(`baseline decrypt ${SIZE_MIB} MiB, 1 thread`, `${fmt(baseDecrypt)} MiB/s`, `(rounds: ${base.decrypt.map((v) => fmt(v)).join(', ')})`);
    log('browser ceiling: 4 MiB PUTs and GETs to a bare Node server, no app code, no crypto');
    /** Chromium's memory while a no-app page works (the same sampler as the app's transfers). */
    const probeMemory: MemoryProbe = async (ceilingPage) => {
      const sampler = new MemorySampler(await ceilingPage.context().newCDPSession(ceilingPage), browserPid);
      await sampler.start();
      return {
        stop: async () => {
          await sampler.stop();
          return { grownBytes: sampler.grownBytes, describe: sampler.describe() };
        },
      };
    };
    const plain = await browserCeiling(browser!, Math.min(SIZE_MIB, 128), () => cpuSeconds().browser, { memory: probeMemory, probedMiB: SIZE_MIB });
    record(
      'browser ceiling, plain PUT (no app, no crypto)',
      `Blob body, 1 in flight ${fmt(plain.putBlobOneMiBs)} MiB/s`,
      `(how the app sends one file); 4 in flight ${fmt(plain.putBlobFourMiBs)}; ArrayBuffer bodies, 4 in flight ${fmt(plain.putBufferFourMiBs)}`,
    );
    record('browser ceiling, plain GET (no app, no crypto)', `${fmt(plain.getMiBs)} MiB/s`, '(4 in flight)');
    record(
      '  CPU time of the plain transfers',
      `PUT ${fmt(plain.putCpuMsPerMiB, 1)}, GET ${fmt(plain.getCpuMsPerMiB, 1)} CPU-ms per MiB (browser and bare server); ${availableParallelism()} cores fully used allow at most PUT ${fmt((availableParallelism() * 1000) / plain.putCpuMsPerMiB)}, GET ${fmt((availableParallelism() * 1000) / plain.getCpuMsPerMiB)} MiB/s`,
    );
    // The least an encrypted transfer can cost here: the cipher (its one-thread rate above) plus
    // moving the bytes, with no hashing, no server work and no app at all.
    const floorUp = 1000 / baseEncrypt + plain.putCpuMsPerMiB;
    const floorDown = 1000 / baseDecrypt + plain.getCpuMsPerMiB;
    const cores = availableParallelism();
    record(
      '  floor: AES-GCM + plain transfer',
      `upload ${fmt(floorUp, 1)} CPU-ms per MiB, so at most ${fmt((cores * 1000) / floorUp)} MiB/s on ${cores} cores (the goal: ${fmt(0.6 * baseEncrypt)}); download ${fmt(floorDown, 1)}, at most ${fmt((cores * 1000) / floorDown)} MiB/s (the goal: ${fmt(0.6 * baseDecrypt)})`,
    );
    record(
      'no-app encrypted transfer (AES-GCM + plain transfer, measured)',
      `upload ${fmt(plain.sealPutMiBs)} MiB/s = ${fmt(plain.sealPutMiBs / baseEncrypt, 2)} × encrypt baseline; download ${fmt(plain.getOpenMiBs)} MiB/s = ${fmt(plain.getOpenMiBs / baseDecrypt, 2)} × decrypt baseline`,
      `(8 MiB bodies, 4 in flight, no hashing, server or app; ${fmt(plain.sealPutCpuMsPerMiB, 1)} and ${fmt(plain.getOpenCpuMsPerMiB, 1)} CPU-ms per MiB; the goal is 0.6 ×)`,
    );
    await cdp.send('HeapProfiler.collectGarbage').catch(() => undefined);

    // 2. Upload ----------------------------------------------------------------------------------
    const fileName = `bench-${SIZE_MIB}MiB.bin`;
    const filePath = join(tempDir, fileName);
    log(`writing ${SIZE_MIB} MiB of random bytes to ${filePath}`);
    const fileHash = writeRandomFile(filePath, SIZE_MIB * MiB);

    await page.goto(vaultUrl);
    await page.getByRole('button', { name: 'Add an asset' }).waitFor();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Add an asset' }).click();
    await page.getByRole('menuitem', { name: 'Upload file' }).click();
    await (await chooser).setFiles(filePath);
    const dialog = page.getByRole('dialog', { name: /^Upload \d+ files?$/ });
    await dialog.getByText(/^Available: /).waitFor();
    const uploadMemory = new MemorySampler(cdp, browserPid);
    await uploadMemory.start();
    const uploadProfile = await startProfile(page);
    log('upload: confirm clicked');
    const uploadCpu = cpuSeconds();
    const uploadCpuKinds = cpuThreads();
    const uploadStart = performance.now();
    await watchUploadBox(page);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await poll('the upload to be done', async () => {
      const upload = await uploadState(page, fileName);
      if (upload?.state === 'failed' || upload?.state === 'cancelled') throw new Error(`The upload ended ${upload.state}`);
      return upload?.state === 'done';
      // Only to know when to stop: the page times the upload itself (watchUploadBox). Each look
      // opens the page's IndexedDB on its main thread, which the upload uses too.
    }, 600_000, 500);
    const uploadDone = performance.now();
    const box = await uploadBoxTimes(page);
    await stopProfile(uploadProfile, 'upload', log);
    const uploadCpuCost = cpuCost(uploadCpu, SIZE_MIB, 0.6 * baseEncrypt);
    const uploadCpuSplit = cpuByKindSince(uploadCpuKinds);
    await poll('the file operation to be pushed', () => outboxCount(page).then((n) => n === 0), 60_000);
    await row(page, fileName).waitFor({ timeout: 60_000 });
    const uploadVisible = performance.now();
    await uploadMemory.stop();
    // The upload's own time: from the box showing it queued to the box saying it is done. The
    // spec's 500 ms confirm delay before it is a pause of the dialog, printed apart.
    const uploadSeconds = (box.doneAt - box.shownAt) / 1000;
    const uploadRate = SIZE_MIB / uploadSeconds;
    const uploadRatio = uploadRate / baseEncrypt;
    record(
      `upload ${SIZE_MIB} MiB private`,
      `${fmt(uploadRate)} MiB/s (${fmt(uploadRatio, 2)} × WebCrypto encrypt baseline ${fmt(baseEncrypt)} MiB/s)`,
      goal(uploadRatio, 0.6, 1.0),
    );
    record(
      '  upload, queued → first progress in the box',
      `${fmt((box.firstProgressAt - box.shownAt) / 1000, 2)} s (a chunk counts once its PUT is answered and recorded); from there to done ${fmt(SIZE_MIB / ((box.doneAt - box.firstProgressAt) / 1000))} MiB/s`,
    );
    record(
      '  upload, click → done',
      `${fmt((box.doneAt - box.clickAt) / 1000, 2)} s (${fmt(SIZE_MIB / ((box.doneAt - box.clickAt) / 1000))} MiB/s), with the spec's 500 ms confirm delay (${fmt(box.shownAt - box.clickAt)} ms from the click to the box); as the bench's own clock saw it, ${fmt((uploadDone - uploadStart) / 1000, 2)} s (it looks at the queue every 500 ms)`,
    );
    record(
      `  upload, confirm → row shown and op pushed`,
      `${fmt((uploadVisible - uploadStart) / 1000, 2)} s (${fmt(SIZE_MIB / ((uploadVisible - uploadStart) / 1000))} MiB/s)`,
    );
    record('  CPU time of the upload', uploadCpuCost);
    const uploadVsNoApp = uploadRate / plain.sealPutMiBs;
    goal25(`encrypted upload of ${SIZE_MIB} MiB ÷ no-app encrypted PUT`, 'about 0.42-0.45', `${fmt(uploadVsNoApp, 2)} (${fmt(uploadRate)} ÷ ${fmt(plain.sealPutMiBs)} MiB/s)`, '0.8 or more', uploadVsNoApp >= 0.8);
    record('  CPU of the upload by process and thread', uploadCpuSplit);
    record('  memory during upload', uploadMemory.describe(), uploadMemory.isFlat(SIZE_MIB * MiB) ? '(flat)' : 'GOAL MISSED (grows with the file)');
    if (plain.sealPutMemory) {
      record(
        '  memory of the no-app encrypted PUT',
        `+${mib(plain.sealPutMemory.grownBytes)} over ${SIZE_MIB} MiB (the app: +${mib(uploadMemory.grownBytes)})`,
        `(${plain.sealPutMemory.describe})`,
      );
    }

    // 3. Download --------------------------------------------------------------------------------
    // Streamed through the service worker, as a user's download is once the service worker controls
    // the page (from the load after it activated); BENCH_NO_SW measures the Blob fallback instead.
    if (!process.env.BENCH_NO_SW) await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await page.goto(vaultUrl);
    await row(page, fileName).waitFor();
    const isControlled = await page.evaluate(() => navigator.serviceWorker?.controller != null);
    const downloadMemory = new MemorySampler(cdp, browserPid);
    await downloadMemory.start();
    const downloading = page.waitForEvent('download', { timeout: 600_000 });
    await page.getByRole('button', { name: `Actions for ${fileName}` }).click();
    const downloadCpu = cpuSeconds();
    const downloadCpuKinds = cpuThreads();
    // BENCH_TRACE_DOWNLOAD=file: a Chromium trace of the download (task events of every process and thread).
    // With BENCH_PROFILE=memory the trace is the whole browser's (the service worker runs in a
    // process of its own, which a page's session does not trace).
    const downloadTrace = process.env.BENCH_TRACE_DOWNLOAD ? await startCdpTrace(profileContext ? cdp : await browser.newBrowserCDPSession()) : null;
    const downloadProfile = await startProfile(page);
    const downloadStart = performance.now();
    await page.getByRole('menuitem', { name: 'Download', exact: true }).click();
    log('download: menu item clicked');
    const download = await downloading;
    const savedPath = await download.path();
    const downloadEnd = performance.now();
    if (downloadTrace) await downloadTrace.stop(process.env.BENCH_TRACE_DOWNLOAD!);
    await stopProfile(downloadProfile, 'download', log);
    const downloadCpuCost = cpuCost(downloadCpu, SIZE_MIB, 0.6 * baseDecrypt);
    const downloadCpuSplit = cpuByKindSince(downloadCpuKinds);
    await downloadMemory.stop();
    const downloadSeconds = (downloadEnd - downloadStart) / 1000;
    const downloadRate = SIZE_MIB / downloadSeconds;
    const downloadRatio = downloadRate / baseDecrypt;
    const savedHash = savedPath ? await sha256File(savedPath) : '';
    const identical = savedHash === fileHash;
    if (!identical) problems.push('the downloaded file differs from the uploaded one');
    record(
      `download ${SIZE_MIB} MiB private`,
      `${fmt(downloadRate)} MiB/s (${fmt(downloadRatio, 2)} × WebCrypto decrypt baseline ${fmt(baseDecrypt)} MiB/s)`,
      goal(downloadRatio, 0.6, 1.0),
    );
    record('  CPU time of the download', downloadCpuCost);
    record('  CPU of the download by process and thread', downloadCpuSplit);
    record('  download bytes identical (SHA-256)', identical ? 'yes' : 'NO — MISMATCH');
    const downloadVsNoApp = downloadRate / plain.getOpenMiBs;
    goal25(`encrypted download of ${SIZE_MIB} MiB ÷ no-app GET-and-open`, 'about 0.53', `${fmt(downloadVsNoApp, 2)} (${fmt(downloadRate)} ÷ ${fmt(plain.getOpenMiBs)} MiB/s)`, '0.8 or more', downloadVsNoApp >= 0.8);
    // The same work with no app: a bare service worker fetching, checking and opening the chunks.
    log('no-app service worker download: GET, SHA-256 and AES-GCM in a bare service worker, saved by the browser');
    const swCeiling = await swDownloadCeiling(browser!, SIZE_MIB, () => cpuSeconds().browser, probeMemory);
    const sameWork = downloadRate / swCeiling.miBs;
    record(
      'no-app service worker download (the same work, no app)',
      `${fmt(swCeiling.miBs)} MiB/s, ${fmt(swCeiling.cpuMsPerMiB, 1)} CPU-ms per MiB; browser RSS +${mib(swCeiling.grownBytes)}`,
      `(8 MiB bodies, 4 in flight: GET through a Blob, SHA-256 and AES-GCM on the service worker's thread, saved by the browser; memory: ${swCeiling.memory})`,
    );
    record(
      '  download ÷ the same work with no app',
      `${fmt(sameWork, 2)} (${fmt(downloadRate)} ÷ ${fmt(swCeiling.miBs)} MiB/s); memory +${mib(downloadMemory.grownBytes)} against +${mib(swCeiling.grownBytes)}`,
    );
    const grownUp = uploadMemory.grownBytes;
    const grownDown = downloadMemory.grownBytes;
    goal25(
      `memory while uploading and downloading ${SIZE_MIB} MiB`,
      '+111 to +231 MiB over 256 MiB',
      `+${mib(grownUp)} up, +${mib(grownDown)} down (browser RSS peak over its start)`,
      'under +150 MiB both ways',
      grownUp < 150 * MiB && grownDown < 150 * MiB,
    );
    // What a page with no app code does with the same work, in the same run (issue 25's "Done when").
    goal25(
      `  download ÷ the same work with no app (service worker: GET, SHA-256, AES-GCM, saved)`,
      'not measured',
      `${fmt(sameWork, 2)} (${fmt(downloadRate)} ÷ ${fmt(swCeiling.miBs)} MiB/s)`,
      '0.8 or more of what the browser allows for that work',
      sameWork >= 0.8,
    );
    goal25(
      '  memory of the same work with no app',
      'not measured',
      `${plain.sealPutMemory ? `+${mib(plain.sealPutMemory.grownBytes)} sealing and PUTting` : 'upload not probed'}, +${mib(swCeiling.grownBytes)} downloading through a bare service worker (${SIZE_MIB} MiB each)`,
      "the app's growth against the browser's own for that work",
      null,
    );
    // The browser saved the service worker's stream (its URL), or a blob: URL the page made.
    const isStreamed = download.url().includes('/download-stream/');
    if (!isStreamed && !process.env.BENCH_NO_SW) problems.push('the download did not go through the service worker stream');
    record(
      '  download path',
      isStreamed
        ? 'streamed to disk through the service worker'
        : `Blob assembled in the page (the fallback: ${isControlled ? 'the service worker did not take the download' : 'no service worker controls the page'})`,
    );
    const grows = !downloadMemory.isFlat(SIZE_MIB * MiB);
    record(
      '  memory during download',
      downloadMemory.describe(),
      grows
        ? isStreamed
          ? 'GOAL MISSED (grows with the file although streamed)'
          : '(grows with the file: whole file held as a Blob, the fallback)'
        : isStreamed
          ? '(flat: streamed to disk)'
          : undefined,
    );
    await download.delete().catch(() => undefined);
    rmSync(filePath, { force: true });
    if (TRANSFER_ONLY) return;
  }

  // 5. 10,000 files ------------------------------------------------------------------------------
  const cookies = await context.cookies(baseUrl);
  const token = cookies.find((c) => c.name === 'cairn_session')?.value;
  if (!token) throw new Error('No cairn_session cookie in the browser context');
  if (SYNC_ONLY) {
    // The user's own page would pull the seeded folder live, at the same time as the fresh device.
    await page.goto('about:blank');
  } else if (!TIMELINE_ONLY) {
    // At most 256 MiB: with the uploaded file it must fit the account's free 1 GB of cloud storage.
    const ceilingMiB = Math.min(SIZE_MIB, 256);
    const ceiling = await serverCeiling(baseUrl, token, vaultId, ceilingMiB, () => cpuSeconds().server);
    record(
      `server alone (Node client, no crypto, 4 in flight)`,
      `PUT ${fmt(ceiling.put)} MiB/s, GET ${fmt(ceiling.get)} MiB/s for ${ceilingMiB} MiB in 4 MiB chunks`,
    );
    record('  server CPU time alone', `PUT ${fmt(ceiling.putCpuMsPerMiB, 1)}, GET ${fmt(ceiling.getCpuMsPerMiB, 1)} CPU-ms per MiB`);
  }
  log(`seeding a folder of ${FILE_COUNT} files through the API (client crypto in Node)`);
  const seed = await seedFolder({ baseUrl, token, words, vaultId, folderName: 'bench-10k', fileCount: FILE_COUNT, log });
  record(`seed ${FILE_COUNT} files (API, not a UI figure)`, `blobs ${fmt(seed.blobSeconds, 1)} s, signed ops ${fmt(seed.opsSeconds, 1)} s`);
  const folderUrl = `${vaultUrl}/folders/${seed.folderId}`;

  const headSeq = await serverHeadSeq(baseUrl, token, vaultId);
  if (SYNC_ONLY) return benchFreshSync(browser!, baseUrl, email, vaultId, headSeq, seed.folderId, folderUrl);
  // The first profile learns of the ops by WebSocket and pulls them.
  log('waiting for the open profile to pull the seeded folder');
  const livePullStart = performance.now();
  const livePulled = await waitForPull('the open profile to pull every file', page, vaultId, headSeq, seed.folderId, FILE_COUNT, 300_000);
  record(`open profile: live pull of ${FILE_COUNT} pushed files into IndexedDB`, `${fmt((livePulled - livePullStart) / 1000, 2)} s`);

  // The folder of 10,000 files (also with BENCH_ONLY=timeline: a control for the timeline run under the same load).
  // First render, in-app: from the click on the folder in the vault room to the first file row.
  await page.goto(vaultUrl);
  await row(page, 'bench-10k').waitFor();
  await page.waitForTimeout(500);
  const inApp = await page.evaluate(async () => {
    const w = window as unknown as BenchWindow;
    const link = [...document.querySelectorAll('tbody tr a, tbody tr button, tbody tr [role="link"]')].find(
      (el) => (el.textContent ?? '').trim() === 'bench-10k',
    ) as HTMLElement | undefined;
    if (!link) return null;
    const tasksBefore = w.__bench.longTasks.length;
    const hasRow = () => [...document.querySelectorAll('tbody tr')].some((tr) => (tr.textContent ?? '').includes('bench-0'));
    const start = performance.now();
    const shown = new Promise<number>((resolve) => {
      const observer = new MutationObserver(() => {
        if (hasRow()) {
          observer.disconnect();
          resolve(performance.now());
        }
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    link.click();
    const rowAt = await Promise.race([shown, new Promise<number>((resolve) => setTimeout(() => resolve(-1), 30_000))]);
    // The frame that paints it.
    const paintAt = await new Promise<number>((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const tasks = w.__bench.longTasks.slice(tasksBefore);
    return {
      rowMs: rowAt < 0 ? -1 : rowAt - start,
      paintMs: paintAt - start,
      longTasks: tasks.length,
      longestTask: Math.max(0, ...tasks.map((t) => t.duration)),
      rowsInDom: document.querySelectorAll('tbody tr:not([aria-hidden])').length,
    };
  });
  if (!inApp || inApp.rowMs < 0) {
    record('first render of the 10,000-file folder (in-app click)', 'NOT MEASURED', '(no folder link found or no row within 30 s)');
  } else {
    record(
      `first render of the ${FILE_COUNT}-file folder (in-app click → first row)`,
      `${fmt(inApp.rowMs)} ms (next frame at ${fmt(inApp.paintMs)} ms); ${inApp.rowsInDom} rows in the DOM; long tasks ${inApp.longTasks}, longest ${fmt(inApp.longestTask)} ms`,
      inApp.rowMs < 200 ? 'goal met (< 200 ms)' : 'GOAL MISSED (needs < 200 ms)',
    );
  }

  // First render, full page load of the folder URL (app boot + unlock + list).
  await page.goto(folderUrl);
  await poll('the first seeded row after a reload', () => page.evaluate(() => (window as unknown as BenchWindow).__bench.firstRowAt), 60_000);
  const load = await page.evaluate(() => {
    const w = window as unknown as BenchWindow;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return { firstRowAt: w.__bench.firstRowAt!, domContentLoaded: nav?.domContentLoadedEventEnd ?? 0, rowsInDom: document.querySelectorAll('tbody tr:not([aria-hidden])').length };
  });
  record(
    `page load of the folder URL → first row`,
    `${fmt(load.firstRowAt)} ms from navigation start (DOMContentLoaded ${fmt(load.domContentLoaded)} ms); ${load.rowsInDom} rows in the DOM`,
  );

  // Scrolling: the list's scroll container (or the document) from top to bottom, 600 px a frame
  // (a fast fling). A virtualized list grows or shrinks as rows are measured, so the bottom is
  // read again every frame; the run ends when the scroller stays at its bottom, and the rows then
  // in the DOM must include the last file by name order.
  // The whole folder is read once the pager counts it (its first rows show before that). A list
  // without that pager is scrolled as it is.
  await page
    .getByText(new RegExp(`^[\\d,]+–[\\d,]+ of ${fmt(FILE_COUNT)}$`))
    .waitFor({ timeout: 30_000 })
    .catch(() => log(`no '… of ${fmt(FILE_COUNT)}' range shown; scrolling the list as it is`));
  await page.waitForTimeout(1_000);
  const lastName = `bench-${String(FILE_COUNT).padStart(5, '0')}.txt`;
  const folderScrollProfile = await startProfile(page);
  const fling = await flingToBottom(page, 'tbody');
  await stopProfile(folderScrollProfile, 'folder-scroll', log);
  const listed = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('tbody tr:not([aria-hidden])')];
    const names = rows.map((tr) => (tr.textContent ?? '').match(/bench-\d+\.txt/)?.[0]).filter((n): n is string => !!n);
    return { rowsInDom: rows.length, lastRow: names.at(-1) ?? '' };
  });
  const scroll = { ...fling, ...listed };
  const lf = fling.longFrames;
  log(
    `folder scroll: ${lf.count} long animation frames, ${Math.round(lf.totalMs)} ms in all: scripts ${Math.round(lf.scriptMs)} ms, style and layout ${Math.round(lf.styleAndLayoutMs)} ms${lf.topScripts.length ? `; scripts: ${lf.topScripts.join(', ')}` : ''}`,
  );
  const reachedLast = scroll.lastRow === lastName;
  const smooth = scroll.longTasks === 0 && scroll.slowFrames === 0;
  record(
    'scroll the folder top → bottom',
    `${fmt(scroll.scrollPx)} px in ${fmt(scroll.elapsedMs)} ms over ${scroll.frames} frames (scroller: ${scroll.container}); frame p95 ${fmt(scroll.p95, 1)} ms, worst ${fmt(scroll.worst, 1)} ms, frames > 50 ms: ${scroll.slowFrames}; long tasks ${scroll.longTasks}, longest ${fmt(scroll.longestTask)} ms; ${scroll.rowsInDom} rows in the DOM, last row ${scroll.lastRow || '?'}${scroll.isTimedOut ? ' (stopped after 120 s)' : ''}`,
    !reachedLast
      ? `GOAL MISSED (the list ends at ${scroll.lastRow || '?'}, not ${lastName}, with ${scroll.rowsInDom} rows in the DOM: not one scrolled list of the whole folder)`
      : smooth
        ? 'smooth (no long task, no frame > 50 ms)'
        : 'GOAL MISSED (long tasks or frames > 50 ms while scrolling)',
  );

  // 6. The same vault's timeline: 10,000+ operations (tests/bench/timelineBench.ts).
  log('timeline of the seeded vault');
  await benchTimeline(page, vaultUrl, record, log);
  if (TIMELINE_ONLY) return;

  await benchFreshSync(browser!, baseUrl, email, vaultId, headSeq, seed.folderId, folderUrl);

  // 7. A pick of many small files, last: its vault and uploads stay out of the measures above.
  currentPage = page;
  if (PICK_FILES > 0) {
    log(`a pick of ${PICK_FILES} small files`);
    await benchPick(page, baseUrl, tempDir);
  }
}

/**
 * First sync into a fresh profile: a new context logs in and opens the seeded folder at once, as
 * a link would, while the vault is still being pulled. Measures the time to every operation in
 * IndexedDB, and when the folder's first rows show: from Log in, and from the first page of
 * operations the server answered (issue 25: within 2 s of it).
 */
async function benchFreshSync(browser: Browser, baseUrl: string, email: string, vaultId: string, headSeq: number, folderId: string, folderUrl: string): Promise<void> {
  log('fresh profile: logging in and pulling the vault');
  // A profile on disk, as a browser installed on a new device has (BENCH_FRESH_PROFILE=memory: a
  // private window's, whose IndexedDB lives in memory and writes about half as fast here).
  const isFreshOnDisk = process.env.BENCH_FRESH_PROFILE !== 'memory';
  const fresh: BrowserContext = isFreshOnDisk
    ? await launchProfileOnDisk(join(tempDir, 'fresh-profile'), { viewport: VIEWPORT })
    : await browser.newContext({ viewport: VIEWPORT });
  await fresh.addInitScript(INIT_SCRIPT);
  const freshPage = fresh.pages()[0] ?? (await fresh.newPage());
  currentPage = freshPage;
  let firstPageAt: number | null = null;
  freshPage.on('response', (response) => {
    if (!response.url().includes(`/vaults/${vaultId}/ops?`)) return;
    firstPageAt ??= Date.now();
    if (process.env.BENCH_SYNC_TRACE) {
      const timing = response.request().timing();
      log(`  ops page ${new URL(response.url()).searchParams.get('after')}: server answered in ${fmt(timing.responseStart - timing.requestStart)} ms`);
    }
  });
  await freshPage.goto(`${baseUrl}/login`);
  await freshPage.getByRole('heading', { name: 'Log in' }).waitFor();
  const loginStart = performance.now();
  const loginEpoch = Date.now();
  const syncProfile = await startProfile(freshPage);
  // BENCH_TRACE=file: a Chromium trace of the sync (IndexedDB and task events of every process).
  if (process.env.BENCH_TRACE && isFreshOnDisk) throw new Error('BENCH_TRACE needs BENCH_FRESH_PROFILE=memory (Playwright traces a launched browser, not a persistent context)');
  if (process.env.BENCH_TRACE) await browser.startTracing(freshPage, { path: process.env.BENCH_TRACE, categories: ['toplevel', 'IndexedDB', 'leveldb', 'disabled-by-default-devtools.timeline'] });
  const syncCpu = cpuThreads();
  const syncCpuTotal = cpuSeconds();
  await logIn(freshPage, email);
  await freshPage.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 60_000 });
  // BENCH_SYNC_VIEW=none: stay where logging in lands (a control: the sync with no folder view open).
  const opensFolder = process.env.BENCH_SYNC_VIEW !== 'none';
  let firstRowEpoch = 0;
  let cursorAtFirstRow = 0;
  if (opensFolder) {
    await freshPage.goto(folderUrl);
    firstRowEpoch = await poll(
      'the first row in the fresh profile',
      () => freshPage.evaluate(() => {
        const at = (window as unknown as BenchWindow).__bench.firstRowAt;
        return at === null ? null : performance.timeOrigin + at;
      }),
      600_000,
      100,
    );
    cursorAtFirstRow = await vaultCursor(freshPage, vaultId).catch(() => 0);
  }
  const pulled = await waitForPull('the fresh profile to pull every file', freshPage, vaultId, headSeq, folderId, FILE_COUNT, 1_200_000);
  await stopProfile(syncProfile, 'first-sync', log);
  if (process.env.BENCH_TRACE) await browser.stopTracing();
  const syncCpuAfter = cpuSeconds();
  record('  CPU of the first sync', `browser ${fmt(syncCpuAfter.browser - syncCpuTotal.browser, 1)} s, server ${fmt(syncCpuAfter.server - syncCpuTotal.server, 1)} s; by process and thread: ${cpuByKindSince(syncCpu)}`);
  if (process.env.BENCH_SYNC_TRACE) {
    for (const store of ['vaults', 'nodes', 'versions', 'opPages', 'memos', 'searchIndex']) {
      const sizes = (await storeRecords<unknown>(freshPage, store)).map((r) => JSON.stringify(r).length);
      const bytes = sizes.reduce((sum, size) => sum + size, 0);
      record(`  store ${store}`, `${fmt(sizes.length)} records, ${fmt(bytes / 1024)} KiB as JSON (largest ${fmt(Math.max(0, ...sizes) / 1024)} KiB)`);
    }
  }
  if (!opensFolder) {
    record(`fresh profile: first sync of ${FILE_COUNT + 1} items, no folder open`, `${fmt((pulled - loginStart) / 1000, 2)} s from Log in to all in IndexedDB`);
    await fresh.close();
    return;
  }
  const syncSeconds = (pulled - loginStart) / 1000;
  const rowsAfterLogin = (firstRowEpoch - loginEpoch) / 1000;
  const rowsAfterFirstPage = firstPageAt === null ? null : (firstRowEpoch - firstPageAt) / 1000;
  const whilePulling = cursorAtFirstRow < headSeq;
  record(
    `fresh profile: first sync of ${FILE_COUNT + 1} items${SYNC_ONLY ? '' : ` (+ the ${SIZE_MIB} MiB file)`}`,
    `${fmt(syncSeconds, 2)} s from Log in to all in IndexedDB; the folder's first rows ${fmt(rowsAfterLogin, 2)} s after Log in, ${rowsAfterFirstPage === null ? '?' : fmt(rowsAfterFirstPage, 2)} s after the first page of operations arrived (${whilePulling ? `while pulling: ${fmt(cursorAtFirstRow)} of ${fmt(headSeq)} operations in` : 'after the pull'})`,
    // Issue 3 (local-first): "First sync of a vault of 10,000 items into a fresh device: 10 s or less".
    FILE_COUNT >= 10_000
      ? syncSeconds <= FIRST_SYNC_GOAL_S
        ? `goal met (≤ ${FIRST_SYNC_GOAL_S} s)`
        : `GOAL MISSED (needs ≤ ${FIRST_SYNC_GOAL_S} s)`
      : `(goal: ≤ ${FIRST_SYNC_GOAL_S} s for 10,000 items; not judged for ${FILE_COUNT})`,
  );
  await fresh.close();
  // The same writes from a bare page (tests/bench/idbCeiling.ts): what IndexedDB alone allows here.
  log(`no-app IndexedDB: writing what a first sync of ${FILE_COUNT} files writes`);
  const idbSeconds = await indexedDbCeiling(tempDir, FILE_COUNT);
  record(
    `  no app: a bare page writes the same ${fmt(FILE_COUNT)} files' records`,
    `${fmt(idbSeconds, 1)} s (a node and a version record per file, a page of operations per 1,000, in transactions of 1,000; no network, crypto or views): the sync took ${fmt(syncSeconds / idbSeconds, 2)} × that`,
  );
  goal25(
    'first sync of a fresh device',
    '10,001 items: 5 s to IndexedDB, 8.4 s to rows',
    `${fmt(FILE_COUNT + 1)} items: ${fmt(syncSeconds, 1)} s to IndexedDB (a bare page writing the same records: ${fmt(idbSeconds, 1)} s), first rows ${rowsAfterFirstPage === null ? '?' : fmt(rowsAfterFirstPage, 1)} s after the first page`,
    '100,000 items to IndexedDB in 30 s or less, first rows within 2 s of the first page (BENCH_FILES=100000)',
    FILE_COUNT >= 100_000 ? syncSeconds <= 30 && rowsAfterFirstPage !== null && rowsAfterFirstPage <= 2 : null,
  );
}

/**
 * One pick of PICK_FILES files of 10 kB, uploaded through the dialog into a vault of their own
 * (so the measures of the other vault do not change), timed by the page as the upload above.
 */
async function benchPick(page: Page, baseUrl: string, tempDir: string): Promise<void> {
  const pickDir = join(tempDir, 'pick');
  mkdirSync(pickDir, { recursive: true });
  const pickPaths = Array.from({ length: PICK_FILES }, (_, i) => {
    const path = join(pickDir, `small-${String(i + 1).padStart(5, '0')}.txt`);
    writeFileSync(path, randomBytes(10_000));
    return path;
  });
  const vaultId = await createPrivateCloudVault(page, baseUrl, 'Bench picks', { isFirst: false });
  await page.goto(`${baseUrl}/vaults/active/${vaultId}/assets`);
  await page.getByRole('button', { name: 'Add an asset' }).waitFor();
  const pickChooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Add an asset' }).click();
  await page.getByRole('menuitem', { name: 'Upload file' }).click();
  await (await pickChooser).setFiles(pickPaths);
  const pickDialog = page.getByRole('dialog', { name: `Upload ${PICK_FILES} files` });
  await pickDialog.getByText(/^Available: /).waitFor();
  const pickCpu = cpuSeconds();
  const pickCpuKinds = cpuThreads();
  await watchUploadBox(page);
  const pickProfile = await startProfile(page);
  log(`upload of ${PICK_FILES} small files: confirm clicked`);
  await pickDialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await poll('the small files to be uploaded', async () => outboxCount(page).then(async (n) => n === 0 && (await uploadBoxTimes(page).then(() => true, () => false))), 600_000, 1_000);
  const pickBox = await uploadBoxTimes(page);
  await stopProfile(pickProfile, 'pick', log);
  const pickSeconds = (pickBox.doneAt - pickBox.shownAt) / 1000;
  record(`upload of ${PICK_FILES} files of 10 kB (one pick)`, `${fmt(pickSeconds, 1)} s (${fmt(PICK_FILES / pickSeconds)} files/s) from the box showing them queued to the box saying all are done`);
  goal25(`one pick of ${fmt(PICK_FILES)} files of 10 kB, private vault`, '103-150 s (about 10 files/s) for 1,000', `${fmt(pickSeconds, 1)} s (${fmt(PICK_FILES / pickSeconds)} files/s)`, '15 s or less for 1,000', PICK_FILES === 1_000 ? pickSeconds <= 15 : null);
  const pickCpuAfter = cpuSeconds();
  const pickBrowserCpu = pickCpuAfter.browser - pickCpu.browser;
  const pickServerCpu = pickCpuAfter.server - pickCpu.server;
  record(
    `  CPU of the ${PICK_FILES} files`,
    `browser ${fmt(pickBrowserCpu, 1)} s + server ${fmt(pickServerCpu, 1)} s = ${fmt(((pickBrowserCpu + pickServerCpu) * 1000) / PICK_FILES, 1)} CPU-ms per file; ${cpuByKindSince(pickCpuKinds)}`,
  );
}

function printTable() {
  console.log('\n================ Cairn bench (issue 3) ================');
  const width = Math.max(...rows.map((r) => r.label.length));
  for (const r of rows) console.log(`${r.label.padEnd(width)}  ${r.value}${r.note ? `  ${r.note}` : ''}`);
  for (const p of problems) console.log(`PROBLEM: ${p}`);
  console.log('========================================================');
  if (issue25.length) {
    console.log('\n---------- issue 25: before (as filed) and this run ----------');
    const what = Math.max(...issue25.map((g) => g.what.length));
    const before = Math.max(...issue25.map((g) => g.before.length));
    for (const g of issue25) {
      const verdict = g.met === null ? 'not judged here' : g.met ? 'goal met' : 'GOAL MISSED';
      console.log(`${g.what.padEnd(what)}  before ${g.before.padEnd(before)}  now ${g.now}  (goal: ${g.goal}; ${verdict})`);
    }
  }
  const untested = SIZE_MIB < 2048 ? `; a 2 GiB file (${SIZE_MIB} MiB here: BENCH_SIZE_MIB=2048 runs one)` : '';
  console.log(`Not measured: memory of the transfer workers' own heaps (browser RSS covers them)${untested}.`);
}

let exitCode = 0;
let currentPage = null as Page | null;
try {
  await main();
} catch (error) {
  exitCode = 1;
  console.error('\nThe bench stopped early:', error instanceof Error ? (error.stack ?? error.message) : error);
  problems.push(`stopped early: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  if (currentPage) {
    const shot = join(ROOT, '.tmp', 'bench-failure.png');
    await currentPage
      .screenshot({ path: shot, fullPage: true })
      .then(() => console.error(`Screenshot of the page: ${shot} (${currentPage!.url()})`))
      .catch(() => undefined);
  }
} finally {
  printTable();
  await cleanup();
}
process.exit(exitCode);
