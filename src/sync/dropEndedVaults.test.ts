/**
 * R56: a device lets go of a vault whose membership ended. The vault's tables are filled as a
 * member's device fills them (a pull through the fake server, then the outbox, uploads, drafts,
 * members, chat, offline chunks and the search index), then the membership ends through the path
 * the sync takes (GET /vaults saying REVOKED, or a pull refused with 403), and nothing of the vault
 * may be left but a tombstone, while another vault of the same account keeps everything.
 * Fakes at the ports (FakeVaultServer, FakeVaultCrypto, an in-memory Cache Storage), real Dexie
 * on a fresh fake-indexeddb, the real search index in-process.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSearchApi } from '../../workers/search/createSearchApi';
import { SearchIndex } from '../../workers/search/searchIndex';
import { ApiError } from '../protocol/errors';
import { CHUNK_SIZE, type FileVersion, type OperationBody, PushResponse } from '../protocol/vaults';
import { SearchIndexer } from '../search/SearchIndexer';
import { chunkCacheName } from '../storage/chunkCache';
import { CairnDb } from '../storage/db';
import { replaceMembers } from '../storage/memberStore';
import { draftDocName, registerDraft } from '../storage/noteDraftStore';
import { getVaults } from '../storage/vaultStore';
import type { NodeRecord } from '../storage/vaultRecords';
import { dropEndedVaults, onVaultDataDropped } from './dropEndedVaults';
import { pullAll } from './pull';
import { chunkPath, type SyncContext } from './SyncContext';
import { FakeVaultCrypto, signFake } from './testing/FakeVaultCrypto';
import { FakeVaultServer } from './testing/FakeVaultServer';
import { API_BASE } from './uploadQueue';

const USER = { id: 'acc1', publicSigningKey: 'c'.repeat(64), address: 'A'.repeat(43) };
/** The vault whose membership ends, and the one that stays. */
const GONE = 'vault-gone';
const KEPT = 'vault-kept';
const NAMES: Record<string, { vault: string; folder: string; file: string }> = {
  [GONE]: { vault: 'Merger talks', folder: 'Takeover', file: 'Acquisition terms.pdf' },
  [KEPT]: { vault: 'Family photos', folder: 'Holidays', file: 'Beach.jpg' },
};

/** Cache Storage as the browser has it, in memory: the per-account cache of offline chunks (R15). */
class MemoryCache {
  readonly entries = new Map<string, Response>();
  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
  async match(request: Request | string) {
    return this.entries.get(typeof request === 'string' ? request : request.url)?.clone();
  }
  async put(request: Request | string, response: Response) {
    this.entries.set(typeof request === 'string' ? request : request.url, response);
  }
  async delete(request: Request | string) {
    return this.entries.delete(typeof request === 'string' ? request : request.url);
  }
}
class MemoryCacheStorage {
  readonly caches = new Map<string, MemoryCache>();
  async has(name: string) {
    return this.caches.has(name);
  }
  async open(name: string) {
    let cache = this.caches.get(name);
    if (!cache) this.caches.set(name, (cache = new MemoryCache()));
    return cache;
  }
  async delete(name: string) {
    return this.caches.delete(name);
  }
}

let server: FakeVaultServer;
let db: CairnDb;
let cacheStorage: MemoryCacheStorage;
let indexer: SearchIndexer;
let ctx: SyncContext;
let uploadKicks: number;

function version(versionId: string): FileVersion {
  return {
    versionId,
    blobId: `blob-${versionId}`,
    size: 10,
    storedSize: 26,
    chunkSize: CHUNK_SIZE,
    chunkCount: 1,
    chunkHashes: ['b'.repeat(64)],
    mimeType: { key: 0, c: 'x' },
    lastModified: 0,
  };
}

/** Creates `vaultId` on the fake server with a folder, a file in it and a note draft update. */
async function seedVault(vaultId: string): Promise<void> {
  const author = new FakeVaultCrypto();
  const { sealedKeys } = await author.createVaultKeys(vaultId);
  const seal = async (objectId: string, name: 'name' | 'draft' | 'mimeType', text: string) => (await author.sealFields(vaultId, objectId, { [name]: text }))[name]!;
  let n = 0;
  const sign = (objectId: string, body: OperationBody) => signFake({ id: `${vaultId}-op${++n}`, vaultId, objectId, author: USER.publicSigningKey, createdAt: n, body });
  const names = NAMES[vaultId]!;
  await server.api.post('/vaults/ops', { ops: [sign(vaultId, { type: 'vault.create', isPublic: false, isCloud: true, name: await seal(vaultId, 'name', names.vault), ownerKeys: sealedKeys })] }, PushResponse);
  const folderId = `${vaultId}-folder`;
  const fileId = `${vaultId}-file`;
  const v = version(`${vaultId}-v1`);
  v.mimeType = await seal(v.versionId, 'mimeType', 'application/pdf');
  server.inject(sign(folderId, { type: 'folder.create', parentId: null, name: await seal(folderId, 'name', names.folder) }));
  server.inject(sign(fileId, { type: 'file.create', parentId: folderId, name: await seal(fileId, 'name', names.file), version: v }));
  server.inject(sign(fileId, { type: 'note.draft', baseVersionId: v.versionId, update: await seal(fileId, 'draft', 'AAEC') }));
}

