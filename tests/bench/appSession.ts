/**
 * What the Chromium benchmarks share: the app served by `npm start` (scripts/start.mjs, which
 * builds dist/ when stale) and the steps a new user takes in it, plus raw IndexedDB probes of its
 * database ('cairn', read without any app module).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../chromiumFlags';
import { waitForMailLink } from '../e2e/mailbox';
import { VaultRoom } from '../e2e/pages/VaultRoom';
import { STRONG_PASSWORD } from '../e2e/passwords';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface AppServer {
  baseUrl: string;
  child: ChildProcess;
  /** SIGTERM to start.mjs and the server it spawned (SIGKILL after 5 s); waits for the exit. */
  stop(): Promise<void>;
}

/**
 * `npm start` on `port` with `dataDir`, in a process group of its own; resolves once it answers
 * /api/health, with `env` added to its environment. BENCH_SERVER_LOG=<file> keeps the server's request log, to see where time goes.
 */
export async function startAppServer(port: number, dataDir: string, env: Record<string, string> = {}): Promise<AppServer> {
  const baseUrl = `http://localhost:${port}`;
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      AUTH_RATE_LIMIT: '1000',
      ...env,
      // BENCH_SERVER_PROFILE=dir: the server writes a V8 CPU profile there when it stops.
      ...(process.env.BENCH_SERVER_PROFILE ? { NODE_OPTIONS: `--require ${join(ROOT, 'tests', 'bench', 'cpuProfilePreload.cjs')}` } : {}),
    },
  });
  const server: AppServer = { baseUrl, child, stop: () => stopGroup(child) };
  const output: string[] = [];
  const logFile = process.env.BENCH_SERVER_LOG;
  const keep = (chunk: Buffer) => {
    if (logFile) appendFileSync(logFile, chunk);
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${output.join('')}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return server;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`The server did not answer /api/health in time:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (!child.pid || child.exitCode !== null) return;
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-pid, 'SIGTERM'); // its own process group: start.mjs and the server it spawned
  } catch {
    /* gone */
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

export async function poll<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs: number, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Debian's Chromium with a profile on disk in `dir`, as a browser installed on a device has
 * (IndexedDB, the service worker and the caches on disk); headless unless BENCH_HEADED=1.
 */
export function launchProfileOnDisk(dir: string, options: Parameters<typeof chromium.launchPersistentContext>[1] = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS, headless: process.env.BENCH_HEADED !== '1', ...options });
}

// --- UI flows (the same steps as tests/e2e/pages) ---------------------------------------------------

/** Signs up through the UI, follows the e-mailed link (written under `dataDir`) and logs in; answers the 12 words. */
export async function signUpAndLogIn(page: Page, baseUrl: string, dataDir: string, email: string): Promise<string[]> {
  await page.goto(`${baseUrl}/signup`);
  await page.getByRole('heading', { name: 'Sign up for Cairn' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('checkbox').nth(0).check();
  await page.getByRole('checkbox').nth(1).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByTestId('recovery-phrase').waitFor();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const text = readFileSync((await (await downloading).path())!, 'utf8');
  const words = [...text.matchAll(/\d+\.\s*([a-z]+)/g)].map((m) => m[1]!);
  if (words.length !== 12) throw new Error(`Expected 12 words in the backup file, got ${words.length}`);
  await page.getByRole('button', { name: 'Setup account' }).click();
  await page.getByText('Final step – verify your email').waitFor({ timeout: 30_000 });

  const link = await waitForMailLink(dataDir, email, '/login?uid=');
  await page.goto(link);
  await page.getByText('Your email was successfully verified.', { exact: false }).waitFor();
  await logIn(page, email);
  await page.waitForURL(/\/create-vault\/setup$/, { timeout: 30_000 });
  return words;
}

export async function logIn(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export async function createPrivateCloudVault(page: Page, baseUrl: string, title: string, options: { isFirst?: boolean } = {}): Promise<string> {
  await page.goto(`${baseUrl}/create-vault/setup`);
  await page.getByRole('button', { name: 'Customise your setup' }).or(page.getByRole('link', { name: 'Customise your setup' })).click();
  await page.getByRole('radio', { name: 'Cloud storage' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: 'Private', exact: true }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('textbox', { name: 'Description' }).fill('Benchmark vault');
  await page.getByRole('button', { name: 'Create vault' }).click();
  await page.waitForURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/, { timeout: 30_000 });
  const vaultId = /\/vaults\/active\/([A-Za-z0-9_-]+)\/assets$/.exec(page.url())![1]!;
  // A new account's first vault opens with the onboarding tour.
  if (options.isFirst ?? true) await new VaultRoom(page).closeTour();
  // The vault operation must reach the server before the API sees the vault.
  await poll('the vault to reach the server', () => outboxCount(page).then((n) => n === 0), 30_000, 100);
  return vaultId;
}

export function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
}

// --- IndexedDB probes (Dexie database 'cairn', raw IndexedDB so no app module is needed) -----------

/** `count()` or `getAll()` of `store`; null before the store exists. */
function readStore<T>(page: Page, store: string, method: 'count' | 'getAll'): Promise<T | null> {
  return page.evaluate(
    ([name, how]) =>
      new Promise<T | null>((resolve, reject) => {
        const open = indexedDB.open('cairn');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(name)) return resolve(null), db.close();
          const request = db.transaction(name).objectStore(name)[how]();
          request.onsuccess = () => (resolve(request.result as T), db.close());
          request.onerror = () => reject(request.error);
        };
      }),
    [store, method] as const,
  );
}

/** Operations in the outbox (pending or rejected). */
export async function outboxCount(page: Page): Promise<number> {
  return (await readStore<number>(page, 'outbox', 'count')) ?? 0;
}

/** Every record of `store` (read whole: for small stores, or once). */
export async function storeRecords<T>(page: Page, store: string): Promise<T[]> {
  return (await readStore<T[]>(page, store, 'getAll')) ?? [];
}
