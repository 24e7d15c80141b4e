/**
 * 'Restore a vault from the network' as the app runs it (issue 19, docs/SYNC_SPEC.md R96, R97),
 * on a REAL server B (SQLite and PostgreSQL) whose ARWEAVE_GATEWAY is a REAL arlocal holding a
 * private permanent vault's R84 runs and R85 file items (made on server A, posted by a relay
 * wallet, as the relay does). The app's flow runs with the REAL crypto worker implementation
 * (the judging needs the wallet's private key, so it runs there) and the server's routes through
 * its session: the proxy routes' validation and session, the restore, a restore interrupted and
 * run again (no double import, the missing chunks uploaded), and the refusals a user reads.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { arweaveFor, type JWKInterface } from '../../server/arweave/arweaveClient';
import { TestGateway } from '../../server/testing/arlocal';
import { ApiClient as ServerTestClient, errorCode } from '../../server/testing/ApiClient';
import { describeEachDatabase, TestEnv } from '../../server/testing/databases';
import { newSession } from '../../server/testing/flows';
import { sealNewest, sealRingTo } from '../../server/testing/members';
import { TestUser } from '../../server/testing/TestUser';
import { expectAccepted, makeFile, newId, type StoredFile, VaultActor } from '../../server/testing/vaults';
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { createKeyRing } from '../crypto/keyRing';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import { NetworkItemsPage } from '../protocol/arweave';
import { NETWORK_ITEMS_PER_MINUTE } from '../../server/http/arweaveRoutes';
import { fileItemTags, historyItemTags, type VaultHistoryRun } from '../protocol/vaultHistory';
import { PullResponse, type SequencedOperation } from '../protocol/vaults';
import { injectFetch } from '../sync/testing/realServer';
import { AppRestoreError, parseVaultAddress, restoreVaultFromNetwork, type RestoreProgress } from './restoreInApp';

const source = new TestEnv('sqlite');
let sourceApp: FastifyInstance;
let gateway: TestGateway;
let work = '';

interface Fixture {
  vaultId: string;
  owner: TestUser;
  ops: SequencedOperation[];
  files: { name: string; blobId: string; file: StoredFile }[];
}
let fixture: Fixture;

async function post(wallet: JWKInterface, data: Uint8Array, tags: { name: string; value: string }[]): Promise<void> {
  const arweave = arweaveFor(gateway.url);
  const tx = await arweave.createTransaction({ data }, wallet);
  for (const tag of tags) tx.addTag(tag.name, tag.value);
  await arweave.transactions.sign(tx, wallet);
  const uploader = await arweave.transactions.getUploader(tx);
  while (!uploader.isComplete) await uploader.uploadChunk();
}

/** On server A: a private permanent vault with a folder, a file of 3 chunks, a small file and a chat message. */
async function makeVault(): Promise<Fixture> {
  const api = new ServerTestClient(sourceApp);
  const owner = await VaultActor.create(source, api);
  const vaultId = newId();
  const ring = createKeyRing();
  const field = (objectId: string, name: 'name' | 'message', text: string) => sealNewest(ring, { vaultId, objectId, field: name }, text);
  expectAccepted(
    await owner.apply(vaultId, vaultId, { type: 'vault.create', isPublic: false, isCloud: false, name: await field(vaultId, 'name', 'Field notes'), ownerKeys: await sealRingTo(ring, owner.user.publicEncryptionKey) }),
  );
  const folderId = newId();
  expectAccepted(await owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: await field(folderId, 'name', 'Maps') }));
  const files: Fixture['files'] = [];
  for (const [name, file, parentId] of [
    ['terrain.bin', makeFile(2 * 4 * 1024 * 1024 + 777, { chunkSize: 4 * 1024 * 1024 }), folderId],
    ['notes.txt', makeFile(300), null],
  ] as const) {
    const version = await owner.upload(vaultId, file);
    const fileId = newId();
    expectAccepted(await owner.apply(vaultId, fileId, { type: 'file.create', parentId, name: await field(fileId, 'name', name), version }));
    files.push({ name, blobId: version.blobId, file });
  }
  const memoId = newId();
  expectAccepted(await owner.apply(vaultId, memoId, { type: 'memo.create', message: await field(memoId, 'message', 'Meet at the cairn') }));
  const pulled = PullResponse.parse((await api.get(`/api/vaults/${vaultId}/ops?after=0&limit=1000`, { token: owner.token })).body);
  return { vaultId, owner: owner.user, ops: pulled.ops, files };
}

