/**
 * Pulls page by page (pull.ts): the projection kept in memory from page to page and the next page
 * fetched while one is written must give exactly what one page, or a rebuild from the cached
 * operations, gives; and a page lands with its cursor or not at all, once, whatever runs beside it.
 * Fakes at the ports (FakeVaultServer, FakeVaultCrypto), real Dexie on a fresh fake-indexeddb.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE, type Field, type FileVersion, type OperationBody, PullResponse, PushResponse } from '../protocol/vaults';
import { ApiError } from '../protocol/errors';
import { CairnDb } from '../storage/db';
import { getVaults } from '../storage/vaultStore';
import type { VaultRecord } from '../storage/vaultRecords';
import { wipeAccountData } from '../storage/wipeAccountData';
import { enqueueOperation } from './outbox';
import { FIRST_PULL_PAGE, pullAll, pullVault, type PullStats } from './pull';
import { nodeListKey } from '../storage/nodeListKey';
import { readRebuildInputs, rebuildVaultState } from './rebuild';
import { replaceVaultState } from '../storage/vaultProjection';
import type { SyncContext } from './SyncContext';
import { FakeVaultCrypto, signFake } from './testing/FakeVaultCrypto';
import { FakeVaultServer } from './testing/FakeVaultServer';

const USER = { id: 'acc1', publicSigningKey: 'c'.repeat(64), address: 'A'.repeat(43) };
const VAULT = 'vault1';
const FOLDERS = ['F0', 'F1', 'F2', 'F3'];
/** Each folder's parent. */
const FOLDER_PARENT: Record<string, string | null> = { F0: null, F1: 'F0', F2: 'F1', F3: null };
const FILE_COUNT = 40;

let server: FakeVaultServer;
const dbs: CairnDb[] = [];

function newDb(): CairnDb {
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  dbs.push(db);
  return db;
}

/** A device: its own crypto worker, over `db` (a second context over one db is a second tab). */
function device(db: CairnDb = newDb()): SyncContext {
  let ids = 0;
  return {
    db,
    api: server.api,
    crypto: new FakeVaultCrypto(),
    transfer: null,
    now: () => 1_800_000_000_000,
    newId: () => `local${++ids}`,
    log: () => {},
    accountId: USER.id,
    user: USER,
    requestPush: () => {},
    requestUploads: () => {},
  };
}

function version(versionId: string, size: number): FileVersion {
  return {
    versionId,
    blobId: `blob-${versionId}`,
    size,
    storedSize: size + 16,
    chunkSize: CHUNK_SIZE,
    chunkCount: 1,
    chunkHashes: ['b'.repeat(64)],
    mimeType: { key: 0, c: 'x' },
    lastModified: 0,
  };
}

/**
 * The server's log for VAULT: folders, files, added versions, renames, moves, hides, restores,
 * deletes and one forged operation, all signed by USER except the forged one.
 * Answers the ids of the files and the seq of the forged operation.
 */
async function seedLog(): Promise<{ files: string[]; forgedSeq: number }> {
  const author = new FakeVaultCrypto();
  const { sealedKeys } = await author.createVaultKeys(VAULT);
  const seal = async (objectId: string, name: string, text: string) => (await author.sealFields(VAULT, objectId, { [name]: text }))[name as 'name']!;
  sealName = (objectId, text) => seal(objectId, 'name', text);
  let n = 0;
  const sign = (objectId: string, body: OperationBody) =>
    signFake({ id: `op${++n}`, vaultId: VAULT, objectId, author: USER.publicSigningKey, createdAt: n, body });
  const create = sign(VAULT, { type: 'vault.create', isPublic: false, isCloud: true, name: await seal(VAULT, 'name', 'Family'), ownerKeys: sealedKeys });
  await server.api.post('/vaults/ops', { ops: [create] }, PushResponse);

  for (const id of FOLDERS) server.inject(sign(id, { type: 'folder.create', parentId: FOLDER_PARENT[id]!, name: await seal(id, 'name', `Folder ${id}`) }));
  const files: string[] = [];
  let forgedSeq = 0;
  for (let i = 0; i < FILE_COUNT; i++) {
    const id = `file${i}`;
    files.push(id);
    const v = version(`ver${i}`, 10 + i);
    v.mimeType = await seal(v.versionId, 'mimeType', 'text/plain');
    server.inject(sign(id, { type: 'file.create', parentId: FOLDERS[i % 4]!, name: await seal(id, 'name', `f${i}.txt`), version: v }));
    if (i % 7 === 3) {
      const added = version(`ver${i}b`, 1_000 + i);
      added.mimeType = await seal(added.versionId, 'mimeType', 'application/pdf');
      server.inject(sign(id, { type: 'file.addVersion', version: added }));
    }
    if (i % 5 === 0) server.inject(sign(id, { type: 'node.rename', name: await seal(id, 'name', `renamed ${i}.txt`) }));
    if (i === 20) {
      const forged = sign('file1', { type: 'node.rename', name: await seal('file1', 'name', 'Hacked') });
      server.inject({ ...forged, createdAt: forged.createdAt + 1 });
      forgedSeq = server.vaults.get(VAULT)!.summary.headSeq;
    }
  }
  server.inject(sign('file3', { type: 'node.move', parentId: 'F3' }));
  server.inject(sign('F2', { type: 'node.hide' }));
  server.inject(sign('file4', { type: 'node.hide' }));
  server.inject(sign('file4', { type: 'node.restore', parentId: 'F2' }));
  server.inject(sign('file6', { type: 'node.hide' }));
  server.inject(sign('file6', { type: 'node.delete' }));
  server.inject(sign(VAULT, { type: 'vault.rename', name: await seal(VAULT, 'name', 'Family 2') }));
  return { files, forgedSeq };
}

