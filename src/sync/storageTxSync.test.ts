/**
 * The storage transaction sync (docs/SYNC_SPEC.md R38-R39) against a fake server at the fetch
 * port: pages by token, socket upserts, the REJECTED announcement once, offline keeps the cache.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import type { StorageTransaction } from '../protocol/arweave';
import { CairnDb } from '../storage/db';
import { listStorageTransactions } from '../storage/storageTxStore';
import { onStorageTxChange, STORAGE_TX_PAGE, StorageTxSync } from './storageTxSync';

const dbs: CairnDb[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

function tx(n: number, patch: Partial<StorageTransaction> = {}): StorageTransaction {
  return { id: `t${n}`, vaultId: 'v1', fileId: `f${n}`, versionId: `ver${n}`, dataItemId: null, txId: null, size: n, reward: null, status: 'SCHEDULED', createdAt: at(n), updatedAt: at(n), ...patch };
}

/** A server holding `rows` newest first, paging by offset tokens like the relay's opaque ones. */
function fakeServer(rows: StorageTransaction[]) {
  let isOnline = true;
  const requests: string[] = [];
  const fetchLike: FetchLike = async (input) => {
    if (!isOnline) throw new TypeError('Failed to fetch');
    requests.push(input);
    const url = new URL(input, 'http://cairn.test');
    if (url.pathname === '/api/storage') return Response.json({ cloudTotal: 10, cloudUsed: 1, permanentTotal: 20, permanentUsed: 2 });
    const limit = Number(url.searchParams.get('limit'));
    const offset = Number(url.searchParams.get('nextToken') ?? 0);
    const sorted = [...rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const items = sorted.slice(offset, offset + limit);
    return Response.json({ items, nextToken: offset + limit < sorted.length ? String(offset + limit) : null });
  };
  return { fetchLike, requests, rows, setOnline: (value: boolean) => (isOnline = value) };
}

function device(server: ReturnType<typeof fakeServer>) {
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  dbs.push(db);
  const rejected: string[] = [];
  const sync = new StorageTxSync(db, createApiClient({ fetch: server.fetchLike }), 'acc', { onRejected: (t) => rejected.push(t.id), now: () => 42, log: () => undefined });
  return { db, sync, rejected, cached: async () => (await listStorageTransactions(db, 'acc')).map((row) => row.id) };
}

describe('storage transaction sync (SYNC_SPEC R38-R39)', () => {
  it('loads 20 a page, newest first, and the older pages on demand until none is left', async () => {
    const server = fakeServer(Array.from({ length: 45 }, (_, i) => tx(i + 1)));
    const { sync, cached } = device(server);
    expect(sync.hasMore).toBe(true);
    await sync.refresh();
    expect(await cached()).toHaveLength(STORAGE_TX_PAGE);
    expect((await cached())[0]).toBe('t45');
    expect(server.requests[0]).toBe('/api/storage/transactions?limit=20');
    await sync.loadMore();
    await sync.loadMore();
    expect(await cached()).toHaveLength(45);
    expect((await cached()).at(-1)).toBe('t1');
    expect(sync.hasMore).toBe(false);
    expect(await sync.loadMore()).toBe(false);
  });

  it('a socket upsert moves a status on; a refresh brings news without dropping older pages', async () => {
    const server = fakeServer(Array.from({ length: 25 }, (_, i) => tx(i + 1)));
    const { db, sync, cached } = device(server);
    await sync.refresh();
    await sync.loadMore();
    await sync.receive(tx(3, { status: 'COMMITTED', updatedAt: at(99), txId: 'a'.repeat(43), reward: '5' }));
    expect((await db.storageTxs.get(['acc', 't3']))?.status).toBe('COMMITTED');
    server.rows.push(tx(30));
    await sync.refresh();
    expect(await cached()).toHaveLength(26);
    // The server's older copy of t3 in a later page does not take it back.
    expect((await db.storageTxs.get(['acc', 't3']))?.status).toBe('COMMITTED');
  });

  it('announces a transaction turning REJECTED once, and tells listeners what changed', async () => {
    const server = fakeServer([tx(1), tx(2)]);
    const { sync, rejected } = device(server);
    const seen: string[] = [];
    const stop = onStorageTxChange((changes) => seen.push(...changes.map((c) => `${c.transaction.id}:${c.transaction.status}`)));
    await sync.refresh();
    await sync.receive(tx(1, { status: 'REJECTED', updatedAt: at(50) }));
    await sync.receive(tx(1, { status: 'REJECTED', updatedAt: at(50) }));
    await sync.receive(tx(1, { status: 'REJECTED', updatedAt: at(51) }));
    // Already rejected when first seen (e.g. on another device's first load): no snackbar.
    await sync.receive(tx(7, { status: 'REJECTED' }));
    stop();
    expect(rejected).toEqual(['t1']);
    expect(seen).toEqual(['t2:SCHEDULED', 't1:SCHEDULED', 't1:REJECTED', 't1:REJECTED', 't7:REJECTED']);
  });

  it('offline: the cache stays as it was and the storage figures are kept from the last answer', async () => {
    const server = fakeServer([tx(1)]);
    const { db, sync, cached } = device(server);
    await sync.refresh();
    expect(await sync.refreshUsage()).toBe(true);
    server.setOnline(false);
    await sync.refresh();
    expect(await sync.refreshUsage()).toBe(false);
    expect(await cached()).toEqual(['t1']);
    expect(await db.storageUsage.get('acc')).toMatchObject({ permanentTotal: 20, permanentUsed: 2, fetchedAt: 42 });
  });
});