beforeAll(async () => {
  await source.setUp();
  sourceApp = await source.buildApp();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-restore-app-'));
  gateway = new TestGateway(work);
  await gateway.start();
  fixture = await makeVault();
  const wallet = JSON.parse(fs.readFileSync(gateway.walletFile, 'utf8')) as JWKInterface;
  const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  const run = (ops: SequencedOperation[]): VaultHistoryRun => ({ format: 'cairn-vault-history', version: 1, vaultId: fixture.vaultId, seqFrom: ops[0]!.seq, seqTo: ops.at(-1)!.seq, ops });
  // Two runs, so the reader chains them.
  for (const part of [fixture.ops.slice(0, 2), fixture.ops.slice(2)]) await post(wallet, json(run(part)), historyItemTags(fixture.vaultId, part[0]!.seq, part.at(-1)!.seq));
  for (const { blobId, file } of fixture.files) await post(wallet, new Uint8Array(Buffer.concat(file.chunks)), fileItemTags(fixture.vaultId, blobId));
  await gateway.mine();
}, 180_000);

afterAll(async () => {
  await gateway?.stop();
  await source.tearDown();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

it('[R96] reads a vault address as cairn://vault/{id} or a bare id, nothing else', () => {
  expect(parseVaultAddress(' cairn://vault/abc_DEF-1 ')).toBe('abc_DEF-1');
  expect(parseVaultAddress('abc_DEF-1')).toBe('abc_DEF-1');
  expect(parseVaultAddress('cairn://vault/')).toBeNull();
  expect(parseVaultAddress('https://evil.example/vault/x')).toBeNull();
  expect(parseVaultAddress('a b')).toBeNull();
});

describeEachDatabase('[R96] restore a vault from the network through this server', (env) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    const wallet = JSON.parse(fs.readFileSync(gateway.walletFile, 'utf8')) as JWKInterface;
    app = await env.buildApp({ arweave: { gatewayUrl: gateway.url, wallet, startRelay: false } });
  }, 60_000);

  /** The app as `user` runs it on server B: its session, its crypto worker. */
  async function appOf(user: TestUser) {
    const session = await newSession(new ServerTestClient(app), env.dataDir, user);
    const crypto = createCryptoApi();
    await crypto.loadPendingWallet(user.phrase.split(' '));
    await crypto.activatePendingWallet();
    const fetch = injectFetch(() => app, () => session.token) as FetchLike;
    return { deps: { api: createApiClient({ fetch }), fetch, crypto }, token: session.token };
  }

  it('[R96] lists items only for a session, with validated ids and kinds; the gateway is never one the caller names', async () => {
    const { token } = await appOf(await TestUser.create());
    const get = (url: string, withToken = true) => app.inject({ method: 'GET', url, headers: withToken ? { authorization: `Bearer ${token}` } : {} });
    expect((await get(`/api/arweave/items?vaultId=${fixture.vaultId}&item=vault-history`, false)).statusCode).toBe(401);
    for (const query of [
      `vaultId=${encodeURIComponent('../x')}&item=vault-history`,
      `vaultId=${fixture.vaultId}&item=anything`,
      `vaultId=${fixture.vaultId}&item=file-version`,
      `vaultId=${fixture.vaultId}&item=vault-history&blobId=b1`,
      `vaultId=${fixture.vaultId}&item=vault-history&gateway=${encodeURIComponent('http://169.254.169.254')}`,
    ]) {
      const answer = await get(`/api/arweave/items?${query}`);
      expect([query, answer.statusCode, errorCode({ status: answer.statusCode, body: answer.json(), headers: {}, cookies: {}, raw: answer.body })]).toEqual([query, 400, 'VALIDATION_FAILED']);
    }
    const page = NetworkItemsPage.parse((await get(`/api/arweave/items?vaultId=${fixture.vaultId}&item=vault-history`)).json());
    expect(page.items.map((item) => item.tags.find((t) => t.name === 'Seq-From')?.value).sort()).toEqual(['1', '3']);
    // R98: each mined item carries its block height, so the reader prefers the run posted first.
    expect(page.items.map((item) => Number.isInteger(item.height) && item.height! > 0)).toEqual([true, true]);
    // The embedded-like loopback gateway is not published (R54): the page names it as this server's.
    expect(page.gateway).toBe("this server's gateway");
    const files = NetworkItemsPage.parse((await get(`/api/arweave/items?vaultId=${fixture.vaultId}&item=file-version&blobId=${fixture.files[0]!.blobId}`)).json());
    expect(files.items.map((item) => item.size)).toEqual([fixture.files[0]!.file.storedSize]);
  });

  it('[R96] an account may search the network NETWORK_ITEMS_PER_MINUTE times a minute; another account is not held back', async () => {
    const greedy = await appOf(await TestUser.create());
    const other = await appOf(await TestUser.create());
    const search = (token: string) =>
      app.inject({ method: 'GET', url: `/api/arweave/items?vaultId=${fixture.vaultId}&item=file-version&blobId=${fixture.files[1]!.blobId}`, headers: { authorization: `Bearer ${token}` } });
    for (let n = 0; n < NETWORK_ITEMS_PER_MINUTE; n += 1) expect((await search(greedy.token)).statusCode).toBe(200);
    const refused = await search(greedy.token);
    expect([refused.statusCode, (refused.json() as { error: { code: string } }).error.code]).toEqual([429, 'RATE_LIMITED']);
    expect((await search(other.token)).statusCode).toBe(200);
  }, 120_000);

  it('[R96] [R97] restores the vault for the same phrase, byte for byte; an interrupted restore run again finishes without importing twice; refusals are clear', async () => {
    // Someone else's phrase: not a member, and nothing is imported.
    const stranger = await appOf(await TestUser.create());
    await expect(restoreVaultFromNetwork(stranger.deps, fixture.vaultId)).rejects.toMatchObject({ code: 'WRONG_PHRASE', message: `This recovery phrase is not a member of vault ${fixture.vaultId}: check the 12 words.` });
    await expect(restoreVaultFromNetwork(stranger.deps, 'noSuchVault')).rejects.toMatchObject({ code: 'UNKNOWN_VAULT', message: "No history of vault noSuchVault is on this server's gateway: check the vault id and the gateway." });

    // The owner signs up on B with the same phrase and restores; cancelled during the uploads.
    const owner = await appOf(fixture.owner);
    const cancel = new AbortController();
    const seen: RestoreProgress[] = [];
    const first = restoreVaultFromNetwork(owner.deps, fixture.vaultId, (p) => {
      seen.push(p);
      if (p.step === 'uploading' && p.bytes > 0) cancel.abort();
    }, cancel.signal);
    await expect(first).rejects.toBeInstanceOf(AppRestoreError);
    await expect(first).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(seen.map((p) => p.step).filter((s, i, all) => all.indexOf(s) === i)).toEqual(['reading', 'verifying', 'importing', 'uploading']);
    const headers = { authorization: `Bearer ${owner.token}` };
    const pulled = PullResponse.parse((await app.inject({ method: 'GET', url: `/api/vaults/${fixture.vaultId}/ops?after=0&limit=1000`, headers })).json());
    expect(pulled.headSeq).toBe(fixture.ops.length);

    // Run again: the import is done already (not sent twice), the missing chunks are uploaded.
    const again: RestoreProgress[] = [];
    const plan = await restoreVaultFromNetwork(owner.deps, fixture.vaultId, (p) => again.push(p));
    expect(again.at(-1)).toEqual({ step: 'done', vaultId: fixture.vaultId, name: 'Field notes' });
    expect(plan.counts).toEqual({ folders: 1, files: 2, memos: 1 });
    // R98: the result says where the history ends (nothing was passed over here).
    expect(plan.endNotice).toMatch(new RegExp(`^The history is restored to seq ${fixture.ops.length}, received [0-9-]+ [0-9:]+ UTC: its last operation\\.$`));
    const after = PullResponse.parse((await app.inject({ method: 'GET', url: `/api/vaults/${fixture.vaultId}/ops?after=0&limit=1000`, headers })).json());
    expect(after.ops.map((entry) => entry.op.id)).toEqual(fixture.ops.map((entry) => entry.op.id));
    for (const { blobId, file } of fixture.files) {
      for (const [index, chunk] of file.chunks.entries()) {
        const answer = await app.inject({ method: 'GET', url: `/api/vaults/${fixture.vaultId}/blobs/${blobId}/chunks/${index}`, headers });
        expect([blobId, index, answer.statusCode, Buffer.from(answer.rawPayload).equals(chunk)]).toEqual([blobId, index, 200, true]);
      }
    }

    // Once more: nothing left to do, still nothing imported twice.
    expect((await restoreVaultFromNetwork(owner.deps, fixture.vaultId)).headSeq).toBe(fixture.ops.length);
    const last = PullResponse.parse((await app.inject({ method: 'GET', url: `/api/vaults/${fixture.vaultId}/ops?after=0&limit=1000`, headers })).json());
    expect(last.headSeq).toBe(fixture.ops.length);
  }, 300_000);
});

