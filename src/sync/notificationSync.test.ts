/**
 * The device's notifications against the real server (docs/SYNC_SPEC.md R31): loaded into Dexie,
 * read / delete actions applied at once and kept while offline, sent in order when back, never
 * undone by a refresh; socket messages upsert.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient as ServerTestClient } from '../../server/testing/ApiClient';
import { addMember } from '../../server/testing/members';
import { clear, expectAccepted, newId, VaultActor } from '../../server/testing/vaults';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import { NotificationListResponse } from '../protocol/members';
import { CairnDb } from '../storage/db';
import { pendingActions, sortNotifications } from '../storage/notificationStore';
import { NotificationSync } from './notificationSync';
import { signedInServer } from './testing/realServer';

const real = signedInServer(() => undefined);

describe('notification sync (SYNC_SPEC R31)', () => {
  let author: VaultActor;
  let me: VaultActor;
  let vaultId: string;
  let otherVault: string;

  beforeAll(async () => {
    const api = new ServerTestClient(real.app);
    author = await VaultActor.create(real.env, api);
    me = new VaultActor(api, real.user, real.token, real.userId);
    vaultId = await author.createVault({ isPublic: true });
    otherVault = await author.createVault({ isPublic: true });
    for (const id of [vaultId, otherVault]) await addMember(author, id, me, 'VIEWER', null);
  });

  function device() {
    let isOnline = true;
    const online = real.fetch();
    const fetchLike: FetchLike = (input, init) => (isOnline ? online(input, init) : Promise.reject(new TypeError('Failed to fetch')));
    const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
    const sync = new NotificationSync(db, createApiClient({ fetch: fetchLike }), real.userId, () => undefined);
    const cached = async () => sortNotifications(await db.notifications.where('accountId').equals(real.userId).toArray());
    return { db, sync, cached, setOnline: (value: boolean) => (isOnline = value) };
  }

  async function onServer() {
    const response = await me.api.get('/api/notifications', { token: me.token });
    return NotificationListResponse.parse(response.body).notifications;
  }

  async function folderIn(vault: string): Promise<void> {
    expectAccepted(await author.apply(vault, newId(), { type: 'folder.create', parentId: null, name: clear('Plans') }));
  }

  it('loads the list; an action taken offline shows at once, survives a refresh, and reaches the server when back online', async () => {
    const { db, sync, cached, setOnline } = device();
    await folderIn(vaultId);
    await sync.refresh();
    const [first] = await cached();
    expect(first).toMatchObject({ event: 'FOLDER_CREATE', vaultId, status: 'UNREAD', fromEmail: author.user.email });
    if (!first) throw new Error('no notification');

    setOnline(false);
    await sync.act({ kind: 'read', id: first.id });
    expect((await cached())[0]?.status).toBe('READ');
    expect(await pendingActions(db, real.userId)).toHaveLength(1);
    expect((await onServer()).find((n) => n.id === first.id)?.status).toBe('UNREAD');
    await sync.refresh();
    expect((await cached())[0]?.status).toBe('READ');

    // Back online: the server gets the read first, and a refresh agrees.
    setOnline(true);
    await sync.refresh();
    expect((await onServer()).find((n) => n.id === first.id)?.status).toBe('READ');
    expect(await pendingActions(db, real.userId)).toEqual([]);
    expect((await cached())[0]?.status).toBe('READ');
  });

  it('marks a vault read, clears the read ones and all, in the order taken; a socket message upserts', async () => {
    const { db, sync, cached, setOnline } = device();
    await me.api.request('DELETE', '/api/notifications', undefined, { token: me.token });
    await folderIn(vaultId);
    await folderIn(otherVault);
    await sync.refresh();
    expect((await cached()).map((n) => [n.vaultId, n.status])).toEqual([
      [otherVault, 'UNREAD'],
      [vaultId, 'UNREAD'],
    ]);

    setOnline(false);
    await sync.act({ kind: 'readVault', vaultId });
    await sync.act({ kind: 'deleteRead' });
    expect((await cached()).map((n) => n.vaultId)).toEqual([otherVault]);
    // A grown notification arrives by socket meanwhile; the pending actions still apply to it.
    await folderIn(vaultId);
    const grown = (await onServer()).find((n) => n.vaultId === vaultId);
    if (!grown) throw new Error('no notification');
    await sync.receive(grown);
    expect((await cached()).map((n) => n.vaultId)).toEqual([otherVault]);

    setOnline(true);
    await sync.flush();
    expect((await onServer()).map((n) => n.vaultId)).toEqual([otherVault]);
    await sync.refresh();
    expect((await cached()).map((n) => n.vaultId)).toEqual([otherVault]);

    // A new one from the socket shows at once; Clear all empties both.
    await folderIn(vaultId);
    const fresh = (await onServer()).find((n) => n.vaultId === vaultId);
    if (!fresh) throw new Error('no notification');
    await sync.receive(fresh);
    expect((await cached()).map((n) => [n.vaultId, n.status])).toEqual([
      [vaultId, 'UNREAD'],
      [otherVault, 'UNREAD'],
    ]);
    await sync.act({ kind: 'deleteAll' });
    await sync.flush();
    expect(await cached()).toEqual([]);
    expect(await onServer()).toEqual([]);
    expect(await pendingActions(db, real.userId)).toEqual([]);
  });

  it('drops an action the server cannot take (the notification is gone) instead of blocking the queue', async () => {
    const { db, sync, cached } = device();
    await folderIn(vaultId);
    await sync.refresh();
    const [mine] = await cached();
    if (!mine) throw new Error('no notification');
    await me.api.request('DELETE', `/api/notifications/${mine.id}`, undefined, { token: me.token });
    await sync.act({ kind: 'read', id: mine.id });
    await sync.act({ kind: 'readAll' });
    await sync.flush();
    expect(await pendingActions(db, real.userId)).toEqual([]);
  });
});
