/**
 * Real server processes for tests that need more than one (LISTEN/NOTIFY fan-out), one they can
 * kill and start again (tests/e2e/KillableServer.ts), or one to measure (tests/bench).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arweaveFor } from '../arweave/arweaveClient';
import { loadOrCreateWallet } from '../arweave/wallet';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * One relay wallet for every test server on this machine: generating a 4096-bit RSA key takes
 * seconds (tens under load), and a fresh DATA_DIR would otherwise pay it at every start.
 */
export const TEST_ARWEAVE_WALLET = path.join(os.tmpdir(), 'cairn-test-arweave-wallet.json');

export interface ServerProcess {
  url: string;
  wsUrl: string;
  port: number;
  child: ChildProcess;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: no drain, no cleanup, in-flight requests cut, as a crash or an OOM kill. */
  kill(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ServerProcessOptions {
  dataDir: string;
  databaseUrl?: string | null;
  /** A free one when absent. */
  port?: number;
  /** PUBLIC_URL, when the browser reaches the server some other way (a proxy). */
  publicUrl?: string;
  env?: Record<string, string>;
  /** Appends the server's output to this file; otherwise it is kept for the error of a failed start. */
  logFile?: string;
  /** How long the start may take until GET /api/health answers 200. */
  timeoutMs?: number;
}

/** Starts `server/main.ts`; resolves once GET /api/health answers 200. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  // Offline: generating a wallet needs no gateway.
  await loadOrCreateWallet(TEST_ARWEAVE_WALLET, arweaveFor('http://127.0.0.1:1'));
  let output = '';
  const log = options.logFile ? openSync(options.logFile, 'a') : null;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: options.dataDir,
      PUBLIC_URL: options.publicUrl ?? url,
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000',
      ARWEAVE_WALLET: TEST_ARWEAVE_WALLET,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
    stdio: ['ignore', log ?? 'pipe', log ?? 'pipe'],
  });
  if (log !== null) closeSync(log);
  child.stdout?.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr?.on('data', (data: Buffer) => (output += data.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const said = () => (options.logFile ? `see ${options.logFile}` : output);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}: ${said()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not become healthy: ${said()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    wsUrl: `ws://127.0.0.1:${port}/api/ws`,
    port,
    child,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}
