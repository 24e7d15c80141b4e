/**
 * A real deployment for tests and benches (issue 20): Debian's nginx terminating TLS in front of
 * one or two Cairn processes, which share one PostgreSQL database, one S3-compatible bucket
 * (s3rver) and one Arweave gateway (arlocal), as docs/operations.md tells an operator to set them
 * up. Each process has its own DATA_DIR, as on separate machines: nothing but the database, the
 * bucket and the gateway joins them.
 *
 * nginx balances requests over the processes. A request carrying the cookie
 * `cairn_test_backend=a` (or `b`) goes to that process only, so a test can make one browser use
 * one process and another browser the other; every answer says which process served it in
 * `X-Cairn-Upstream` (the process's address).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { withAdmin } from './pgAdmin';
import { arweaveFor } from '../arweave/arweaveClient';
import { loadOrCreateWallet } from '../arweave/wallet';
import { TestS3Server, TEST_S3_CREDENTIALS } from './s3server';
import { freePort, startServerProcess, TEST_ARWEAVE_WALLET, type ServerProcess } from './serverProcess';
import { TestGateway } from './testGateway';

export const NGINX = '/usr/sbin/nginx';
/** The cookie that pins a browser to one process (see the file's comment). */
export const BACKEND_COOKIE = 'cairn_test_backend';
export const METRICS_TOKEN = 'deployment-metrics-token-0123456789';
const BUCKET = 'cairn-deployment';

export interface DeploymentOptions {
  /** How many Cairn processes stand behind nginx. */
  processes: 1 | 2;
  /** A PostgreSQL URL whose user may create databases; the deployment gets a database of its own. */
  adminDatabaseUrl: string;
  /** More environment for every process. */
  env?: Record<string, string>;
}

export interface DeployedProcess {
  /** 'a' or 'b': the value of BACKEND_COOKIE that reaches it. */
  name: 'a' | 'b';
  server: ServerProcess;
  dataDir: string;
  /** What nginx puts in X-Cairn-Upstream for this process. */
  upstream: string;
}

export class Deployment {
  private constructor(
    /** The address a browser uses: https://localhost:<nginx port>. */
    readonly url: string,
    readonly processes: DeployedProcess[],
    /** nginx's certificate (PEM), self-signed for localhost. */
    readonly certificate: string,
    private readonly root: string,
    private readonly nginx: ChildProcess,
    private readonly s3: TestS3Server,
    private readonly gateway: TestGateway,
    private readonly adminDatabaseUrl: string,
    private readonly database: string,
    /** The processes' DATABASE_URL. */
    readonly databaseUrl: string,
  ) {}

  /** The Arweave gateway every process relays to (tests mine its blocks). */
  get arweaveGateway(): TestGateway {
    return this.gateway;
  }

