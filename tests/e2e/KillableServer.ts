import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../../server/testing/serverProcess';

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
  /** When the proxy last passed bytes from the browser to the server (ms since the epoch). */
  lastUploadAt = 0;
  private server: ServerProcess | null = null;
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
    this.server = await startServerProcess({
      dataDir: this.dataDir,
      port: this.serverPort,
      publicUrl: this.url,
      env: { ...this.extraEnv, ...moreEnv },
      logFile: join(this.dataDir, 'server.log'),
      timeoutMs: 90_000,
    });
  }

  /** SIGKILL: no drain, no cleanup, in-flight requests cut, as a crash or an OOM kill. */
  async kill(): Promise<void> {
    const server = this.server;
    this.server = null;
    await server?.kill();
  }

  /**
   * Stops the server and the proxy and deletes the data directory; `keepLogIn` (a test's output
   * directory) keeps the server's log there as `<name>.log`, to read after a failure.
   */
  async stop(keepLogIn?: { dir: string; name: string }): Promise<void> {
    const server = this.server;
    this.server = null;
    await server?.stop();
    const log = this.dir ? join(this.dir, 'server.log') : null;
    if (keepLogIn && log && existsSync(log)) {
      mkdirSync(keepLogIn.dir, { recursive: true });
      copyFileSync(log, join(keepLogIn.dir, `${keepLogIn.name}.log`));
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
        this.lastUploadAt = Date.now();
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
