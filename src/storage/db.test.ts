import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { CairnDb, DB_NAME, declareSchema, SCHEMA_VERSIONS } from './db';
import { accountScopeOf } from './wipeAccountData';

const open: Dexie[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function track<T extends Dexie>(db: T): T {
  open.push(db);
  return db;
}

/** A Dexie on `factory` that knows only the schema versions up to `version`. */
function openAtVersion(factory: IDBFactory, version: number): Dexie {
  const db = track(new Dexie(DB_NAME, { indexedDB: factory, IDBKeyRange }));
  declareSchema(db, version);
  return db;
}

describe('CairnDb schema', () => {
  it('versions are strictly increasing from 1 (append-only history)', () => {
    const versions = SCHEMA_VERSIONS.map((v) => v.version);
    expect(versions[0]).toBe(1);
    versions.slice(1).forEach((v, i) => expect(v).toBeGreaterThan(versions[i]!));
  });

  it('every table belongs to an account, so log out can wipe it', async () => {
    const db = track(new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange }));
    await db.open();
    expect(db.tables.map((t) => t.name).sort()).toEqual(['acceptedOps', 'accounts', 'members', 'memos', 'nodes', 'noteDraftUpdates', 'noteDrafts', 'notificationActions', 'notifications', 'opPages', 'outbox', 'searchIndex', 'storageTxs', 'storageUsage', 'thumbnails', 'uploadFiles', 'uploads', 'vaults', 'versions', 'wallets']);
    for (const table of db.tables) expect(accountScopeOf(table), table.name).not.toBeNull();
  });

  // The upgrade test pattern (STYLE.md: each Dexie upgrade has a test): open the previous version,
  // write rows as that version stored them, close, reopen with the full CairnDb, and check what
  // the upgrade must keep or transform. Copy this for version N+1 with openAtVersion(factory, N).
  it('v1: data written at version 1 survives reopening with the current schema', async () => {
    const factory = new IDBFactory();
    const v1 = openAtVersion(factory, 1);
    await v1.open();
    const deviceKey = await globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    await v1.table('wallets').put({ accountId: 'acc1', deviceKey, sealed: 'sealed-v1', savedAt: 1 });
    v1.close();

    const current = track(new CairnDb({ indexedDB: factory, IDBKeyRange }));
    await current.open();
    expect(current.verno).toBe(SCHEMA_VERSIONS.at(-1)!.version);
    const row = await current.wallets.get('acc1');
    expect(row?.sealed).toBe('sealed-v1');
    expect(row?.deviceKey).toBeInstanceOf(CryptoKey);
  });

  it('v1 -> v2: accounts and wallets survive, and the vault tables open empty and indexed', async () => {
    const factory = new IDBFactory();
    const v1 = openAtVersion(factory, 1);
    await v1.open();
    const deviceKey = await globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    await v1.table('wallets').put({ accountId: 'acc1', deviceKey, sealed: 'sealed-v1', savedAt: 1 });
    await v1.table('accounts').put({ id: 'acc1', email: 'a@b.c', cachedAt: 2 });
    v1.close();

    const v2 = openAtVersion(factory, 2);
    await v2.open();
    expect(v2.verno).toBe(2);
    expect((await v2.table('wallets').get('acc1'))?.sealed).toBe('sealed-v1');
    expect((await v2.table('accounts').get('acc1'))?.email).toBe('a@b.c');
    for (const name of ['vaults', 'nodes', 'versions', 'outbox', 'uploads', 'ops']) {
      expect(await v2.table(name).count(), name).toBe(0);
    }
    // Root children are found by parentKey '' (IndexedDB cannot index null).
    await v2.table('nodes').put({ accountId: 'acc1', id: 'n1', vaultId: 'v1', parentId: null, parentKey: '' });
    expect(await v2.table('nodes').where('[accountId+vaultId+parentKey]').equals(['acc1', 'v1', '']).count()).toBe(1);
  });

  it('v2 -> v3: the file of an upload moves to uploadFiles and the record keeps its type', async () => {
    const factory = new IDBFactory();
    const v2 = openAtVersion(factory, 2);
    await v2.open();
    const file = new Blob(['field notes'], { type: 'text/plain' });
    await v2.table('uploads').put({ accountId: 'acc1', uploadId: 'u1', state: 'uploading', file });
    v2.close();

    const v3 = openAtVersion(factory, 3);
    await v3.open();
    const record = await v3.table('uploads').get(['acc1', 'u1']);
    expect(record).toMatchObject({ state: 'uploading', fileType: 'text/plain' });
    expect(record).not.toHaveProperty('file');
    const moved = await v3.table('uploadFiles').get(['acc1', 'u1']);
    expect(await (moved?.file as Blob).text()).toBe('field notes');
  });

  it('v3 -> v4: cached operations move into one page record per vault run, and the ops table is gone', async () => {
    const factory = new IDBFactory();
    const v3 = openAtVersion(factory, 3);
    await v3.open();
    const row = (accountId: string, vaultId: string, seq: number) => ({
      accountId,
      vaultId,
      seq,
      receivedAt: 100 + seq,
      op: { id: `op${seq}`, vaultId, objectId: vaultId, author: 'a'.repeat(64), createdAt: 1, body: { type: 'vault.archive' }, signature: 's' },
      isVerified: seq !== 2,
      fields: {},
    });
    // Written out of order on purpose: the table's key orders them.
    await v3.table('ops').bulkPut([row('acc1', 'v1', 3), row('acc1', 'v1', 1), row('acc2', 'v1', 1), row('acc1', 'v1', 2), row('acc1', 'v2', 7)]);
    v3.close();

    const current = track(new CairnDb({ indexedDB: factory, IDBKeyRange }));
    await current.open();
    expect(current.backendDB().objectStoreNames.contains('ops')).toBe(false);
    const pages = await current.opPages.toArray();
    expect(pages.map((p) => [p.accountId, p.vaultId, p.firstSeq, p.ops.map((o) => o.seq)])).toEqual([
      ['acc1', 'v1', 1, [1, 2, 3]],
      ['acc1', 'v2', 7, [7]],
      ['acc2', 'v1', 1, [1]],
    ]);
    const { accountId: _a, vaultId: _v, ...cached } = row('acc1', 'v1', 2);
    expect(pages[0]!.ops[1]).toEqual(cached);
  });

  it('v4 -> v5: stored nodes get their list key and are found through the list index', async () => {
    const factory = new IDBFactory();
    const v4 = openAtVersion(factory, 4);
    await v4.open();
    const base = { accountId: 'acc1', vaultId: 'v1', parentId: 'p', parentKey: 'p', status: 'ACTIVE' };
    await v4.table('nodes').bulkPut([
      { ...base, id: 'n1', kind: 'file', name: 'Scan 10.jpg' },
      { ...base, id: 'n2', kind: 'file', name: 'scan 9.jpg' },
      { ...base, id: 'n3', kind: 'folder', name: 'Zeta' },
      { ...base, id: 'n4', kind: 'file', name: 'hidden', status: 'REVOKED' },
    ]);
    v4.close();

    const current = track(new CairnDb({ indexedDB: factory, IDBKeyRange }));
    await current.open();
    expect((await current.nodes.get(['acc1', 'n1']))?.listKey).toBe('1scan 0000000000000010.jpg');
    const listed = await current.nodes
      .where('[accountId+vaultId+parentKey+status+listKey]')
      .between(['acc1', 'v1', 'p', 'ACTIVE', Dexie.minKey], ['acc1', 'v1', 'p', 'ACTIVE', Dexie.maxKey])
      .toArray();
    expect(listed.map((n) => n.id)).toEqual(['n3', 'n2', 'n1']);
  });

  it('v5 -> v6: stored vaults survive and the members table opens empty, found by vault', async () => {
    const factory = new IDBFactory();
    const v5 = openAtVersion(factory, 5);
    await v5.open();
    await v5.table('vaults').put({ accountId: 'acc1', vaultId: 'v1', name: 'Kept' });
    v5.close();

    const current = track(new CairnDb({ indexedDB: factory, IDBKeyRange }));
    await current.open();
    expect((await current.vaults.get(['acc1', 'v1']))?.name).toBe('Kept');
    expect(await current.members.count()).toBe(0);
    await current.members.put({ accountId: 'acc1', vaultId: 'v1', membershipId: 'm1' } as never);
    expect(await current.members.where('[accountId+vaultId]').equals(['acc1', 'v1']).count()).toBe(1);
  });

  it('v6 -> v7, v8: stored members and vaults survive; the memos and note draft tables open empty and are indexed', async () => {
    const factory = new IDBFactory();
    const v6 = openAtVersion(factory, 6);
    await v6.open();
    await v6.table('members').put({ accountId: 'acc1', vaultId: 'v1', membershipId: 'm1' });
    await v6.table('vaults').put({ accountId: 'acc1', vaultId: 'v1', name: 'Kept' });
    v6.close();

    const current = track(new CairnDb({ indexedDB: factory, IDBKeyRange }));
    await current.open();
    expect(await current.members.count()).toBe(1);
    expect(await current.noteDrafts.count()).toBe(0);
    await current.noteDraftUpdates.put({ accountId: 'acc1', opId: 'o1', vaultId: 'v1', noteId: 'n1', baseVersionId: 'x1', seq: 3, update: 'AA' });
    expect(await current.noteDraftUpdates.where('[accountId+noteId+baseVersionId]').equals(['acc1', 'n1', 'x1']).count()).toBe(1);
    expect((await current.vaults.get(['acc1', 'v1']))?.name).toBe('Kept');
    expect(await current.memos.count()).toBe(0);
    await current.memos.bulkPut([
      { accountId: 'acc1', vaultId: 'v1', memoId: 'm2', order: 20 } as never,
      { accountId: 'acc1', vaultId: 'v1', memoId: 'm1', order: 10 } as never,
      { accountId: 'acc1', vaultId: 'v2', memoId: 'm3', order: 15 } as never,
    ]);
    const listed = await current.memos.where('[accountId+vaultId+order]').between(['acc1', 'v1', 0], ['acc1', 'v1', Infinity]).toArray();
    expect(listed.map((m) => m.memoId)).toEqual(['m1', 'm2']);
  });
  it('v10 -> v11: the search index survives; storage transactions open empty and are found by version', async () => {
    const factory = new IDBFactory();
    const v10 = openAtVersion(factory, 10);
    await v10.open();
    await v10.table('searchIndex').put({ accountId: 'acc1', data: 'kept' });
    v10.close();

    const current = track(new CairnDb({ indexedDB: factory, IDBKeyRange }));
    await current.open();
    expect(await current.searchIndex.get('acc1')).toMatchObject({ data: 'kept' });
    expect(await current.storageTxs.count()).toBe(0);
    await current.storageTxs.put({ accountId: 'acc1', id: 't1', versionId: 'ver1', createdAt: '2026-01-01T00:00:00.000Z' } as never);
    expect(await current.storageTxs.where('[accountId+versionId]').equals(['acc1', 'ver1']).count()).toBe(1);
    await current.storageUsage.put({ accountId: 'acc1', cloudTotal: 1, cloudUsed: 0, permanentTotal: 2, permanentUsed: 1, fetchedAt: 5 });
    expect((await current.storageUsage.get('acc1'))?.permanentTotal).toBe(2);
  });
  it('v11 -> v12: storage transactions survive; thumbnails open empty, found by version and by vault', async () => {
    const factory = new IDBFactory();
    const v11 = openAtVersion(factory, 11);
    await v11.open();
    await v11.table('storageTxs').put({ accountId: 'acc1', id: 't1', versionId: 'ver1', createdAt: '2026-01-01T00:00:00.000Z' });
    v11.close();

    const current = track(new CairnDb({ indexedDB: factory, IDBKeyRange }));
    await current.open();
    expect(await current.storageTxs.count()).toBe(1);
    expect(await current.thumbnails.count()).toBe(0);
    await current.thumbnails.put({ accountId: 'acc1', vaultId: 'v1', versionId: 'ver1', image: new Blob(['x']), cachedAt: 1 });
    expect(await current.thumbnails.get(['acc1', 'ver1'])).toMatchObject({ vaultId: 'v1' });
    expect(await current.thumbnails.where('[accountId+vaultId]').equals(['acc1', 'v1']).count()).toBe(1);
  });
});