  static async start(options: DeploymentOptions): Promise<Deployment> {
    if (!fs.existsSync(NGINX)) throw new Error(`${NGINX} is missing: the test command installs Debian's nginx (apt-get install nginx)`);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-deployment-'));
    const database = `cairn_deployment_${process.pid}_${Date.now().toString(36)}`;
    await withAdmin(options.adminDatabaseUrl, (client) => client.query(`CREATE DATABASE ${database}`));
    const databaseUrl = new URL(options.adminDatabaseUrl);
    databaseUrl.pathname = `/${database}`;

    const s3 = await TestS3Server.start([BUCKET]);
    // The relay wallet every test server uses (a new 4096-bit key takes seconds), funded on this gateway.
    await loadOrCreateWallet(TEST_ARWEAVE_WALLET, arweaveFor('http://127.0.0.1:1'));
    const gatewayDir = path.join(root, 'gateway');
    fs.mkdirSync(gatewayDir);
    const gateway = new TestGateway(gatewayDir);
    fs.copyFileSync(TEST_ARWEAVE_WALLET, gateway.walletFile);
    await gateway.start();

    const nginxPort = await freePort();
    const url = `https://localhost:${nginxPort}`;
    const names = (['a', 'b'] as const).slice(0, options.processes);
    const ports = await Promise.all(names.map(() => freePort()));
    const env = {
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: TEST_S3_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: TEST_S3_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      ARWEAVE_GATEWAY: gateway.url,
      ARWEAVE_WALLET: gateway.walletFile,
      TRUST_PROXY: '1',
      METRICS_TOKEN,
      ...options.env,
    };
    // One at a time: the first runs the migrations (the others would wait on its lock anyway).
    const processes: DeployedProcess[] = [];
    for (const [i, name] of names.entries()) {
      const dataDir = path.join(root, `process-${name}`);
      fs.mkdirSync(dataDir);
      const server = await startServerProcess({
        dataDir,
        databaseUrl: databaseUrl.href,
        port: ports[i]!,
        publicUrl: url,
        env,
        logFile: path.join(root, `process-${name}.log`),
        timeoutMs: 90_000,
      });
      processes.push({ name, server, dataDir, upstream: `127.0.0.1:${server.port}` });
    }

    const certificate = makeCertificate(root);
    fs.writeFileSync(path.join(root, 'nginx.conf'), nginxConfig(root, nginxPort, processes));
    const nginx = spawn(NGINX, ['-p', root, '-c', path.join(root, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let nginxErrors = '';
    nginx.stderr!.on('data', (data: Buffer) => (nginxErrors += data.toString()));
    const deployment = new Deployment(url, processes, certificate, root, nginx, s3, gateway, options.adminDatabaseUrl, database, databaseUrl.href);
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (nginx.exitCode !== null) {
        await deployment.stop();
        throw new Error(`nginx exited (${nginx.exitCode}): ${nginxErrors}`);
      }
      if ((await deployment.get('/api/health/ready').catch(() => null))?.status === 200) break;
      if (Date.now() > deadline) {
        await deployment.stop();
        throw new Error(`The deployment did not become ready through nginx: ${nginxErrors}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return deployment;
  }

  /** GET `pathname` through nginx, trusting its certificate; `backend` pins the process. */
  get(pathname: string, backend?: 'a' | 'b'): Promise<{ status: number; upstream: string; body: string }> {
    return new Promise((resolve, reject) => {
      const request = https.get(new URL(pathname, this.url), { ca: this.certificate, headers: backend ? { cookie: `${BACKEND_COOKIE}=${backend}` } : {} }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, upstream: String(response.headers['x-cairn-upstream'] ?? ''), body }));
      });
      request.on('error', reject);
    });
  }

  /** One process's Prometheus figure `name` (summed over its labels), read from the process itself. */
  async metric(process: DeployedProcess, name: string): Promise<number> {
    const answer = await fetch(`${process.server.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    if (!answer.ok) throw new Error(`GET /api/metrics answered ${answer.status}`);
    const lines = (await answer.text()).split('\n').filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`));
    return lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  }

  /** Stops nginx, the processes, the bucket and the gateway, and drops the database. */
  async stop(): Promise<void> {
    if (this.nginx.exitCode === null) {
      const exited = new Promise((resolve) => this.nginx.once('exit', resolve));
      this.nginx.kill('SIGQUIT');
      await exited;
    }
    await Promise.all(this.processes.map((p) => p.server.stop()));
    await this.s3.close();
    await this.gateway.stop();
    await withAdmin(this.adminDatabaseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${this.database} WITH (FORCE)`));
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}


/** A self-signed certificate for localhost (the browser is told to accept it). */
function makeCertificate(root: string): string {
  execFileSync('openssl', [
    'req', '-x509', '-nodes', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-days', '2',
    '-keyout', path.join(root, 'key.pem'), '-out', path.join(root, 'cert.pem'),
  ], { stdio: 'ignore' });
  return fs.readFileSync(path.join(root, 'cert.pem'), 'utf8');
}

/**
 * docs/operations.md's nginx set-up for several processes, on a test port and paths: TLS, bodies
 * above the chunk size, streamed uploads, WebSocket upgrades, the visitor's address for
 * TRUST_PROXY=1, and the test's pinning cookie.
 */
function nginxConfig(root: string, port: number, processes: DeployedProcess[]): string {
  const servers = (list: DeployedProcess[]) => list.map((p) => `    server ${p.upstream};`).join('\n');
  const pins = processes.map((p) => `    ${p.name} cairn_${p.name};`).join('\n');
  const upstreams = processes.map((p) => `  upstream cairn_${p.name} {\n${servers([p])}\n    keepalive 16;\n  }`).join('\n');
  return `# Written by server/testing/deployment.ts
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${root}/nginx.pid;
error_log ${root}/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${root}/nginx-body;
  proxy_temp_path ${root}/nginx-proxy;
  fastcgi_temp_path ${root}/nginx-fastcgi;
  uwsgi_temp_path ${root}/nginx-uwsgi;
  scgi_temp_path ${root}/nginx-scgi;

  map $http_upgrade $connection_upgrade {
    default upgrade;
    '' '';
  }
  map $cookie_${BACKEND_COOKIE} $cairn_pool {
    default cairn_all;
${pins}
  }
  upstream cairn_all {
${servers(processes)}
    keepalive 32;
  }
${upstreams}

  server {
    listen 127.0.0.1:${port} ssl;
    server_name localhost;
    ssl_certificate ${root}/cert.pem;
    ssl_certificate_key ${root}/key.pem;
    client_max_body_size 16m;

    location / {
      proxy_pass http://$cairn_pool;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      proxy_next_upstream error timeout http_502 http_503;
      add_header X-Cairn-Upstream $upstream_addr always;
    }
  }
}
`;
}
