/**
 * With no ARWEAVE_GATEWAY, `npm start` runs an arlocal gateway in the process (development and
 * self-hosting trials): its data under DATA_DIR/arlocal, a relay wallet in DATA_DIR (mode 600)
 * minted tokens, and a block mined every ARLOCAL_MINE_MS so statuses move on to COMMITTED.
 *
 * arlocal answers anyone, signed in or not, with `Access-Control-Allow-Origin: *`, and its GET
 * routes change its state: /reset wipes every stored item, /mint and /mine move balances and
 * blocks. So it is the server's alone (SYNC_SPEC R54): bound to 127.0.0.1 (arlocal has no host
 * option: its Koa `listen` is given the host), its address never published by GET /config/arweave,
 * its wiping and debugging routes refused outright, and any request a browser makes refused
 * (a page elsewhere could still aim a no-cors GET at the loopback port of the machine it runs on).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Server } from 'node:http';
import { type ArLocalInstance, arweaveFor, type JWKInterface, newArLocal } from './arweaveClient';
import { loadOrCreateWallet } from './wallet';

/** The only interface the embedded arlocal listens on. */
const LOOPBACK_HOST = '127.0.0.1';

/** Winston minted to the relay wallet when its balance runs low (arlocal only). */
const MINT_WINSTON = '1000000000000000000';

export interface EmbeddedGateway {
  gatewayUrl: string;
  wallet: JWKInterface;
  /** Mines one block now. */
  mine(): Promise<void>;
  stop(): Promise<void>;
}

export async function startEmbeddedGateway(options: {
  dataDir: string;
  port: number | null;
  mineMs: number | null;
  walletFile?: string | null;
}): Promise<EmbeddedGateway> {
  const walletFile = options.walletFile ?? path.join(options.dataDir, 'arweave-wallet.json');
  const port = options.port ?? (await freePort());
  const lock = await takeLock(path.join(options.dataDir, 'arlocal.lock'), `http://127.0.0.1:${port}`);
  if (lock.sharedUrl) {
    // Another server process on this DATA_DIR runs the gateway (and mines): use it.
    const gatewayUrl = lock.sharedUrl;
    return { gatewayUrl, wallet: await fundedWallet(gatewayUrl, walletFile), mine: () => mineArlocal(gatewayUrl), stop: async () => undefined };
  }
  const arlocal = newArLocal(port, path.join(options.dataDir, 'arlocal'));
  try {
    await startOnLoopback(arlocal);
  } catch (error) {
    lock.release();
    throw error;
  }
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const wallet = await fundedWallet(gatewayUrl, walletFile);
  const mine = () => mineArlocal(gatewayUrl);
  const stopMining = options.mineMs ? keepMining(mine, options.mineMs) : () => undefined;
  return {
    gatewayUrl,
    wallet,
    mine,
    stop: async () => {
      stopMining();
      await arlocal.stop();
      lock.release();
    },
  };
}

/** arlocal's routes that only wipe, fail on purpose or debug: the relay never calls them. */
const REFUSED_ROUTE = /^\/(reset|logs|mineWithFails)(\/|$)/;

/**
 * Starts `arlocal` listening on 127.0.0.1 only, behind a guard that refuses its admin routes and
 * every request that carries a browser's marks (Origin, Referer, Sec-Fetch-Site: Node's fetch,
 * which the relay uses, sends none of them). Resolves once it listens.
 */