describeEachDatabase('[R96] a tampered history on the network is refused by name, and nothing is imported', (env) => {
  let tampered: TestGateway;
  let app: FastifyInstance;

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(work, 'tampered-'));
    tampered = new TestGateway(dir);
    await tampered.start();
    const wallet = JSON.parse(fs.readFileSync(tampered.walletFile, 'utf8')) as JWKInterface;
    const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
    const run = (ops: SequencedOperation[]): VaultHistoryRun => ({ format: 'cairn-vault-history', version: 1, vaultId: fixture.vaultId, seqFrom: ops[0]!.seq, seqTo: ops.at(-1)!.seq, ops });
    const later = structuredClone(fixture.ops.slice(2));
    // The folder's creation moved to another time: its signature no longer verifies.
    later[0]!.op.createdAt += 1;
    const arweave = arweaveFor(tampered.url);
    for (const part of [fixture.ops.slice(0, 2), later]) {
      const tx = await arweave.createTransaction({ data: json(run(part)) }, wallet);
      for (const tag of historyItemTags(fixture.vaultId, part[0]!.seq, part.at(-1)!.seq)) tx.addTag(tag.name, tag.value);
      await arweave.transactions.sign(tx, wallet);
      await arweave.transactions.post(tx);
    }
    await tampered.mine();
    app = await env.buildApp({ arweave: { gatewayUrl: tampered.url, wallet, startRelay: false } });
  }, 120_000);

  afterAll(async () => {
    await tampered?.stop();
  });

  it('[R96] names the refused operation; the server has no trace of the vault', async () => {
    const session = await newSession(new ServerTestClient(app), env.dataDir, fixture.owner);
    const crypto = createCryptoApi();
    await crypto.loadPendingWallet(fixture.owner.phrase.split(' '));
    await crypto.activatePendingWallet();
    const fetch = injectFetch(() => app, () => session.token) as FetchLike;
    const seq = fixture.ops[2]!.seq;
    await expect(restoreVaultFromNetwork({ api: createApiClient({ fetch }), fetch, crypto }, fixture.vaultId)).rejects.toMatchObject({
      code: 'TAMPERED',
      message: `Operation ${seq} of vault ${fixture.vaultId} is refused: its signature does not verify. The history on the network was changed.`,
    });
    const pulled = await app.inject({ method: 'GET', url: `/api/vaults/${fixture.vaultId}/ops?after=0&limit=10`, headers: { authorization: `Bearer ${session.token}` } });
    expect(pulled.statusCode).toBe(404);
  });
});