/** Fills what a pull does not: chat, the outbox, an upload, members, a draft database, offline chunks. */
async function fillLocalTables(vaultId: string): Promise<void> {
  const accountId = USER.id;
  const fileId = `${vaultId}-file`;
  await db.memos.put({ accountId, vaultId, memoId: `${vaultId}-memo`, text: `About ${NAMES[vaultId]!.file}`, authorKey: USER.publicSigningKey, createdAt: 1, order: 1, reactions: [], pendingOpIds: [], rejection: null });
  const op = signFake({ id: `${vaultId}-queued`, vaultId, objectId: fileId, author: USER.publicSigningKey, createdAt: 5, body: { type: 'node.hide' } });
  await db.outbox.put({ accountId, opId: op.id, vaultId, op, queuedAt: 5, status: 'pending', error: null, waitsForUploadId: null, fields: {} });
  const uploadId = `${vaultId}-upload`;
  await db.uploads.put({
    accountId, uploadId, vaultId, fileId: `${vaultId}-new`, isNewFile: true, parentId: null, name: `Draft of ${NAMES[vaultId]!.file}`, versionId: `${vaultId}-v9`,
    blobId: `${vaultId}-b9`, sealedFileKey: null, fileType: 'application/pdf', size: 3, lastModified: 0, chunkCount: 1, chunkHashes: [null], sentBytes: 0,
    state: 'paused', error: null, createdAt: 1, batchId: 'batch',
  });
  await db.uploadFiles.put({ accountId, uploadId, file: new Blob(['abc']) });
  await replaceMembers(db, accountId, vaultId, [{
    membershipId: `${vaultId}-m`, userId: 'u2', email: 'owner@example.com', profileName: null, address: 'B'.repeat(43), publicSigningKey: 'd'.repeat(64),
    publicEncryptionKey: 'e'.repeat(64), role: 'OWNER', status: 'ACCEPTED', holdsKeys: true, isPasswordless: false, expiresAt: null, storageAllowance: null,
    invitedByUserId: null, createdAt: 1, updatedAt: 1,
  }]);
  const docName = draftDocName(accountId, vaultId, { noteId: fileId, baseVersionId: `${vaultId}-v1` });
  await openDraftDatabase(docName);
  await registerDraft(db, { accountId, docName, vaultId, noteId: fileId, baseVersionId: `${vaultId}-v1`, updatedAt: 1 });
  await db.vaults.update([accountId, vaultId], { keepOffline: true });
  const cache = await cacheStorage.open(chunkCacheName(accountId));
  await cache.put(`http://cairn.test${API_BASE}${chunkPath(vaultId, `blob-${vaultId}-v1`, 0)}`, new Response('ciphertext', { headers: { 'content-length': '10' } }));
}

/** A y-indexeddb database as the note editor leaves it (in the global fake IndexedDB). */
function openDraftDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onupgradeneeded = () => request.result.createObjectStore('updates', { autoIncrement: true });
    request.onsuccess = () => {
      request.result.close();
      resolve();
    };
    request.onerror = () => reject(request.error);
  });
}

async function draftDatabaseNames(): Promise<string[]> {
  return (await indexedDB.databases()).map((d) => d.name!).filter((name) => name.startsWith('cairn-note.'));
}

/** Every row of every table that belongs to `vaultId` (by its `vaultId` field), by table name. */
async function rowsOfVault(vaultId: string): Promise<Record<string, unknown[]>> {
  const found: Record<string, unknown[]> = {};
  for (const table of db.tables) {
    const rows = ((await table.toArray()) as Array<{ vaultId?: string }>).filter((row) => row.vaultId === vaultId);
    if (rows.length) found[table.name] = rows;
  }
  return found;
}

