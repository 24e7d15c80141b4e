/**
 * `cairn login`, `ls`, `upload` and `download` (issue 24) against the real server listening on a
 * port (buildApp on SQLite), over real HTTP: the command is a device of the account, so what it
 * uploads a browser device (the app's own sync code) reads, and the reverse. The command signs in
 * with a real API key (made with PUT /api/api-keys), so every call it makes must be one a key may
 * make (server/http/apiKeyRoutes.ts); the browser device uses the session.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { spawn } from 'node:child_process';
import { NewApiKey } from '../src/protocol/developers';
import { randomBytes } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient as ServerTestClient } from '../server/testing/ApiClient';
import { TestEnv } from '../server/testing/databases';
import { newSession } from '../server/testing/flows';
import { TestUser } from '../server/testing/TestUser';
import { createApiClient, type FetchLike } from '../src/platform/apiClient';
import { API_KEY_LIMIT_MESSAGE } from '../src/protocol/developers';
import { SealedField } from '../src/protocol/vaults';
import { CairnDb } from '../src/storage/db';
import { getChildren } from '../src/storage/vaultStore';
import { setCurrentSync } from '../src/sync/currentSync';
import { SyncClient } from '../src/sync/SyncClient';
import * as actions from '../src/sync/vaultActions';
import { createCryptoApi } from '../workers/crypto/createCryptoApi';
import { createTransferApi } from '../workers/transfer/createTransferApi';
import { EXIT_CODES, KEY_REFUSED_MESSAGE, WRONG_ACCOUNT_PHRASE_MESSAGE } from './CliError';
import { main, type CliIo } from './main';

const env = new TestEnv('sqlite');
let app: FastifyInstance;
let server = '';
let user: TestUser;
let token = '';
let apiKey = '';
let userId = '';
let home = '';
let configDir = '';

beforeAll(async () => {
  await env.setUp();
  // Uploads of several chunks, syncs and pulls: more requests than the default period allows.
  app = await env.buildApp({ config: { apiKeys: { limit: 10_000, period: 'month' } } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  server = `http://127.0.0.1:${address.port}`;
  user = await TestUser.create();
  const session = await newSession(new ServerTestClient(app), env.dataDir, user);
  token = session.token;
  userId = session.user.id;
  const made = await fetch(`${server}/api/api-keys`, { method: 'PUT', headers: { authorization: `Bearer ${token}` } });
  apiKey = NewApiKey.parse(await made.json()).key;
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cli-home-'));
  configDir = path.join(home, 'config');
}, 60_000);

afterAll(async () => {
  setCurrentSync(null);
  await env.tearDown();
  fs.rmSync(home, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cairn(args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv; fetch?: typeof fetch; signal?: AbortSignal } = {}): Promise<Run> {
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  const stderr = new PassThrough();
  const stdout = new PassThrough();
  let err = '';
  let out = '';
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  const io: CliIo = {
    stdin,
    stderr,
    stdout,
    env: { CAIRN_CONFIG_DIR: configDir, ...options.env },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const code = await main(args, io);
  return { code, stdout: out, stderr: err.trim() };
}

/** The phrase as later commands read it (never an argument). */
const withPhrase = () => ({ env: { CAIRN_PHRASE: user.phrase } });

/** A browser device of the user: the app's crypto, transfer and sync code over its own IndexedDB. */
async function appDevice(): Promise<{ db: CairnDb; client: SyncClient; run: <T>(action: () => Promise<T>) => Promise<T> }> {
  const crypto = createCryptoApi();
  await crypto.loadPendingWallet(user.phrase.split(' '));
  await crypto.activatePendingWallet();
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  const toServer = ((input: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(`${server}${input}`, { ...init, headers });
  }) as typeof fetch;
  const client = new SyncClient(
    { db, api: createApiClient({ fetch: toServer as FetchLike }), crypto, transfer: createTransferApi({ fetch: toServer, caches: null }), log: () => {} },
    { pollIntervalMs: 0 },
  );
  client.start(userId, { id: userId, publicSigningKey: user.publicSigningKey, address: user.address });
  const run = async <T>(action: () => Promise<T>): Promise<T> => {
    setCurrentSync(client);
    return action();
  };
  await client.syncNow();
  return { db, client, run };
}

function childNamed(nodes: { name: string }[], name: string) {
  const node = nodes.find((n) => n.name === name);
  if (!node) throw new Error(`${name} is not among ${nodes.map((n) => n.name).join(', ')}`);
  return node as (typeof nodes)[number] & { id: string; kind: string };
}

