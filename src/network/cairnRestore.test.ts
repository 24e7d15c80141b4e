/**
 * `cairn restore` end to end (issue 19, docs/SYNC_SPEC.md R84-R88, R89): a real device makes a
 * PRIVATE PERMANENT vault on the REAL server (SQLite and PostgreSQL) with folders, a file of
 * three chunks, a note, a hidden file, a chat message and an invited viewer; its operations (as
 * the pull API serves them) and its stored bytes are posted to a REAL arlocal in R84 runs and R85
 * file items, signed by a throwaway wallet, as the relay does. Then the `cairn` bin runs as a
 * child process, with no Cairn server in the picture, and must write every file byte for byte
 * (for the owner and for the viewer), pass over a forged run and a forged file item of another
 * wallet and a stranger's runs after the vault's end (R98: never fatal, said in the output), and fail with one clear line and its exit code on a wrong phrase, an unknown id, a
 * tampered run (naming its seq), a tampered export chunk (naming the file), an unreachable
 * gateway and a non-empty folder. The encrypted export (R87) is read offline with the same checks.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { arweaveFor, type JWKInterface } from '../../server/arweave/arweaveClient';
import { bytesToHex } from '../crypto/encoding';
import { deriveWalletKeysFromEntropy } from '../crypto/keys';
import { signOperation } from '../crypto/operations';
import { generatePhraseEntropy } from '../crypto/phrase';
import { freePort, fundedWallet } from '../../server/arweave/embeddedArlocal';
import { ApiClient as ServerTestClient } from '../../server/testing/ApiClient';
import { TestGateway } from '../../server/testing/arlocal';
import { describeEachDatabase } from '../../server/testing/databases';
import { newSession } from '../../server/testing/flows';
import { TestUser } from '../../server/testing/TestUser';
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../workers/transfer/createTransferApi';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import { CHUNK_SIZE, PullResponse, type SequencedOperation } from '../protocol/vaults';
import { CairnDb } from '../storage/db';
import { getChildren } from '../storage/vaultStore';
import { startSync, stopSync } from '../sync/index';
import { postMemo } from '../sync/memoActions';
import { saveNote } from '../sync/noteActions';
import { setCurrentSync } from '../sync/currentSync';
import * as members from '../sync/memberActions';
import { as, device } from '../sync/testing/realDevices';
import { injectFetch } from '../sync/testing/realServer';
import { forgetPickedFiles } from '../sync/uploadQueue';
import * as actions from '../sync/vaultActions';
import { fileItemTags, historyItemTags, type VaultHistoryRun as HistoryRun } from '../protocol/vaultHistory';
import { writeEncryptedExport } from './encryptedExport';
import { incompressible } from '../../tests/fixtures/incompressible';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin', 'cairn.mjs');

interface CliRun {
  code: number | null;
  stderr: string;
}

/** The bin as a user runs it: the phrase on standard input, nothing else shared with this process. */
function cairn(args: string[], phrase: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end(`${phrase}\n`);
  });
}

/** The last line of a failed run: the one message a user reads. */
function lastLine(run: CliRun): string {
  return run.stderr.trim().split('\n').at(-1) ?? '';
}

/** Posts one item as its own transaction signed by `wallet` (R84/R85 tags), as a relay would. */
async function post(gateway: TestGateway, wallet: JWKInterface, data: Uint8Array, tags: { name: string; value: string }[]): Promise<string> {
  const arweave = arweaveFor(gateway.url);
  const tx = await arweave.createTransaction({ data }, wallet);
  for (const tag of tags) tx.addTag(tag.name, tag.value);
  await arweave.transactions.sign(tx, wallet);
  const uploader = await arweave.transactions.getUploader(tx);
  while (!uploader.isComplete) await uploader.uploadChunk();
  return tx.id;
}

