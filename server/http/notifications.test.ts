/**
 * Notifications of vault activity (docs/SYNC_SPEC.md R30-R31): who hears of which operation,
 * coalescing, the list / read / delete endpoints scoped to the caller, e-mail by the user's
 * toggle, and live delivery to sockets (across processes on PostgreSQL).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Notification, NotificationListResponse } from '../../src/protocol/members';
import { PushResponse, type PushResult } from '../../src/protocol/vaults';
import { PostgresNotificationBus } from '../realtime/NotificationBus';
import { COALESCE_WINDOW_MS } from '../services/ops/activityNotifications';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase, describePostgres } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { readMailbox } from '../testing/mailbox';
import { addMember, invite } from '../testing/members';
import { startServerProcess } from '../testing/serverProcess';
import { clear, expectAccepted, makeFile, newId, VaultActor } from '../testing/vaults';
import { connectSocket } from '../testing/wsClient';

describeEachDatabase('notifications of vault activity (SYNC_SPEC R30-R31)', (env) => {
  let app: FastifyInstance;
  let api: ApiClient;
  let owner: VaultActor;
  let contributor: VaultActor;
  let viewer: VaultActor;
  let invitee: VaultActor;
  let stranger: VaultActor;

  beforeAll(async () => {
    const notificationBus = env.databaseUrl ? await PostgresNotificationBus.connect(env.databaseUrl, console) : undefined;
    app = await env.buildApp(notificationBus ? { notificationBus } : {});
    api = new ApiClient(app);
    const actor = () => VaultActor.create(env, api);
    [owner, contributor, viewer, invitee, stranger] = await Promise.all([actor(), actor(), actor(), actor(), actor()]);
    // E-mail notifications off unless a test turns them on.
    await env.db.updateTable('users').set({ notifications: 0 }).execute();
  });
  afterAll(() => app.close());

  async function sharedVault(): Promise<string> {
    const vaultId = await owner.createVault({ isPublic: true });
    await addMember(owner, vaultId, contributor, 'CONTRIBUTOR', null);
    await addMember(owner, vaultId, viewer, 'VIEWER', null);
    // Invited, not yet accepted: hears nothing of the vault's activity.
    expectAccepted(await invite(owner, vaultId, invitee, 'VIEWER', null));
    return vaultId;
  }

  async function listOf(actor: VaultActor, query = ''): Promise<{ notifications: Notification[]; nextCursor: string | null }> {
    const response = await api.get(`/api/notifications${query}`, { token: actor.token });
    expectStatus(response, 200);
    return NotificationListResponse.parse(response.body);
  }

  async function activityOf(actor: VaultActor, vaultId: string): Promise<Notification[]> {
    return (await listOf(actor)).notifications.filter((n) => n.vaultId === vaultId && n.objectType !== 'membership');
  }

  async function uploadFile(actor: VaultActor, vaultId: string): Promise<string> {
    const version = await actor.upload(vaultId, makeFile(200, { isPublic: true }), { isPublic: true });
    const fileId = newId();
    expectAccepted(await actor.apply(vaultId, fileId, { type: 'file.create', parentId: null, name: clear('report.pdf'), version }));
    return fileId;
  }

  it('R30: an upload notifies every accepted member but its author, viewers too, and nobody else', async () => {
    const vaultId = await sharedVault();
    const fileId = await uploadFile(owner, vaultId);
    for (const member of [contributor, viewer]) {
      expect(await activityOf(member, vaultId)).toEqual([
        expect.objectContaining({ event: 'STACK_CREATE', objectType: 'stack', objectId: fileId, vaultId, fromEmail: owner.user.email, status: 'UNREAD', count: 1, priority: 'NORMAL' }),
      ]);
    }
    expect(await activityOf(owner, vaultId)).toEqual([]);
    expect(await activityOf(invitee, vaultId)).toEqual([]);
    expect((await listOf(stranger)).notifications).toEqual([]);

    // The contributor's upload tells the owner and the viewer, not the contributor.
    const theirs = await uploadFile(contributor, vaultId);
    expect((await activityOf(owner, vaultId)).map((n) => [n.event, n.objectId, n.fromEmail])).toEqual([['STACK_CREATE', theirs, contributor.user.email]]);
    expect((await activityOf(contributor, vaultId)).map((n) => n.objectId)).toEqual([fileId]);
    expect((await activityOf(viewer, vaultId)).map((n) => n.objectId)).toEqual([theirs, fileId]);
  });

  it('R30: each file, folder and vault operation is its event', async () => {
    const vaultId = await sharedVault();
    const seen: string[] = [];
    async function expectEvent(apply: () => Promise<PushResult | string>, event: string, objectType: string): Promise<void> {
      const result = await apply();
      if (typeof result !== 'string') expectAccepted(result);
      // Each event is a new row (distinct events never coalesce), newest first.
      const [latest] = await activityOf(viewer, vaultId);
      seen.push(event);
      expect([latest?.event, latest?.objectType, latest?.count]).toEqual([event, objectType, 1]);
    }
    const folderId = newId();
    const otherFolder = newId();
    await expectEvent(() => owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: clear('Plans') }), 'FOLDER_CREATE', 'folder');
    expectAccepted(await contributor.apply(vaultId, otherFolder, { type: 'folder.create', parentId: null, name: clear('Other') }));
    await expectEvent(() => owner.apply(vaultId, folderId, { type: 'node.rename', name: clear('Plans 2') }), 'FOLDER_UPDATE', 'folder');
    await expectEvent(() => owner.apply(vaultId, folderId, { type: 'node.move', parentId: otherFolder }), 'FOLDER_MOVE', 'folder');
    await expectEvent(() => owner.apply(vaultId, folderId, { type: 'node.hide' }), 'FOLDER_REVOKE', 'folder');
    await expectEvent(() => owner.apply(vaultId, folderId, { type: 'node.restore' }), 'FOLDER_RESTORE', 'folder');

    let fileId = '';
    await expectEvent(async () => (fileId = await uploadFile(owner, vaultId)), 'STACK_CREATE', 'stack');
    const version = await owner.upload(vaultId, makeFile(300, { isPublic: true }), { isPublic: true });
    await expectEvent(() => owner.apply(vaultId, fileId, { type: 'file.addVersion', version }), 'STACK_UPLOAD_REVISION', 'stack');
    await expectEvent(() => owner.apply(vaultId, fileId, { type: 'node.rename', name: clear('final.pdf') }), 'STACK_UPDATE', 'stack');
    await expectEvent(() => owner.apply(vaultId, fileId, { type: 'node.move', parentId: otherFolder }), 'STACK_MOVE', 'stack');
    await expectEvent(() => owner.apply(vaultId, fileId, { type: 'node.hide' }), 'STACK_REVOKE', 'stack');
    await expectEvent(() => owner.apply(vaultId, fileId, { type: 'node.restore' }), 'STACK_RESTORE', 'stack');
    expectAccepted(await contributor.apply(vaultId, fileId, { type: 'node.hide' }));
    await expectEvent(() => owner.apply(vaultId, fileId, { type: 'node.delete' }), 'STACK_DELETE', 'stack');

    await expectEvent(() => owner.apply(vaultId, vaultId, { type: 'vault.rename', name: clear('Renamed') }), 'VAULT_UPDATE', 'dataroom');
    await expectEvent(
      () => owner.apply(vaultId, vaultId, { type: 'vault.updateMetadata', description: clear('About'), tags: clear('[]') }),
      'VAULT_UPDATE_METADATA',
      'dataroom',
    );
    await expectEvent(() => owner.apply(vaultId, vaultId, { type: 'vault.archive' }), 'VAULT_ARCHIVE', 'dataroom');
    await expectEvent(() => owner.apply(vaultId, vaultId, { type: 'vault.restore' }), 'VAULT_RESTORE', 'dataroom');
    expectAccepted(await owner.apply(vaultId, vaultId, { type: 'vault.archive' }));
    await expectEvent(() => owner.apply(vaultId, vaultId, { type: 'vault.delete' }), 'VAULT_DELETE', 'dataroom');
    // The contributor's own hide told the viewer too; the owner heard only of the contributor's acts.
    expect((await activityOf(owner, vaultId)).map((n) => n.event).sort()).toEqual(['FOLDER_CREATE', 'STACK_REVOKE']);
    expect(new Set(seen).size).toBe(17);
  });

  it('R30: a run of one event by one author is one row with a count while UNREAD and under 10 minutes old', async () => {
    const vaultId = await sharedVault();
    const folders = Array.from({ length: 3 }, () => newId());
    const ops = await Promise.all(folders.map((id) => owner.sign(vaultId, id, { type: 'folder.create', parentId: null, name: clear(id) })));
    expect((await owner.push(...ops)).every((r) => r.status === 'accepted')).toBe(true);
    const [run] = await activityOf(viewer, vaultId);
    expect(await activityOf(viewer, vaultId)).toHaveLength(1);
    expect(run).toMatchObject({ event: 'FOLDER_CREATE', count: 3, objectId: folders[2] });
    // Another author's same event is its own row.
    expectAccepted(await contributor.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('theirs') }));
    expect((await activityOf(viewer, vaultId)).map((n) => [n.fromEmail, n.count])).toEqual([
      [contributor.user.email, 1],
      [owner.user.email, 3],
    ]);
    // Once read, the run is over: the next one starts a new row.
    expectStatus(await api.request('PATCH', `/api/notifications/${run?.id}`, undefined, { token: viewer.token }), 200);
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('after read') }));
    expect((await activityOf(viewer, vaultId)).filter((n) => n.fromEmail === owner.user.email).map((n) => [n.status, n.count])).toEqual([
      ['UNREAD', 1],
      ['READ', 3],
    ]);
    // Past the window, also a new row.
    env.clock.advance(COALESCE_WINDOW_MS + 1);
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('later') }));
    expect((await activityOf(viewer, vaultId)).filter((n) => n.fromEmail === owner.user.email).map((n) => [n.status, n.count])).toEqual([
      ['UNREAD', 1],
      ['UNREAD', 1],
      ['READ', 3],
    ]);
    // A repeated push (a retry) notifies nobody again.
    expect((await owner.push(...ops)).every((r) => r.status === 'accepted')).toBe(true);
    expect((await activityOf(viewer, vaultId)).reduce((sum, n) => sum + n.count, 0)).toBe(6);
  });

  it('marks read one, one vault, or all; deletes one, the read ones, or all; only ever the caller’s own', async () => {
    const [first, second] = [await sharedVault(), await sharedVault()];
    for (const vaultId of [first, first, second]) expectAccepted(await owner.apply(vaultId, vaultId, { type: 'vault.rename', name: clear(newId()) }));
    await env.db.updateTable('notifications').set({ status: 'READ' }).where('user_id', '=', viewer.userId).execute();
    for (const vaultId of [first, second]) expectAccepted(await contributor.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('x') }));
    const unread = async (actor: VaultActor) => (await listOf(actor)).notifications.filter((n) => n.status === 'UNREAD').map((n) => n.vaultId);
    expect(await unread(viewer)).toEqual([second, first]);

    // Someone else's notification: 404 and unchanged.
    const [mine] = (await listOf(viewer)).notifications;
    if (!mine) throw new Error('no notification');
    expectError(await api.request('PATCH', `/api/notifications/${mine.id}`, undefined, { token: stranger.token }), 404, 'NOT_FOUND');
    expectError(await api.request('DELETE', `/api/notifications/${mine.id}`, undefined, { token: stranger.token }), 404, 'NOT_FOUND');
    expectStatus(await api.request('PATCH', '/api/notifications', undefined, { token: stranger.token }), 200);
    expectStatus(await api.request('DELETE', '/api/notifications', undefined, { token: stranger.token }), 200);
    expect(await unread(viewer)).toEqual([second, first]);

    expectStatus(await api.request('PATCH', `/api/notifications?vaultId=${first}`, undefined, { token: viewer.token }), 200);
    expect(await unread(viewer)).toEqual([second]);
    const ownerUnread = await unread(owner);
    expectStatus(await api.request('PATCH', '/api/notifications', undefined, { token: viewer.token }), 200);
    expect(await unread(viewer)).toEqual([]);
    expect(await unread(owner)).toEqual(ownerUnread);

    const all = (await listOf(viewer)).notifications.length;
    expectStatus(await api.request('DELETE', `/api/notifications/${mine.id}`, undefined, { token: viewer.token }), 200);
    expect((await listOf(viewer)).notifications).toHaveLength(all - 1);
    expectError(await api.request('DELETE', `/api/notifications/${mine.id}`, undefined, { token: viewer.token }), 404, 'NOT_FOUND');
    expectAccepted(await contributor.apply(first, newId(), { type: 'folder.create', parentId: null, name: clear('y') }));
    expectStatus(await api.request('DELETE', '/api/notifications?status=READ', undefined, { token: viewer.token }), 200);
    expect((await listOf(viewer)).notifications.map((n) => [n.status, n.event])).toEqual([['UNREAD', 'FOLDER_CREATE']]);
    expectStatus(await api.request('DELETE', '/api/notifications', undefined, { token: viewer.token }), 200);
    expect((await listOf(viewer)).notifications).toEqual([]);
    expect((await listOf(owner)).notifications.length).toBeGreaterThan(0);
    expectError(await api.request('PATCH', '/api/notifications'), 401, 'UNAUTHENTICATED');
  });

  it('read-only mode refuses clearing, not marking read', async () => {
    const vaultId = await sharedVault();
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('ro') }));
    const [mine] = await activityOf(viewer, vaultId);
    if (!mine) throw new Error('no notification');
    const readOnly = new ApiClient(await env.buildApp({ config: { readOnly: true } }));
    expectError(await readOnly.request('DELETE', `/api/notifications/${mine.id}`, undefined, { token: viewer.token }), 403, 'READ_ONLY');
    expectError(await readOnly.request('DELETE', '/api/notifications?status=READ', undefined, { token: viewer.token }), 403, 'READ_ONLY');
    expectError(await readOnly.request('DELETE', '/api/notifications', undefined, { token: viewer.token }), 403, 'READ_ONLY');
    expectStatus(await readOnly.request('PATCH', `/api/notifications/${mine.id}`, undefined, { token: viewer.token }), 200);
    expect((await activityOf(viewer, vaultId)).map((n) => n.status)).toEqual(['READ']);
  });

  it('GET pages by cursor, newest first, without gaps or repeats', async () => {
    const vaultId = await sharedVault();
    await api.request('DELETE', '/api/notifications', undefined, { token: viewer.token });
    for (let i = 0; i < 7; i += 1) {
      // Distinct authors' runs do not coalesce: alternate them, and read each so none grows.
      const author = i % 2 === 0 ? owner : contributor;
      expectAccepted(await author.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear(`f${i}`) }));
      await api.request('PATCH', '/api/notifications', undefined, { token: viewer.token });
    }
    const everything = (await listOf(viewer)).notifications.map((n) => n.id);
    expect(everything).toHaveLength(7);
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: { notifications: Notification[]; nextCursor: string | null } = await listOf(viewer, `?limit=3${cursor ? `&before=${cursor}` : ''}`);
      pages.push(page.notifications.map((n) => n.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(everything);
  });

  it('R30: e-mails a member who turned notifications on, once per run, with a link and no names', async () => {
    const vaultId = await sharedVault();
    await env.db.updateTable('users').set({ notifications: 1 }).where('id', '=', viewer.userId).execute();
    const mailsTo = (actor: VaultActor) => readMailbox(env.dataDir).filter((m) => m.to.includes(actor.user.email) && m.subject.includes('activity'));
    const [viewerBefore, contributorBefore] = [mailsTo(viewer).length, mailsTo(contributor).length];
    for (let i = 0; i < 3; i += 1) {
      expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear('Secret merger plans') }));
    }
    const mails = mailsTo(viewer).slice(viewerBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.decoded).toContain(`${owner.user.email} created a folder`);
    expect(mails[0]?.links).toEqual(['http://cairn.test/notifications']);
    expect(mails[0]?.decoded).not.toContain('Secret merger plans');
    expect(mails[0]?.decoded).not.toContain('Public vault');
    // The contributor's toggle is off: no e-mail, though the notification is there.
    expect(mailsTo(contributor)).toHaveLength(contributorBefore);
    expect((await activityOf(contributor, vaultId))[0]).toMatchObject({ event: 'FOLDER_CREATE', count: 3 });
    await env.db.updateTable('users').set({ notifications: 0 }).where('id', '=', viewer.userId).execute();
  });

  it('R31: a notification reaches the recipient’s open sockets as it is written and as it grows', async () => {
    const vaultId = await sharedVault();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const url = `ws://127.0.0.1:${address.port}/api/ws`;
    const [viewerSocket, ownerSocket] = [connectSocket(`${url}?token=${viewer.token}`), connectSocket(`${url}?token=${owner.token}`)];
    for (const socket of [viewerSocket, ownerSocket]) {
      await socket.opened;
      await socket.waitFor((m) => m.type === 'hello');
    }
    const fileId = await uploadFile(owner, vaultId);
    const first = await viewerSocket.waitFor((m) => m.type === 'notification' && m.notification.objectId === fileId);
    expect(first).toMatchObject({ type: 'notification', notification: { event: 'STACK_CREATE', vaultId, count: 1, status: 'UNREAD' } });
    const second = await uploadFile(owner, vaultId);
    expect(await viewerSocket.waitFor((m) => m.type === 'notification' && m.notification.objectId === second)).toMatchObject({
      notification: { id: first.type === 'notification' ? first.notification.id : '', count: 2 },
    });
    // The author hears no notification of their own act.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ownerSocket.messages.filter((m) => m.type === 'notification')).toEqual([]);
    for (const socket of [viewerSocket, ownerSocket]) socket.socket.close();
  });
});

describePostgres('notifications across server processes (SYNC_SPEC R31)', (env) => {
  it('R31: an upload pushed through one process notifies a socket open on another', async () => {
    const app = await env.buildApp();
    const api = new ApiClient(app);
    const [owner, viewer] = [await VaultActor.create(env, api), await VaultActor.create(env, api)];
    const vaultId = await owner.createVault({ isPublic: true });
    await addMember(owner, vaultId, viewer, 'VIEWER', null);
    const [one, two] = await Promise.all([
      startServerProcess({ dataDir: env.dataDir, databaseUrl: env.databaseUrl }),
      startServerProcess({ dataDir: env.dataDir, databaseUrl: env.databaseUrl }),
    ]);
    try {
      const socket = connectSocket(`${two.wsUrl}?token=${viewer.token}`);
      await socket.opened;
      await socket.waitFor((m) => m.type === 'hello');
      const folderId = newId();
      const op = await owner.sign(vaultId, folderId, { type: 'folder.create', parentId: null, name: clear('Plans') });
      const response = await fetch(`${one.url}/api/vaults/ops`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ops: [op] }),
      });
      expect(response.status).toBe(200);
      expectAccepted(PushResponse.parse(await response.json()).results[0]);
      expect(await socket.waitFor((m) => m.type === 'notification', 10_000)).toMatchObject({
        type: 'notification',
        notification: { event: 'FOLDER_CREATE', objectId: folderId, vaultId, fromEmail: owner.user.email },
      });
      socket.socket.close();
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  }, 90_000);
});