/** Marks the signed-in user's membership of `vaultId` as the server would after a revoke. */
function revokeOnServer(vaultId: string): void {
  const summary = server.vaults.get(vaultId)!.summary;
  summary.membership = { ...summary.membership, role: 'REVOKED', status: 'REVOKED' };
}

beforeEach(async () => {
  server = new FakeVaultServer(USER);
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  cacheStorage = new MemoryCacheStorage();
  vi.stubGlobal('caches', cacheStorage);
  uploadKicks = 0;
  ctx = {
    db,
    api: server.api,
    crypto: new FakeVaultCrypto(),
    transfer: null,
    now: () => 1_800_000_000_000,
    newId: () => globalThis.crypto.randomUUID(),
    log: () => {},
    accountId: USER.id,
    user: USER,
    requestPush: () => {},
    requestUploads: () => void (uploadKicks += 1),
  };
  for (const vaultId of [GONE, KEPT]) await seedVault(vaultId);
  await pullAll(ctx);
  for (const vaultId of [GONE, KEPT]) await fillLocalTables(vaultId);
  // Search as the signed-in shell runs it; only a dropped vault makes it run before the long delay.
  indexer = new SearchIndexer({ db, accountId: USER.id, api: createSearchApi(), delayMs: 3_600_000, saveIntervalMs: 3_600_000 });
  await indexer.start();
});

afterEach(async () => {
  indexer.stop();
  vi.unstubAllGlobals();
  db.close();
  for (const name of await draftDatabaseNames()) indexedDB.deleteDatabase(name);
});

/** Searches the saved index (what a later session would load) for `term`. */
async function savedSearch(term: string): Promise<string[]> {
  const saved = await db.searchIndex.get(USER.id);
  if (!saved) return [];
  return SearchIndex.fromSnapshot(saved.snapshot).search(term, 0, 50).hits.map((hit) => hit.name);
}