async function bytesOf(blob: Blob): Promise<Buffer> {
  return Buffer.from(await blob.arrayBuffer());
}

let browser: Awaited<ReturnType<typeof appDevice>>;
let vaultId = '';
const VAULT = 'Field notes';

describe('cairn login', () => {
  it('a phrase of another account is refused, and a key the server does not know; nothing is saved', async () => {
    const other = await TestUser.create();
    const wrongPhrase = await cairn(['login', '--server', server], { stdin: `${apiKey}\n${other.phrase}\n` });
    expect([wrongPhrase.code, wrongPhrase.stderr]).toEqual([EXIT_CODES.WRONG_PHRASE, `cairn: ${WRONG_ACCOUNT_PHRASE_MESSAGE}`]);
    const wrongKey = await cairn(['login', '--server', server], { stdin: `cairn_${'x'.repeat(43)}\n${user.phrase}\n` });
    expect([wrongKey.code, wrongKey.stderr]).toEqual([EXIT_CODES.KEY_REFUSED, `cairn: ${KEY_REFUSED_MESSAGE}`]);
    const notSignedIn = await cairn(['ls'], withPhrase());
    expect([notSignedIn.code, notSignedIn.stderr]).toEqual([EXIT_CODES.NOT_SIGNED_IN, 'cairn: Not signed in: run cairn login --server URL first.']);
    expect(fs.existsSync(path.join(configDir, 'config.json'))).toBe(false);
  });

  it('the key and the phrase piped on standard input: the server and the key saved for the owner only, the phrase nowhere', async () => {
    const run = await cairn(['login', '--server', server], { stdin: `${apiKey}\n${user.phrase}\n` });
    expect(run.code, run.stderr).toBe(EXIT_CODES.OK);
    expect(run.stderr).toContain(`Signed in to ${server} as ${user.email}.`);
    const file = path.join(configDir, 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    expect(JSON.parse(text)).toEqual({ server, apiKey });
    expect(text).not.toContain(user.phrase.split(' ')[0]!);
  });
});

describe('cairn ls, upload and download', () => {
  beforeAll(async () => {
    browser = await appDevice();
    vaultId = await browser.run(() => actions.createVault({ title: VAULT, description: '', tags: [], terms: 'Be kind.', isPublic: false, isCloud: true }));
    await browser.client.syncNow();
  }, 60_000);

  it('ls lists the vaults: name, id, private or public, cloud or permanent', async () => {
    const run = await cairn(['ls'], withPhrase());
    expect(run.code, run.stderr).toBe(EXIT_CODES.OK);
    expect(run.stdout).toBe(`${VAULT}\t${vaultId}\tprivate\tcloud\n`);
    const unknown = await cairn(['ls', 'Holiday'], withPhrase());
    expect([unknown.code, unknown.stderr]).toEqual([EXIT_CODES.UNKNOWN_VAULT, 'cairn: No vault "Holiday" among your vaults (cairn ls lists them).']);
  });

  it('as a process (bin/cairn.mjs): login from piped lines, then ls with CAIRN_PHRASE', async () => {
    const ownConfig = path.join(home, 'process-config');
    const cairnProcess = (args: string[], input: string, extraEnv: Record<string, string> = {}) =>
      new Promise<Run>((resolve, reject) => {
        const child = spawn(process.execPath, [path.resolve('bin/cairn.mjs'), ...args], {
          env: { ...process.env, CAIRN_CONFIG_DIR: ownConfig, ...extraEnv },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr: stderr.trim() }));
        child.stdin.end(input);
      });
    const login = await cairnProcess(['login', '--server', server], `${apiKey}\n${user.phrase}\n`);
    expect(login.code, login.stderr).toBe(EXIT_CODES.OK);
    const ls = await cairnProcess(['ls'], '', { CAIRN_PHRASE: user.phrase });
    expect([ls.code, ls.stdout], ls.stderr).toEqual([EXIT_CODES.OK, `${VAULT}\t${vaultId}\tprivate\tcloud\n`]);
  }, 60_000);

  it('uploads a folder (two files, a nested one, a .DS_Store left out) into a private vault; the browser reads the names and bytes', async () => {
    const folder = path.join(home, 'trip');
    fs.mkdirSync(path.join(folder, 'day 2'), { recursive: true });
    const files = { 'notes.txt': Buffer.from('Left at dawn.\n'), 'map.bin': randomBytes(300_000), 'day 2/summit.txt': Buffer.from('Reached the cairn.\n') };
    for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(folder, name), bytes);
    fs.writeFileSync(path.join(folder, '.DS_Store'), 'junk');

    const run = await cairn(['upload', folder, '--vault', VAULT, '--to', 'inbox'], withPhrase());
    expect(run.code, run.stderr).toBe(EXIT_CODES.OK);
    expect(run.stderr).toContain('Uploading 3 file(s)');
    expect(run.stderr).toContain('Uploading: 100%');
    expect(run.stderr).toContain(`Uploaded 3 file(s) into "${VAULT}"/inbox`);

    await browser.client.syncNow();
    const inbox = childNamed(await getChildren(browser.db, userId, vaultId, null), 'inbox');
    const trip = childNamed(await getChildren(browser.db, userId, vaultId, inbox.id), 'trip');
    const tripChildren = await getChildren(browser.db, userId, vaultId, trip.id);
    expect(tripChildren.map((n) => [n.name, n.kind])).toEqual([
      ['day 2', 'folder'],
      ['map.bin', 'file'],
      ['notes.txt', 'file'],
    ]);
    const day2 = childNamed(tripChildren, 'day 2');
    const summit = childNamed(await getChildren(browser.db, userId, vaultId, day2.id), 'summit.txt');
    for (const [node, name] of [[childNamed(tripChildren, 'map.bin'), 'map.bin'], [childNamed(tripChildren, 'notes.txt'), 'notes.txt'], [summit, 'day 2/summit.txt']] as const) {
      const blob = await browser.run(() => actions.downloadFile(vaultId, node.id));
      expect((await bytesOf(blob)).equals(files[name]), name).toBe(true);
    }

    const ls = await cairn(['ls', `${VAULT}/inbox/trip`], withPhrase());
    expect(ls.code, ls.stderr).toBe(EXIT_CODES.OK);
    expect(ls.stdout).toBe(`day 2\t-\tfolder\nmap.bin\t300000\tfile\nnotes.txt\t14\tfile\n`);
  });

  it('downloads, byte for byte, a file the browser uploaded', async () => {
    const bytes = randomBytes(200_000);
    await browser.run(() => actions.uploadFiles(vaultId, null, [{ file: new File([bytes], 'scan.pdf', { type: 'application/pdf' }) }]));
    await browser.client.syncNow();
    await browser.client.syncNow();
    const out = path.join(home, 'downloads');
    fs.mkdirSync(out);
    const run = await cairn(['download', `${VAULT}/scan.pdf`, '--out', out], withPhrase());
    expect(run.code, run.stderr).toBe(EXIT_CODES.OK);
    expect(fs.readFileSync(path.join(out, 'scan.pdf')).equals(bytes)).toBe(true);
    expect(fs.readdirSync(out)).toEqual(['scan.pdf']);
  });

  it('an upload cut off midway, run again, sends only the chunks the server lacks; the file opens byte for byte', async () => {
    // Three 8 MiB chunks' worth: the first goes up, then the network is gone (Ctrl-C does the same).
    const bytes = randomBytes(2 * 8 * 1024 * 1024 + 5_000);
    const file = path.join(home, 'video.bin');
    fs.writeFileSync(file, bytes);
    const chunkPuts = (sink: number[], after?: () => void): typeof fetch =>
      (async (input: string | URL | Request, init?: RequestInit) => {
        const response = await fetch(input, init);
        const match = /\/chunks\/(\d+)$/.exec(String(input));
        if (match && init?.method === 'PUT' && response.ok) {
          sink.push(Number(match[1]));
          after?.();
        }
        return response;
      }) as typeof fetch;

    const first: number[] = [];
    const stop = new AbortController();
    const cut = await cairn(['upload', file, '--vault', VAULT], { ...withPhrase(), fetch: chunkPuts(first, () => stop.abort()), signal: stop.signal });
    expect([cut.code, cut.stderr.split('\n').at(-1)]).toEqual([EXIT_CODES.INTERRUPTED, 'cairn: Interrupted: run the same command again to go on from where it stopped.']);
    expect(first).toEqual([0]);
    const states = fs.readdirSync(path.join(configDir, 'uploads'));
    expect(states).toHaveLength(1);
    const stateText = fs.readFileSync(path.join(configDir, 'uploads', states[0]!), 'utf8');
    expect(fs.statSync(path.join(configDir, 'uploads', states[0]!)).mode & 0o777).toBe(0o600);
    // The file key is there only sealed under the vault key; the phrase is nowhere.
    expect(SealedField.safeParse(JSON.parse(stateText).uploads[0].sealedFileKey).success).toBe(true);
    expect(stateText).not.toContain(user.phrase.split(' ').slice(0, 3).join(' '));

    const second: number[] = [];
    const resumed = await cairn(['upload', file, '--vault', VAULT], { ...withPhrase(), fetch: chunkPuts(second) });
    expect(resumed.code, resumed.stderr).toBe(EXIT_CODES.OK);
    expect(resumed.stderr).toContain(`Resuming the upload of 1 file(s) into "${VAULT}"`);
    expect(second.sort()).toEqual([1, 2]);
    expect(fs.readdirSync(path.join(configDir, 'uploads'))).toEqual([]);

    await browser.client.syncNow();
    const node = childNamed(await getChildren(browser.db, userId, vaultId, null), 'video.bin');
    expect((await bytesOf(await browser.run(() => actions.downloadFile(vaultId, node.id)))).equals(bytes)).toBe(true);
  }, 120_000);

  it('an upload whose network goes after the first chunk stops once nothing moves (exit 6), and goes on when run again', async () => {
    const bytes = randomBytes(8 * 1024 * 1024 + 70_000);
    const file = path.join(home, 'archive.bin');
    fs.writeFileSync(file, bytes);
    let stored = 0;
    const losing = (async (input: string | URL | Request, init?: RequestInit) => {
      if (/\/chunks\/\d+$/.test(String(input)) && init?.method === 'PUT' && stored >= 1) throw new TypeError('fetch failed');
      const response = await fetch(input, init);
      if (/\/chunks\/\d+$/.test(String(input)) && init?.method === 'PUT' && response.ok) stored += 1;
      return response;
    }) as typeof fetch;
    const lost = await cairn(['upload', file, '--vault', VAULT], { env: { CAIRN_PHRASE: user.phrase, CAIRN_STALL_SECONDS: '3' }, fetch: losing });
    expect(lost.code, lost.stderr).toBe(EXIT_CODES.UNREACHABLE);
    expect(lost.stderr.split('\n').at(-1)).toMatch(/^cairn: No progress for 3 s.*\. Run the same command again to go on from where it stopped\.$/);
    expect(stored).toBe(1);

    const again = await cairn(['upload', file, '--vault', VAULT], withPhrase());
    expect(again.code, again.stderr).toBe(EXIT_CODES.OK);
    expect(again.stderr).toContain('Resuming the upload of 1 file(s)');
    await browser.client.syncNow();
    const node = childNamed(await getChildren(browser.db, userId, vaultId, null), 'archive.bin');
    expect((await bytesOf(await browser.run(() => actions.downloadFile(vaultId, node.id)))).equals(bytes)).toBe(true);
  }, 120_000);

  it('an upload without --vault, or of a path that does not exist: one line, exit 2', async () => {
    const noVault = await cairn(['upload', home]);
    expect([noVault.code, noVault.stderr]).toEqual([EXIT_CODES.BAD_INPUT, 'cairn: --vault VAULT is required (cairn ls lists your vaults) (see cairn upload --help).']);
    const missing = await cairn(['upload', path.join(home, 'nope'), '--vault', VAULT], withPhrase());
    expect([missing.code, missing.stderr]).toEqual([EXIT_CODES.BAD_INPUT, `cairn: ${path.join(home, 'nope')} does not exist.`]);
  });

  it("a key past its period limit gives the server's message (exit 8); no server gives one line (exit 6)", async () => {
    const limited = (async (input: string | URL | Request, init?: RequestInit) =>
      String(input).endsWith('/api/account')
        ? Response.json({ error: { code: 'RATE_LIMITED', message: API_KEY_LIMIT_MESSAGE } }, { status: 429 })
        : fetch(input, init)) as typeof fetch;
    const run = await cairn(['ls'], { ...withPhrase(), fetch: limited });
    expect([run.code, run.stderr]).toEqual([EXIT_CODES.RATE_LIMITED, `cairn: ${API_KEY_LIMIT_MESSAGE}`]);
    const offline = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const down = await cairn(['ls'], { ...withPhrase(), fetch: offline });
    expect([down.code, down.stderr]).toEqual([EXIT_CODES.UNREACHABLE, `cairn: The server at ${server} could not be reached (offline?).`]);
  });

  it('logout forgets the server and the key', async () => {
    const run = await cairn(['logout']);
    expect(run.code).toBe(EXIT_CODES.OK);
    expect(fs.existsSync(path.join(configDir, 'config.json'))).toBe(false);
  });
});
