/**
 * 'Upload zip & unpack' in a PRIVATE vault (issue 19, docs/SYNC_SPEC.md R82-R83), on the real
 * path: the unzip worker's code (createUnzipApi) reads a zip made by a writer of its own, its
 * entries go through uploadFiles with the REAL crypto and transfer APIs to the REAL server
 * (SQLite and PostgreSQL). Every request the device sends is recorded on its way out: no entry
 * name and no byte of content may be in one. A second device of the user then pulls, opens the
 * sealed names and downloads every file byte for byte, in its folders, empty folders included.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiClient as ServerTestClient } from '../../server/testing/ApiClient';
import { describeEachDatabase } from '../../server/testing/databases';
import { newSession } from '../../server/testing/flows';
import { TestUser } from '../../server/testing/TestUser';
import { makeZip } from '../../tests/fixtures/zipArchive';
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../workers/transfer/createTransferApi';
import { createUnzipApi } from '../../workers/zip/createUnzipApi';
import { UNPACK_FAILURE } from '../domain/zipUnpackRules';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import { CHUNK_SIZE } from '../protocol/vaults';
import { CairnDb } from '../storage/db';
import type { NodeRecord } from '../storage/vaultRecords';
import { getChildren, getUploads } from '../storage/vaultStore';
import { downloadFileVersion } from './downloadFile';
import { startSync, stopSync } from './index';
import { SyncClient } from './SyncClient';
import { injectFetch } from './testing/realServer';
import { forgetPickedFiles } from './uploadQueue';
import * as actions from './vaultActions';
import { incompressible } from '../../tests/fixtures/incompressible';

/** Every request a device sent: method, URL, headers and body, as text for searching. */
class Wire {
  readonly sent: string[] = [];
  /** Chunks sent, one PUT each or several in a batch POST (the manifest line names them). */
  putChunks = 0;

  wrap(inner: typeof fetch): typeof fetch {
    return (async (input: string | URL | Request, init: RequestInit = {}) => {
      const headers: string[] = [];
      new Headers(init.headers).forEach((value, key) => headers.push(`${key}: ${value}`));
      const body = init.body instanceof Blob ? Buffer.from(await init.body.arrayBuffer()) : ArrayBuffer.isView(init.body) ? Buffer.from(init.body.buffer, init.body.byteOffset, init.body.byteLength) : init.body;
      if (init.method === 'PUT' && /\/chunks\/\d+$/.test(String(input))) this.putChunks += 1;
      if (init.method === 'POST' && /\/blobs\/chunks$/.test(String(input)) && Buffer.isBuffer(body)) {
        this.putChunks += (JSON.parse(body.subarray(0, body.indexOf(0x0a)).toString('utf8')) as { chunks: unknown[] }).chunks.length;
      }
      // latin1 keeps every byte of a binary body as one character, so a plaintext run is found.
      this.sent.push(`${init.method ?? 'GET'} ${String(input)}\n${headers.join('\n')}\n${Buffer.isBuffer(body) ? body.toString('latin1') : String(body ?? '')}`);
      return inner(input, init);
    }) as typeof fetch;
  }

  /** The requests that carried `needle` (as UTF-8 text, or as raw bytes). */
  carrying(needle: string | Buffer): string[] {
    const text = typeof needle === 'string' ? Buffer.from(needle, 'utf8').toString('latin1') : needle.toString('latin1');
    return this.sent.filter((request) => request.includes(text));
  }
}