describe('R56: a device lets go of a vault whose membership ended', () => {
  it('R56: GET /vaults saying REVOKED drops every table, draft database, offline chunk and search entry of that vault, and nothing of another', async () => {
    // Everything is there first, so the checks below can fail.
    const before = await rowsOfVault(GONE);
    expect(Object.keys(before).sort()).toEqual(['members', 'memos', 'nodes', 'noteDraftUpdates', 'noteDrafts', 'opPages', 'outbox', 'uploads', 'vaults', 'versions']);
    const keptBefore = await rowsOfVault(KEPT);
    expect((await indexer.api.search('Acquisition', 0, 10)).total).toBe(1);
    expect(await savedSearch('Acquisition')).toEqual(['Acquisition terms.pdf']);
    expect(await draftDatabaseNames()).toHaveLength(2);
    const dropped: string[] = [];
    const off = onVaultDataDropped((_account, vaultId) => dropped.push(vaultId));

    revokeOnServer(GONE);
    await pullAll(ctx);
    off();

    // Only the tombstone is left, with no name, keys, offline mark or cursor.
    const after = await rowsOfVault(GONE);
    expect(Object.keys(after)).toEqual(['vaults']);
    expect(after.vaults).toEqual([expect.objectContaining({ vaultId: GONE, name: '', membershipStatus: 'REVOKED', cursor: 0, sealedKeys: null, droppedAt: 1_800_000_000_000 })]);
    expect((after.vaults![0] as { keepOffline?: boolean }).keepOffline).toBeFalsy();
    expect(JSON.stringify(after.vaults)).not.toMatch(/Merger|Takeover|Acquisition/);
    expect((await db.uploadFiles.toArray()).map((row) => row.uploadId)).toEqual([`${KEPT}-upload`]);
    expect(await draftDatabaseNames()).toEqual([draftDocName(USER.id, KEPT, { noteId: `${KEPT}-file`, baseVersionId: `${KEPT}-v1` })]);
    const cached = await (await cacheStorage.open(chunkCacheName(USER.id))).keys();
    expect(cached.map((request) => new URL(request.url).pathname)).toEqual([`${API_BASE}${chunkPath(KEPT, `blob-${KEPT}-v1`, 0)}`]);
    // Search, in memory and as saved, finds nothing of it.
    expect(await indexer.api.docsOfVault(GONE)).toEqual([]);
    for (const term of ['Merger', 'Takeover', 'Acquisition']) {
      expect((await indexer.api.search(term, 0, 10)).total, term).toBe(0);
      expect(await savedSearch(term), term).toEqual([]);
    }
    expect(dropped).toEqual([GONE]);
    expect(uploadKicks).toBe(1);
    // The crypto worker no longer holds the vault's keys; the other vault's it keeps.
    expect(await ctx.crypto.hasVaultKeys(GONE)).toBe(false);
    expect(await ctx.crypto.hasVaultKeys(KEPT)).toBe(true);

    // The other vault keeps every row, and stays findable.
    const keptAfter = await rowsOfVault(KEPT);
    const withoutStamp = (rows: Record<string, unknown[]>) => JSON.parse(JSON.stringify(rows, (key, value) => (key === 'projectionStamp' || key === 'updatedAt' ? undefined : value)));
    expect(withoutStamp(keptAfter)).toEqual(withoutStamp(keptBefore));
    expect(await savedSearch('Beach')).toEqual(['Beach.jpg']);
    expect((await getVaults(db, USER.id, 'active'))?.map((v) => v.vaultId)).toEqual([KEPT]);

    // Dropped once: later cycles leave the tombstone alone.
    await pullAll(ctx);
    expect(await dropEndedVaults(ctx)).toEqual([]);
    expect(uploadKicks).toBe(1);
  });

  it('R56: a write under way during the drop (an upload queuing its file operation) is dropped at the next cycle', async () => {
    revokeOnServer(GONE);
    await pullAll(ctx);
    expect(Object.keys(await rowsOfVault(GONE))).toEqual(['vaults']);
    // The upload's last step, as uploadQueue.finalise makes it after its record check passed.
    const late = { accountId: USER.id, vaultId: GONE, id: `${GONE}-late`, kind: 'file', parentId: null, parentKey: '', name: 'Late upload.pdf', status: 'ACTIVE', size: 1, mimeType: 'application/pdf', versionCount: 1, latestVersionId: null, createdAt: 1, updatedAt: 1, pendingOpIds: ['late-op'], rejection: null } satisfies NodeRecord;
    await db.nodes.put(late);
    const op = signFake({ id: 'late-op', vaultId: GONE, objectId: late.id, author: USER.publicSigningKey, createdAt: 9, body: { type: 'node.hide' } });
    await db.outbox.put({ accountId: USER.id, opId: op.id, vaultId: GONE, op, queuedAt: 9, status: 'pending', error: null, waitsForUploadId: null, fields: {} });
    await pullAll(ctx);
    expect(Object.keys(await rowsOfVault(GONE))).toEqual(['vaults']);
  });

  it('R56: a pull refused with 403 (revoked since the list was read) drops the vault in the same cycle', async () => {
    server.inject(signFake({ id: 'late', vaultId: GONE, objectId: `${GONE}-folder`, author: USER.publicSigningKey, createdAt: 9, body: { type: 'node.hide' } }));
    server.beforePull = (vaultId) => {
      if (vaultId === GONE) throw new ApiError('FORBIDDEN', 'Your access to this vault was revoked');
    };
    await pullAll(ctx);
    expect(Object.keys(await rowsOfVault(GONE))).toEqual(['vaults']);
    expect(await db.vaults.get([USER.id, GONE])).toMatchObject({ membershipStatus: 'REVOKED', name: '' });
    expect(await indexer.api.docsOfVault(GONE)).toEqual([]);
    expect(Object.keys(await rowsOfVault(KEPT))).toContain('nodes');
  });

  it('R56: a rejected invitation drops the vault too; invited again, it is pulled from the start', async () => {
    const summary = server.vaults.get(GONE)!.summary;
    summary.membership = { ...summary.membership, role: 'VIEWER', status: 'REJECTED' };
    await pullAll(ctx);
    expect(Object.keys(await rowsOfVault(GONE))).toEqual(['vaults']);

    summary.membership = { ...summary.membership, role: 'VIEWER', status: 'ACCEPTED' };
    await pullAll(ctx);
    const again = await db.vaults.get([USER.id, GONE]);
    expect(again).toMatchObject({ name: 'Merger talks', membershipStatus: 'ACCEPTED' });
    expect(again?.droppedAt).toBeUndefined();
    expect((await db.nodes.where('[accountId+vaultId]').equals([USER.id, GONE]).toArray()).map((n) => n.name).sort()).toEqual(['Acquisition terms.pdf', 'Takeover']);

    // Ended again: dropped again.
    revokeOnServer(GONE);
    await pullAll(ctx);
    expect(Object.keys(await rowsOfVault(GONE))).toEqual(['vaults']);
  });

  it('R56: without a running indexer the saved search index that names the vault is deleted', async () => {
    indexer.stop();
    expect(await savedSearch('Acquisition')).toEqual(['Acquisition terms.pdf']);
    revokeOnServer(GONE);
    await pullAll(ctx);
    expect(await db.searchIndex.get(USER.id)).toBeUndefined();
  });
});