/** Seals a name under VAULT's key, as seedLog's author (set by seedLog). */
let sealName: (objectId: string, text: string) => Promise<Field>;

/** What a device holds for VAULT, in a comparable order, without the per-write stamp. */
async function projection(db: CairnDb) {
  const { projectionStamp: _stamp, ...vault } = (await db.vaults.get([USER.id, VAULT])) as VaultRecord;
  const nodes = (await db.nodes.where('[accountId+vaultId]').equals([USER.id, VAULT]).toArray()).sort((a, b) => a.id.localeCompare(b.id));
  const versions = (await db.versions.where('[accountId+vaultId]').equals([USER.id, VAULT]).toArray()).sort((a, b) => a.versionId.localeCompare(b.versionId));
  return { vault, nodes, versions };
}

async function cachedSeqs(db: CairnDb): Promise<number[]> {
  return (await readRebuildInputs(db, USER.id, VAULT)).ops.map((o) => o.seq);
}

/** Resolves once the stored cursor of VAULT reaches `seq`. */
async function cursorReaches(db: CairnDb, seq: number): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    if (((await db.vaults.get([USER.id, VAULT]))?.cursor ?? 0) >= seq) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error(`The cursor never reached ${seq}`);
}

/** A gate a fake pull waits at until `open()`. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

let reference: Awaited<ReturnType<typeof projection>>;
let head: number;
let seeded: { files: string[]; forgedSeq: number };

beforeEach(async () => {
  server = new FakeVaultServer(USER);
  seeded = await seedLog();
  head = server.vaults.get(VAULT)!.summary.headSeq;
  // The reference: the whole log in one page.
  const single = device();
  const stats = await pullAll(single);
  expect(stats).toEqual({ applied: head - 1, unverified: 1 });
  expect(await server.api.get(`/vaults/${VAULT}/ops?after=0&limit=1000`, PullResponse)).toMatchObject({ hasMore: false });
  reference = await projection(single.db);
});

afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

describe('[S6] pulling page by page', () => {
  it('many small pages give the same projection as one page, and as a rebuild from the cached operations', async () => {
    server.pullPageMax = 4;
    const paged = device();
    const stats = await pullAll(paged);
    expect(stats).toEqual({ applied: head - 1, unverified: 1 });
    const got = await projection(paged.db);
    expect(got).toEqual(reference);
    expect(got.vault).toMatchObject({ name: 'Family 2', cursor: head, headSeq: head });

    // Every operation cached once, in order, the forged one too but marked unverified.
    const { vault, ops, outbox } = await readRebuildInputs(paged.db, USER.id, VAULT);
    expect(ops.map((o) => o.seq)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(ops.filter((o) => !o.isVerified).map((o) => o.seq)).toEqual([seeded.forgedSeq]);
    const rebuilt = rebuildVaultState(vault!, ops, outbox);
    // Stored nodes carry their list key, which the database derives on every write.
    expect([...rebuilt.nodes.values()].map((n) => ({ ...n, listKey: nodeListKey(n) })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(got.nodes);
    expect([...rebuilt.versions.values()].sort((a, b) => a.versionId.localeCompare(b.versionId))).toEqual(got.versions);
  });

  it('folder sizes total the active files below them through active folders, page after page', async () => {
    server.pullPageMax = 3;
    const paged = device();
    await pullAll(paged);
    const nodes = new Map((await projection(paged.db)).nodes.map((node) => [node.id, node]));
    // Worked out here from the log, independently of applyOperation.
    const latestSize = (i: number) => (i % 7 === 3 ? 1_000 + i : 10 + i);
    const parentOf = (i: number) => (i === 3 ? 'F3' : i === 4 ? 'F2' : FOLDERS[i % 4]!);
    const isActive = (id: string | null): boolean => id === null || (id !== 'F2' && isActive(FOLDER_PARENT[id]!));
    const expected: Record<string, number> = { F0: 0, F1: 0, F2: 0, F3: 0 };
    for (let i = 0; i < FILE_COUNT; i++) {
      if (i === 6) continue; // deleted
      for (let folder: string | null = parentOf(i); folder && isActive(folder); folder = FOLDER_PARENT[folder]!) expected[folder]! += latestSize(i);
    }
    expect(Object.fromEntries(FOLDERS.map((id) => [id, nodes.get(id)!.size]))).toEqual(expected);
    expect(expected.F0).toBeGreaterThan(expected.F1!);
    expect(nodes.get('file1')!.name).toBe('f1.txt'); // the forged rename never applied
    expect(nodes.get('file10')).toMatchObject({ name: 'renamed 10.txt', versionCount: 2, size: 1_010, mimeType: 'application/pdf' });
  });

  it('a pull cut off between pages keeps what it applied and resumes at its cursor, applying nothing twice', async () => {
    server.pullPageMax = 5;
    const ctx = device();
    server.beforePull = (_vaultId, after) => {
      if (after === 15) throw new TypeError('Failed to fetch');
    };
    await expect(pullAll(ctx)).rejects.toThrow('Failed to fetch');
    // Pages 1-3 landed with their cursor; nothing of what followed.
    expect((await ctx.db.vaults.get([USER.id, VAULT]))!.cursor).toBe(15);
    expect(await cachedSeqs(ctx.db)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));

    server.beforePull = null;
    const stats: PullStats = { applied: 0, unverified: 0 };
    await pullVault(ctx, VAULT, stats);
    expect(stats.applied + stats.unverified).toBe(head - 15);
    expect(await cachedSeqs(ctx.db)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(await projection(ctx.db)).toEqual(reference);
  });

  it('[R142] a large vault: the first page is short and its files are on the device while the rest is still on its way', async () => {
    // More operations than the short first page: 300 more files in F0.
    let n = 10_000;
    for (let i = 0; i < 300; i++) {
      const id = `more${i}`;
      const v = version(`morever${i}`, 5);
      server.inject(signFake({ id: `op${++n}`, vaultId: VAULT, objectId: id, author: USER.publicSigningKey, createdAt: n, body: { type: 'file.create', parentId: 'F0', name: await sealName(id, `more ${i}.txt`), version: v } }));
    }
    const total = server.vaults.get(VAULT)!.summary.headSeq;
    const asked: string[] = [];
    const held = gate();
    const ctx = device();
    const api = ctx.api;
    ctx.api = { ...api, get: (path, schema) => (asked.push(path), api.get(path, schema)) } as typeof api;
    server.beforePull = async (_vaultId, after) => {
      if (after > 0) await held.opened;
    };
    const pulling = pullAll(ctx);
    await cursorReaches(ctx.db, FIRST_PULL_PAGE);
    // The first page is on the device, nothing after it yet: its files can be listed already.
    expect((await ctx.db.vaults.get([USER.id, VAULT]))!.cursor).toBe(FIRST_PULL_PAGE);
    expect(await ctx.db.nodes.where('[accountId+vaultId]').equals([USER.id, VAULT]).count()).toBeGreaterThan(FIRST_PULL_PAGE / 2);
    held.open();
    await pulling;
    expect((await ctx.db.vaults.get([USER.id, VAULT]))!.cursor).toBe(total);
    expect(asked.filter((path) => path.includes('/ops?'))).toEqual([`/vaults/${VAULT}/ops?after=0&limit=${FIRST_PULL_PAGE}`, `/vaults/${VAULT}/ops?after=${FIRST_PULL_PAGE}&limit=1000`]);
    expect(await cachedSeqs(ctx.db)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });

  it('[crash safety] a page whose transaction fails leaves nothing behind: no operation, node or cursor of it', async () => {
    server.pullPageMax = 5;
    const ctx = device();
    // The page after seq 10 fails while its transaction writes (as a crash or a full disk would).
    let failing = true;
    ctx.db.opPages.hook('creating', (_key, page) => {
      if (failing && page.firstSeq === 11) throw new Error('disk full');
    });
    await expect(pullAll(ctx)).rejects.toThrow('disk full');
    expect((await ctx.db.vaults.get([USER.id, VAULT]))!.cursor).toBe(10);
    expect(await cachedSeqs(ctx.db)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    // Seq 11-15 add file3's second version and create files 4-6: none of it is stored.
    const nodeIds = (await ctx.db.nodes.toArray()).map((node) => node.id);
    expect(nodeIds).toContain('file2');
    expect(nodeIds).not.toContain('file4');
    expect(await ctx.db.versions.get([USER.id, 'ver3b'])).toBeUndefined();

    failing = false;
    await pullVault(ctx, VAULT);
    expect(await projection(ctx.db)).toEqual(reference);
    expect(await cachedSeqs(ctx.db)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
  });

  it('two pulls racing over one database (two tabs) apply and cache each operation once', async () => {
    server.pullPageMax = 3;
    const db = newDb();
    const tabA = device(db);
    const tabB = device(db);
    const [a, b] = await Promise.all([pullAll(tabA), pullAll(tabB)]);
    expect(a.applied + b.applied).toBe(head - 1);
    expect(a.unverified + b.unverified).toBe(1);
    expect(await cachedSeqs(db)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(await projection(db)).toEqual(reference);
  });

  it('a pull overtaken by another tab between two of its pages reads the vault again before going on', async () => {
    server.pullPageMax = 5;
    const db = newDb();
    const tabA = device(db);
    const tabB = device(db);
    const paused = gate();
    let isAPaused = false;
    let stopsB = true;
    server.beforePull = async (_vaultId, after) => {
      if (after === 10 && !isAPaused) {
        isAPaused = true;
        await paused.opened;
      }
      if (after === 20 && stopsB) throw new TypeError('Failed to fetch');
    };
    const pullingA = pullAll(tabA);
    await cursorReaches(db, 10);
    // Tab B applies seq 11-20 (it creates file10) while A waits with its copy of seq 1-10.
    await expect(pullAll(tabB)).rejects.toThrow('Failed to fetch');
    expect((await db.vaults.get([USER.id, VAULT]))!.cursor).toBe(20);
    stopsB = false;
    paused.open();
    await pullingA;
    // A went on from seq 21 (file10's second version and rename) on the stored projection, not on its copy.
    expect(await cachedSeqs(db)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(await projection(db)).toEqual(reference);
  });

  it('a write to the projection between two pages (the outbox) is kept: the pull reads the vault again', async () => {
    server.pullPageMax = 10;
    const ctx = device();
    const paused = gate();
    let held = false;
    server.beforePull = async (_vaultId, after) => {
      if (after === 10 && !held) {
        held = true;
        await paused.opened;
      }
    };
    const pulling = pullAll(ctx);
    // Page 1 (seq 1-10: the vault, the folders, file0-file3) is stored; page 2 waits at the server.
    await cursorReaches(ctx.db, 10);
    await enqueueOperation(ctx, { vaultId: VAULT, objectId: 'F1', body: { type: 'node.rename', name: { key: 0, c: 'x' } }, fields: { name: 'Pending name' } });
    paused.open();
    await pulling;

    const { nodes } = await projection(ctx.db);
    const f1 = nodes.find((node) => node.id === 'F1')!;
    // Later pages changed F1 (its size): the pending rename and its mark survived them.
    expect(f1).toMatchObject({ name: 'Pending name', pendingOpIds: ['local1'] });
    expect(f1.size).toBe(reference.nodes.find((node) => node.id === 'F1')!.size);
    const others = (list: typeof nodes) => list.filter((node) => node.id !== 'F1');
    expect(others(nodes)).toEqual(others(reference.nodes));
  });

  it('a cursor that went back between two pages (the account wiped) makes the pull start over, never leaving a gap', async () => {
    server.pullPageMax = 10;
    const ctx = device();
    const paused = gate();
    let held = false;
    server.beforePull = async (_vaultId, after) => {
      if (after === 20 && !held) {
        held = true;
        await paused.opened;
      }
    };
    const pulling = pullAll(ctx);
    await cursorReaches(ctx.db, 20);
    await wipeAccountData(USER.id, ctx.db);
    paused.open();
    await pulling;
    // The page after 20 was not applied on an empty projection: everything was pulled again.
    expect(await cachedSeqs(ctx.db)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    const got = await projection(ctx.db);
    expect(got.nodes).toEqual(reference.nodes);
    expect(got.versions).toEqual(reference.versions);
  });
});

describe('R50: a vault pulled before the device judged logs', () => {
  /** Makes `ctx`'s copy of VAULT look as a device before R50 left it: no judged log, `stranger` applied. */
  async function asBeforeTheJudge(ctx: SyncContext, strangerSeq: number): Promise<void> {
    await ctx.db.transaction('rw', [ctx.db.vaults, ctx.db.nodes, ctx.db.versions, ctx.db.memos, ctx.db.opPages, ctx.db.outbox, ctx.db.acceptedOps], async () => {
      const pages = await ctx.db.opPages.where('accountId').equals(USER.id).toArray();
      for (const page of pages) {
        const op = page.ops.find((o) => o.seq === strangerSeq);
        if (!op) continue;
        Object.assign(op, { isVerified: true, fields: { name: 'Planted' }, refusal: undefined });
        await ctx.db.opPages.put(page);
      }
      const { vault, ops, outbox } = await readRebuildInputs(ctx.db, USER.id, VAULT);
      await replaceVaultState(ctx.db, rebuildVaultState({ ...vault!, log: undefined }, ops, outbox));
    });
  }

  it('R50: its cached log is judged once on the device: an operation by a non-member is marked and the projection rebuilt without it', async () => {
    const stranger = new FakeVaultCrypto();
    await stranger.createVaultKeys(VAULT);
    const name = (await stranger.sealFields(VAULT, 'file2', { name: 'Planted' })).name!;
    server.inject(signFake({ id: 'stranger-op', vaultId: VAULT, objectId: 'file2', author: 'e'.repeat(64), createdAt: 1, body: { type: 'node.rename', name } }));
    const strangerSeq = server.vaults.get(VAULT)!.summary.headSeq;
    const ctx = device();
    await pullAll(ctx);
    expect((await ctx.db.nodes.get([USER.id, 'file2']))?.name).toBe('f2.txt');
    await asBeforeTheJudge(ctx, strangerSeq);
    expect((await ctx.db.nodes.get([USER.id, 'file2']))?.name).toBe('Planted');

    await pullVault(ctx, VAULT);
    expect((await ctx.db.nodes.get([USER.id, 'file2']))?.name).toBe('f2.txt');
    const { vault, ops } = await readRebuildInputs(ctx.db, USER.id, VAULT);
    expect(ops.find((o) => o.seq === strangerSeq)).toMatchObject({ isVerified: false, refusal: 'its author was not a member of the vault' });
    // The forged signature came first in the log: it is the problem shown.
    expect(vault?.log?.problem).toEqual({ seq: seeded.forgedSeq, reason: 'its signature does not verify' });
    expect(vault?.log?.seq).toBe(strangerSeq);
  });

  it('R50: a cached log that is not whole is dropped and the vault pulled again from its creation', async () => {
    const ctx = device();
    await pullAll(ctx);
    const first = await ctx.db.opPages.where('accountId').equals(USER.id).first();
    await ctx.db.opPages.delete([USER.id, VAULT, first!.firstSeq]);
    await ctx.db.vaults.update([USER.id, VAULT], { log: undefined });

    await pullVault(ctx, VAULT);
    expect(await cachedSeqs(ctx.db)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    const got = await projection(ctx.db);
    // The same vault, judged the same way (a rebuild leaves `rejection: null` where a pull leaves none).
    expect({ ...got, vault: { ...got.vault, rejection: got.vault.rejection ?? undefined } }).toEqual(reference);
  });
});