describeEachDatabase('[R82] upload zip & unpack into a private vault', (env) => {
  let app: FastifyInstance;
  let user: TestUser;
  let token = '';
  let userId = '';

  beforeAll(async () => {
    app = await env.buildApp();
    user = await TestUser.create();
    const session = await newSession(new ServerTestClient(app), env.dataDir, user);
    token = session.token;
    userId = session.user.id;
  }, 60_000);

  afterAll(() => {
    stopSync();
    forgetPickedFiles();
  });

  async function device(wire: Wire) {
    const crypto = createCryptoApi();
    await crypto.loadPendingWallet(user.phrase.split(' '));
    await crypto.activatePendingWallet();
    const fetchLike = wire.wrap(injectFetch(() => app, () => token));
    return {
      db: new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange }),
      crypto,
      api: createApiClient({ fetch: fetchLike as FetchLike }),
      transfer: createTransferApi({ fetch: fetchLike }),
    };
  }

  const me = () => ({ id: userId, publicSigningKey: user.publicSigningKey, address: user.address });

  it('[R82] entries are sealed and encrypted on the device; another device opens the same folders and bytes [R83] hostile names are reported', async () => {
    const mark = `zp${Date.now().toString(36)}`;
    const names = { survey: `Survey ${mark}`, maps: `Maps ${mark}`, empty: `Empty ${mark}`, index: `index ${mark}.txt`, terrain: `terrain ${mark}.bin`, top: `top ${mark}.md` };
    const index = Buffer.from(`${mark} survey index line\n`.repeat(300));
    // Two chunks of bytes that deflate cannot shrink, and a short text stored as it is.
    const terrain = incompressible(CHUNK_SIZE + 4321, 7);
    const top = Buffer.from(`# ${mark} at the archive root`);
    const zip = makeZip([
      { name: `${names.survey}/` },
      { name: `${names.survey}/${names.index}`, data: index },
      { name: `${names.survey}/${names.maps}/${names.terrain}`, data: terrain },
      { name: `${names.survey}/${names.empty}/` },
      { name: `${names.top}`, data: top, isStored: true },
      { name: `../escape ${mark}.txt`, data: Buffer.from(`${mark} outside`) },
      { name: `/abs ${mark}.txt`, data: Buffer.from(`${mark} absolute`) },
    ]);

    const unpacked = await createUnzipApi().unpack(new Blob([new Uint8Array(zip)]));
    expect(unpacked.failures).toEqual([
      { name: `../escape ${mark}.txt`, message: UNPACK_FAILURE.unsafe },
      { name: `/abs ${mark}.txt`, message: UNPACK_FAILURE.unsafe },
    ]);

    const wire = new Wire();
    const a = await device(wire);
    const client = startSync(me(), { db: a.db, api: a.api, crypto: a.crypto, transfer: a.transfer, log: () => {} }, { pollIntervalMs: 0 });
    const vaultId = await actions.createVault({ title: `Vault ${mark}`, description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    await client.syncNow();
    await actions.uploadFiles(vaultId, null, unpacked.files, unpacked.emptyFolders);
    await client.syncNow();
    expect((await getUploads(a.db, userId)).map((u) => u.state)).toEqual(['done', 'done', 'done']);
    expect(await a.db.outbox.count()).toBe(0);

    // What the server was sent: the operations and the chunks (the check could see them) ...
    expect(wire.carrying(`/vaults/ops`).length).toBeGreaterThan(0);
    expect(wire.putChunks).toBeGreaterThanOrEqual(4);
    // ... and in none of them an entry's name, a word of its text or a run of its bytes.
    for (const name of [...Object.values(names), mark]) expect(wire.carrying(name), name).toEqual([]);
    expect(wire.carrying(index.subarray(0, 64))).toEqual([]);
    expect(wire.carrying(terrain.subarray(CHUNK_SIZE, CHUNK_SIZE + 64))).toEqual([]);
    expect(wire.carrying(terrain.subarray(1000, 1064))).toEqual([]);
    stopSync();

    // Another device of the user: the tree as in the archive, the bytes as they were.
    const b = await device(new Wire());
    const other = new SyncClient({ db: b.db, api: b.api, crypto: b.crypto, transfer: b.transfer, log: () => {} }, { pollIntervalMs: 0 });
    other.start(userId, me());
    await other.syncNow();
    const childrenOf = async (parentId: string | null) => (await getChildren(b.db, userId, vaultId, parentId)).map((n: NodeRecord) => [n.kind, n.name, n.id] as const);
    const root = await childrenOf(null);
    expect(root.map(([kind, name]) => [kind, name]).sort()).toEqual([
      ['file', names.top],
      ['folder', names.survey],
    ]);
    const survey = await childrenOf(root.find(([, name]) => name === names.survey)![2]);
    expect(survey.map(([kind, name]) => [kind, name]).sort()).toEqual([
      ['file', names.index],
      ['folder', names.empty],
      ['folder', names.maps],
    ]);
    expect(await childrenOf(survey.find(([, name]) => name === names.empty)![2])).toEqual([]);
    const maps = await childrenOf(survey.find(([, name]) => name === names.maps)![2]);
    expect(maps.map(([kind, name]) => [kind, name])).toEqual([['file', names.terrain]]);

    const bytesOf = async (id: string) => Buffer.from(await (await downloadFileVersion(other.context, vaultId, id)).arrayBuffer());
    expect((await bytesOf(maps[0]![2])).equals(terrain)).toBe(true);
    expect((await bytesOf(survey.find(([, name]) => name === names.index)![2])).equals(index)).toBe(true);
    expect((await bytesOf(root.find(([, name]) => name === names.top)![2])).equals(top)).toBe(true);
    other.stop();
  }, 120_000);
});