export async function startOnLoopback(arlocal: ArLocalInstance): Promise<void> {
  const { app } = arlocal;
  // Koa runs middleware in the order it was added: this runs before arlocal's own (added in start()).
  app.use(async (ctx, next) => {
    const fromBrowser = ['origin', 'referer', 'sec-fetch-site'].some((name) => ctx.headers[name] !== undefined);
    if (fromBrowser || REFUSED_ROUTE.test(ctx.path) || !['GET', 'HEAD', 'POST'].includes(ctx.method)) {
      ctx.status = 403;
      ctx.body = 'Forbidden';
      return;
    }
    await next();
  });
  let server: Server | null = null;
  const listen = app.listen.bind(app);
  app.listen = (...args: unknown[]) => {
    const [port, ...rest] = args;
    server = listen(port, LOOPBACK_HOST, ...rest);
    return server;
  };
  await arlocal.start();
  const started = server as Server | null;
  if (!started) throw new Error('arlocal did not start listening');
  if (started.listening) return;
  await new Promise<void>((resolve, reject) => {
    started.once('listening', resolve);
    started.once('error', reject);
  });
}

/**
 * One arlocal per DATA_DIR: its data there cannot be opened twice. The lock file names the owning
 * process and its gateway; a live owner's gateway is shared, a dead owner's lock is taken over.
 */
async function takeLock(file: string, gatewayUrl: string): Promise<{ sharedUrl: string | null; release: () => void }> {
  const release = () => fs.rmSync(file, { force: true });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, gatewayUrl }), { flag: 'wx' });
      return { sharedUrl: null, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let owner: { pid?: number; gatewayUrl?: string } = {};
    try {
      owner = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof owner;
    } catch {
      // Half written by its owner, or just removed: look again.
    }
    if (typeof owner.pid === 'number' && typeof owner.gatewayUrl === 'string') {
      // Our own pid: a container restarted with the same pid; the lock is from before.
      if (owner.pid === process.pid || !isAlive(owner.pid)) release();
      else if (await answers(owner.gatewayUrl)) return { sharedUrl: owner.gatewayUrl, release: () => undefined };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The embedded arlocal of ${path.dirname(file)} is locked by another process that does not answer`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function answers(gatewayUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${gatewayUrl}/info`)).ok;
  } catch {
    return false;
  }
}

/** The relay wallet in `walletFile` (created if missing), minted tokens on arlocal when low. */
export async function fundedWallet(gatewayUrl: string, walletFile: string): Promise<JWKInterface> {
  const arweave = arweaveFor(gatewayUrl);
  const wallet = await loadOrCreateWallet(walletFile, arweave);
  const address = await arweave.wallets.jwkToAddress(wallet);
  const balance = await arweave.wallets.getBalance(address);
  // arlocal answers a non-number for a wallet it has never seen.
  if (BigInt(/^\d+$/.test(balance) ? balance : '0') < BigInt(MINT_WINSTON) / 2n) await expectOk(fetch(`${gatewayUrl}/mint/${address}/${MINT_WINSTON}`));
  return wallet;
}

/** Mines one block on arlocal. */
/**
 * Mines `everyMs` after the previous mine ended, never two at once; answers a function that stops
 * it. Mining on a fixed interval piled mines up on a busy machine: arlocal rebuilds and verifies
 * every bundle still arriving by chunks on each mine (17 MB for an 18 MB file), and overlapping
 * mines kept it so busy that the chunks' own posts crawled (a bundle stayed 'being bundled' for
 * minutes in the end-to-end run).
 */
export function keepMining(mine: () => Promise<void>, everyMs: number): () => void {
  let timer: NodeJS.Timeout | null = null;
  let isStopped = false;
  const next = () => {
    if (isStopped) return;
    timer = setTimeout(() => {
      void mine()
        .catch(() => undefined)
        .finally(next);
    }, everyMs);
    timer.unref();
  };
  next();
  return () => {
    isStopped = true;
    if (timer) clearTimeout(timer);
  };
}

export async function mineArlocal(gatewayUrl: string): Promise<void> {
  await expectOk(fetch(`${gatewayUrl}/mine`));
}

async function expectOk(response: Promise<Response>): Promise<void> {
  const answer = await response;
  if (!answer.ok) throw new Error(`arlocal answered ${answer.status}`);
}

/** A port free right now on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No port'))));
    });
  });
}
