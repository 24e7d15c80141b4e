/**
 * A real arlocal gateway for tests and benches, in a child process on a free port with its data in
 * `dir`: `stop()` kills it (an outage) and `start()` brings it back on the same port and data.
 * Tests mine explicitly with `mine()`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arweaveFor, type ArweaveClient } from '../arweave/arweaveClient';
import { freePort, fundedWallet, mineArlocal } from '../arweave/embeddedArlocal';

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'arlocalMain.mjs');

export class TestGateway {
  private child: ChildProcess | null = null;
  private port: number | null = null;

  constructor(private readonly dir: string) {}

  /** Starts arlocal and makes sure the relay wallet (dir/arweave-wallet.json) has tokens. */
  async start(): Promise<void> {
    this.port ??= await freePort();
    const child = spawn(process.execPath, [MAIN, String(this.port), path.join(this.dir, 'arlocal')], { stdio: ['ignore', 'pipe', 'inherit'] });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (data: Buffer) => {
        output += data.toString();
        if (output.includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`arlocal exited (${code})`)));
    });
    await fundedWallet(this.url, this.walletFile);
  }

  get walletFile(): string {
    return path.join(this.dir, 'arweave-wallet.json');
  }

  get url(): string {
    if (this.port === null) throw new Error('The test gateway was never started');
    return `http://127.0.0.1:${this.port}`;
  }

  get arweave(): ArweaveClient {
    return arweaveFor(this.url);
  }

  mine(): Promise<void> {
    return mineArlocal(this.url);
  }

  /** Kills the gateway at once, as a crash or outage would. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    // Gone already (a Ctrl-C reaches the whole process group): its 'exit' has been and will not come again.
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