describe('pulling a vault whose membership ended', () => {
  it('R19: a pull answered 403 (revoked since the list was read) marks the membership ended: not pulled again, not listed, nothing thrown', async () => {
    const ctx = device();
    let pulls = 0;
    server.beforePull = () => {
      pulls += 1;
      throw new ApiError('FORBIDDEN', 'Your access to this vault was revoked');
    };
    await expect(pullAll(ctx)).resolves.toMatchObject({ applied: 0 });
    expect(pulls).toBe(1);
    expect(await ctx.db.vaults.get([USER.id, VAULT])).toMatchObject({ membershipStatus: 'REVOKED', role: 'REVOKED', cursor: 0 });
    expect(await getVaults(ctx.db, USER.id, 'active')).toEqual([]);

    // The list now says so too: the vault is not asked for again.
    server.vaults.get(VAULT)!.summary.membership = { ...server.vaults.get(VAULT)!.summary.membership, status: 'REVOKED', role: 'REVOKED', keys: null };
    await pullAll(ctx);
    expect(pulls).toBe(1);
  });

  it('other errors of a pull still fail the cycle (retried with backoff)', async () => {
    const ctx = device();
    server.beforePull = () => {
      throw new ApiError('INTERNAL', 'boom');
    };
    await expect(pullAll(ctx)).rejects.toThrow('boom');
  });
});