function runOf(vaultId: string, ops: SequencedOperation[]): HistoryRun {
  return { format: 'cairn-vault-history', version: 1, vaultId, seqFrom: ops[0]!.seq, seqTo: ops.at(-1)!.seq, ops };
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** R98: a run from `seq` by a key that is no member of `vaultId`, as anyone with a wallet could post. */
async function strangersRun(vaultId: string, seq: number): Promise<HistoryRun> {
  const keys = await deriveWalletKeysFromEntropy(generatePhraseEntropy());
  const body = { type: 'folder.create', parentId: null, name: { clear: 'Mine now' } } as const;
  const op = await signOperation(keys.signingPrivateKey, { id: `stranger-${seq}`, vaultId, objectId: `stranger-${seq}`, author: bytesToHex(keys.signingPublicKey), createdAt: Date.now(), body });
  return runOf(vaultId, [{ seq, receivedAt: Date.now(), op }]);
}

describeEachDatabase('[R86] cairn restore: a permanent vault from the network alone', (env) => {
  let app: FastifyInstance;
  let user: TestUser;
  let token = '';
  let userId = '';
  const gateways: TestGateway[] = [];
  let work = '';

  beforeAll(async () => {
    app = await env.buildApp();
    user = await TestUser.create();
    const session = await newSession(new ServerTestClient(app), env.dataDir, user);
    token = session.token;
    userId = session.user.id;
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-restore-'));
  }, 60_000);

  afterAll(async () => {
    stopSync();
    forgetPickedFiles();
    for (const gateway of gateways) await gateway.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  async function startGateway(name: string): Promise<TestGateway> {
    const dir = path.join(work, name);
    fs.mkdirSync(dir);
    const gateway = new TestGateway(dir);
    gateways.push(gateway);
    await gateway.start();
    return gateway;
  }

  it('[R86] restores folders, a 3-chunk file, a note and the chat byte for byte, for the owner and a viewer; passes over forgeries; fails clearly [R87] the encrypted export too [R88] chat and timeline [R89]', async () => {
    const mark = `cr${Date.now().toString(36)}`;
    const big = incompressible(2 * CHUNK_SIZE + 4321, 11);
    const small = Buffer.from(`${mark} field notes\n`.repeat(50));
    const hidden = Buffer.from(`${mark} hidden`);
    const noteText = `# Camp ${mark}\n\nThe cairn is **north** of the lake.`;
    const message = `Meet at the cairn ${mark}`;

    // --- a private permanent vault on the real server, made by a real device ---------------
    const crypto = createCryptoApi();
    await crypto.loadPendingWallet(user.phrase.split(' '));
    await crypto.activatePendingWallet();
    const fetchLike = injectFetch(() => app, () => token);
    const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
    const api = createApiClient({ fetch: fetchLike as FetchLike });
    const me = { id: userId, publicSigningKey: user.publicSigningKey, address: user.address };
    const client = startSync(me, { db, api, crypto, transfer: createTransferApi({ fetch: fetchLike }), log: () => {} }, { pollIntervalMs: 0 });
    const vaultId = await actions.createVault({ title: `Expedition ${mark}`, description: '', tags: [], terms: '', isPublic: false, isCloud: false });
    await client.syncNow();
    const survey = await actions.createFolder(vaultId, null, 'Survey');
    await client.syncNow();
    const maps = await actions.createFolder(vaultId, survey, 'Maps');
    await client.syncNow();
    const surveyed = Date.UTC(2024, 6, 14, 9, 30);
    await actions.uploadFiles(vaultId, maps, [{ file: new File([new Uint8Array(big)], 'terrain.bin', { lastModified: surveyed }) }]);
    await actions.uploadFiles(vaultId, null, [{ file: new File([new Uint8Array(small)], 'notes.txt') }, { file: new File([new Uint8Array(hidden)], 'hidden.txt') }]);
    await client.syncNow();
    const noteName = await saveNote({ vaultId, folderId: survey, title: `Camp ${mark}`, text: noteText });
    await postMemo(vaultId, message);
    await client.syncNow();
    const hiddenNode = (await getChildren(db, userId, vaultId, null)).find((n) => n.name === 'hidden.txt')!;
    await actions.hideNodes(vaultId, [hiddenNode.id]);
    await client.syncNow();
    // A viewer, invited and accepted: the ring the invitation sealed to them opens the vault.
    const viewer = await device(env, 'viewer', () => app);
    const [invited] = await members.inviteMembers(vaultId, [{ email: viewer.user.email, role: 'VIEWER' }]);
    expect(invited?.status).toBe('invited');
    await viewer.client.syncNow();
    await as(viewer, () => members.acceptInvite(vaultId, (invited as { membershipId: string }).membershipId));
    viewer.client.stop();
    setCurrentSync(client);
    await client.syncNow();
    expect(await db.outbox.count()).toBe(0);
    stopSync();

    // --- what the relay would post: the log as stored, and each version's stored bytes -------
    const pulled = PullResponse.parse((await app.inject({ method: 'GET', url: `/api/vaults/${vaultId}/ops?after=0&limit=1000`, headers: { authorization: `Bearer ${token}` } })).json());
    const ops = pulled.ops;
    expect(ops.length).toBe(pulled.headSeq);
    const blobs = new Map<string, Buffer>();
    for (const { op } of ops) {
      const version = op.body.type === 'file.create' || op.body.type === 'file.addVersion' ? op.body.version : null;
      if (!version) continue;
      const chunks: Buffer[] = [];
      for (let i = 0; i < version.chunkCount; i++) {
        const response = await app.inject({ method: 'GET', url: `/api/vaults/${vaultId}/blobs/${version.blobId}/chunks/${i}`, headers: { authorization: `Bearer ${token}` } });
        expect(response.statusCode).toBe(200);
        chunks.push(response.rawPayload);
      }
      blobs.set(version.blobId, Buffer.concat(chunks));
      if (version.size === big.length) expect(version.chunkCount).toBe(3);
    }
    // Two runs, so the reader chains them.
    const split = 3;
    const runs = [runOf(vaultId, ops.slice(0, split)), runOf(vaultId, ops.slice(split))];
    const bigBlobId = [...blobs].find(([, bytes]) => bytes.length > 2 * CHUNK_SIZE)![0];

    // --- the network: genuine items, and forgeries by another wallet --------------------------
    const gateway = await startGateway('a');
    const relayWallet = JSON.parse(fs.readFileSync(gateway.walletFile, 'utf8')) as JWKInterface;
    const forger = await fundedWallet(gateway.url, path.join(work, 'forger.json'));
    // The forger's run for the same seqs comes first: an operation changed, so its signature fails.
    const forged = structuredClone(runs[1]!);
    forged.ops[0]!.op.createdAt += 1;
    await post(gateway, forger, json(forged), historyItemTags(vaultId, forged.seqFrom, forged.seqTo));
    // And a file item for the big file's blob that is not its stored bytes (an item of the right
    // size with the wrong bytes is restoreReader.test.ts's and the bad export's below: posting
    // 17 MiB more to arlocal takes a minute).
    await post(gateway, forger, new Uint8Array(4096), fileItemTags(vaultId, bigBlobId));
    // R98: a stranger's run right after the head, posted before the vault's own runs.
    const head = ops.length;
    const atHead = await strangersRun(vaultId, head + 1);
    await post(gateway, forger, json(atHead), historyItemTags(vaultId, head + 1, head + 1));
    for (const run of runs) await post(gateway, relayWallet, json(run), historyItemTags(vaultId, run.seqFrom, run.seqTo));
    for (const [blobId, bytes] of blobs) await post(gateway, relayWallet, new Uint8Array(bytes), fileItemTags(vaultId, blobId));
    await gateway.mine();
    // R98: in a later block, the forger's copy of the whole genuine history (one longer run, so
    // it would win the tie at seq 1 without the block order), then runs of theirs after its end.
    await post(gateway, forger, json(runOf(vaultId, ops)), historyItemTags(vaultId, 1, head));
    await post(gateway, forger, json(await strangersRun(vaultId, head + 1)), historyItemTags(vaultId, head + 1, head + 1));
    await post(gateway, forger, json(await strangersRun(vaultId, head + 10)), historyItemTags(vaultId, head + 10, head + 10));
    await gateway.mine();

    // --- the command, with no Cairn server ---------------------------------------------------
    const out = path.join(work, 'restored');
    const restored = await cairn(['restore', '--gateway', gateway.url, '--vault', `cairn://vault/${vaultId}`, '--out', out, '--with-chat'], user.phrase);
    expect(restored.stderr).toContain(`Restored vault "Expedition ${mark}"`);
    expect(restored.code).toBe(0);
    // R98: the user is told where the history ends and that strangers' items were passed over.
    expect(restored.stderr).toMatch(
      new RegExp(`The history is restored to seq ${head}, received [0-9-]+ [0-9:]+ UTC, where its signed chain ends: 3 item\\(s\\) on the gateway ${gateway.url.replace(/[.]/g, '\\.')} that claim later operations`),
    );
    expect(fs.readFileSync(path.join(out, 'Survey', 'Maps', 'terrain.bin')).equals(big)).toBe(true);
    expect(fs.readFileSync(path.join(out, 'notes.txt')).equals(small)).toBe(true);
    expect(fs.statSync(path.join(out, 'Survey', 'Maps', 'terrain.bin')).mtimeMs).toBe(surveyed);
    expect(fs.readFileSync(path.join(out, 'Survey', noteName), 'utf8')).toBe(noteText);
    expect(fs.existsSync(path.join(out, 'hidden.txt'))).toBe(false);
    const listing = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [`${e.name}/`, ...listing(path.join(dir, e.name)).map((p) => `${e.name}/${p}`)] : [e.name]));
    expect(listing(out).sort()).toEqual(['.cairn/', '.cairn/chat.json', '.cairn/timeline.json', 'Survey/', 'Survey/Maps/', 'Survey/Maps/terrain.bin', `Survey/${noteName}`, 'notes.txt'].sort());
    const chat = JSON.parse(fs.readFileSync(path.join(out, '.cairn', 'chat.json'), 'utf8')) as { format: string; memos: { message: string; author: string }[] };
    expect(chat.format).toBe('cairn-chat');
    expect(chat.memos.map((m) => [m.message, m.author])).toEqual([[message, user.publicSigningKey]]);
    const timeline = JSON.parse(fs.readFileSync(path.join(out, '.cairn', 'timeline.json'), 'utf8')) as { format: string; items: { action: string; name: string | null; authorName: string }[] };
    expect(timeline.format).toBe('cairn-timeline');
    const acts = timeline.items.map((item) => [item.action, item.name, item.authorName]);
    expect(acts[0]).toEqual(['vault.create', `Expedition ${mark}`, 'You']);
    expect(acts).toContainEqual(['folder.create', 'Maps', 'You']);
    expect(acts).toContainEqual(['file.upload', 'terrain.bin', 'You']);
    expect(acts).toContainEqual(['node.hide', 'hidden.txt', 'You']);

    // The viewer's own phrase opens the same vault (their ring came with the invitation).
    const viewerOut = path.join(work, 'viewer');
    const asViewer = await cairn(['restore', '--gateway', gateway.url, '--vault', vaultId, '--out', viewerOut], viewer.user.phrase);
    expect(asViewer.code, asViewer.stderr).toBe(0);
    expect(fs.readFileSync(path.join(viewerOut, 'Survey', noteName), 'utf8')).toBe(noteText);
    expect(fs.readFileSync(path.join(viewerOut, 'Survey', 'Maps', 'terrain.bin')).equals(big)).toBe(true);

    // Without --with-chat, no .cairn; a folder that is not empty is refused unless --force.
    const plain = path.join(work, 'plain');
    expect((await cairn(['restore', '--gateway', gateway.url, '--vault', vaultId, '--out', plain], user.phrase)).code).toBe(0);
    expect(fs.existsSync(path.join(plain, '.cairn'))).toBe(false);
    const again = await cairn(['restore', '--gateway', gateway.url, '--vault', vaultId, '--out', plain], user.phrase);
    expect([again.code, lastLine(again)]).toEqual([2, `cairn: ${plain} is not empty: choose an empty folder, or add --force to write into it.`]);

    // --- failures: one clear line and an exit code each ----------------------------------------
    const stranger = await TestUser.create();
    const wrong = await cairn(['restore', '--gateway', gateway.url, '--vault', vaultId, '--out', path.join(work, 'wrong')], stranger.phrase);
    expect([wrong.code, lastLine(wrong)]).toEqual([3, `cairn: This recovery phrase is not a member of vault ${vaultId}: check the 12 words.`]);
    const garbled = await cairn(['restore', '--gateway', gateway.url, '--vault', vaultId, '--out', path.join(work, 'garbled')], 'cairn lake north');
    expect([garbled.code, lastLine(garbled)]).toEqual([3, 'cairn: This is not a valid recovery phrase: enter the 12 words Cairn gave you, in order.']);
    const unknown = await cairn(['restore', '--gateway', gateway.url, '--vault', `nope${mark}`, '--out', path.join(work, 'unknown')], user.phrase);
    expect([unknown.code, lastLine(unknown)]).toEqual([4, `cairn: No history of vault nope${mark} is on the gateway ${gateway.url}: check the vault id and the gateway.`]);
    const closedPort = await freePort();
    const down = await cairn(['restore', '--gateway', `http://127.0.0.1:${closedPort}`, '--vault', vaultId, '--out', path.join(work, 'down')], user.phrase);
    expect([down.code, lastLine(down)]).toEqual([6, `cairn: Could not reach the gateway http://127.0.0.1:${closedPort}: connect ECONNREFUSED 127.0.0.1:${closedPort}.`]);
    for (const dir of ['wrong', 'garbled', 'unknown', 'down']) expect(fs.existsSync(path.join(work, dir))).toBe(false);

    // A gateway whose only run of the later seqs was changed: the refused operation is named.
    const tamperedGateway = await startGateway('b');
    const tamperedWallet = JSON.parse(fs.readFileSync(tamperedGateway.walletFile, 'utf8')) as JWKInterface;
    const tampered = structuredClone(runs[1]!);
    const victim = tampered.ops[2]!;
    victim.op.objectId = `${victim.op.objectId.slice(0, -1)}${victim.op.objectId.endsWith('A') ? 'B' : 'A'}`;
    await post(tamperedGateway, tamperedWallet, json(runs[0]), historyItemTags(vaultId, runs[0]!.seqFrom, runs[0]!.seqTo));
    await post(tamperedGateway, tamperedWallet, json(tampered), historyItemTags(vaultId, tampered.seqFrom, tampered.seqTo));
    await tamperedGateway.mine();
    const refused = await cairn(['restore', '--gateway', tamperedGateway.url, '--vault', vaultId, '--out', path.join(work, 'tampered')], user.phrase);
    expect([refused.code, lastLine(refused)]).toEqual([5, `cairn: Operation ${victim.seq} of vault ${vaultId} is refused: its signature does not verify. The history on the network was changed.`]);

    // --- R87: the encrypted export, offline ----------------------------------------------------
    const writeExport = async (file: string, blobOf: (blobId: string, bytes: Buffer) => Buffer) => {
      await writeEncryptedExport(Writable.toWeb(fs.createWriteStream(file)) as WritableStream<Uint8Array>, {
        vaultId,
        runs,
        blobs: [...blobs].map(([blobId, bytes]) => ({ blobId, data: new Uint8Array(blobOf(blobId, bytes)) })),
        exportedAt: Date.now(),
      });
    };
    const exportFile = path.join(work, 'vault.cairn.zip');
    await writeExport(exportFile, (_, bytes) => bytes);
    const offline = path.join(work, 'offline');
    const fromExport = await cairn(['restore', '--from', exportFile, '--out', offline], user.phrase);
    expect(fromExport.code, fromExport.stderr).toBe(0);
    expect(fs.readFileSync(path.join(offline, 'Survey', 'Maps', 'terrain.bin')).equals(big)).toBe(true);
    expect(fs.readFileSync(path.join(offline, 'Survey', noteName), 'utf8')).toBe(noteText);
    expect(fs.readFileSync(path.join(offline, 'notes.txt')).equals(small)).toBe(true);

    // One byte of the second chunk changed: the file is named, and nothing of it is left behind.
    const badExport = path.join(work, 'bad.cairn.zip');
    await writeExport(badExport, (blobId, bytes) => {
      if (blobId !== bigBlobId) return bytes;
      const copy = Buffer.from(bytes);
      copy[CHUNK_SIZE + 100] = copy[CHUNK_SIZE + 100]! ^ 1;
      return copy;
    });
    const badOut = path.join(work, 'bad');
    const bad = await cairn(['restore', '--from', badExport, '--out', badOut], user.phrase);
    expect(bad.code).toBe(5);
    expect(lastLine(bad)).toBe(
      `cairn: The file "Survey/Maps/terrain.bin" has no intact copy on the export file bad.cairn.zip (item blobs/${bigBlobId}: chunk 2 of 3 does not match its signed hash).`,
    );
    expect(fs.readdirSync(path.join(badOut, 'Survey', 'Maps'))).toEqual([]);
  }, 600_000);
});
