import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A Cairn server of the test's own (not the config's webServer), so a test can SIGKILL it and
 * start it again on the same DATA_DIR. The browser talks to it through a TCP proxy on
 * `proxyPort` that can throttle what the browser sends (so a multi-chunk upload is still going
 * when the test interrupts it) and that stays up while the server is down, as a reverse proxy
 * would: connections then fail as refused ones do.
 */
export class KillableServer {
  readonly url: string;
  private dir: string | null = null;
  /** Bytes per second from the browser to the server; 0 lets them through at full speed. */
  uploadRate = 0;
  private child: ChildProcess | null = null;
  private proxy: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly proxyPort: number,
    private readonly serverPort: number,
    /** More environment for the server (for example CAIRN_CLIENT_DIR). */
    private readonly extraEnv: Record<string, string> = {},
  ) {
    this.url = `http://localhost:${proxyPort}`;
  }

  /** DATA_DIR, made on the first start (not at construction: Playwright loads specs to list them). */
  get dataDir(): string {
    this.dir ??= mkdtempSync(join(tmpdir(), 'cairn-e2e-killable-'));
    return this.dir;
  }

  /**
   * Starts the proxy (once) and the server, and waits until the server answers. `moreEnv` is for
   * this start only (for example CAIRN_TEST_CLOCK_OFFSET_MS, to restart the server a day ahead).
   */
  async start(moreEnv: Record<string, string> = {}): Promise<void> {
    this.proxy ??= await this.listen();
    const log = openSync(join(this.dataDir, 'server.log'), 'a');
    this.child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
      cwd: ROOT,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        PORT: String(this.serverPort),
        DATA_DIR: this.dataDir,
        PUBLIC_URL: this.url,
        AUTH_RATE_LIMIT: '1000',
        LOG_LEVEL: 'warn',
        ...this.extraEnv,
        ...moreEnv,
      },
    });
    closeSync(log);
    const started = Date.now();
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`The server exited with ${this.child.exitCode}; see ${this.dataDir}/server.log`);
      try {
        if ((await fetch(`http://127.0.0.1:${this.serverPort}/api/health`)).ok) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() - started > 90_000) throw new Error('The server did not start within 90 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** SIGKILL: no drain, no cleanup, in-flight requests cut, as a crash or an OOM kill. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Stops the server and the proxy and deletes the data directory. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.proxy ? this.proxy.close(() => resolve()) : resolve()));
    this.proxy = null;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }

  private listen(): Promise<Server> {
    const proxy = createServer((client) => {
      const upstream = connect(this.serverPort, '127.0.0.1');
      this.sockets.add(client);
      this.sockets.add(upstream);
      const close = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('data', (data: Buffer) => {
        if (!upstream.write(data)) {
          client.pause();
          upstream.once('drain', () => client.resume());
        }
        if (this.uploadRate > 0) {
          client.pause();
          setTimeout(() => client.resume(), (data.length / this.uploadRate) * 1000);
        }
      });
      upstream.pipe(client);
      for (const socket of [client, upstream]) {
        socket.on('error', close);
        socket.on('close', close);
      }
    });
    return new Promise((resolve, reject) => {
      proxy.once('error', reject);
      proxy.listen(this.proxyPort, () => resolve(proxy));
    });
  }
}
