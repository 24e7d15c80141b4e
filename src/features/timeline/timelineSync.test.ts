/**
 * The timeline against the REAL server (buildApp on SQLite), the REAL crypto API and
 * fake-indexeddb: two members of a private vault, each on their own device. What one does shows
 * on the other's timeline with both names, batch actions grouped by their signed groupRef
 * (SYNC_SPEC R28), and an operation whose signature does not verify is never shown (R29).
 */
import { liveQuery } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCryptoApi } from '../../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../../workers/transfer/createTransferApi';
import { ApiClient as ServerTestClient } from '../../../server/testing/ApiClient';
import { TestEnv } from '../../../server/testing/databases';
import { newSession } from '../../../server/testing/flows';
import { TestUser } from '../../../server/testing/TestUser';
import { createApiClient, type FetchLike } from '../../platform/apiClient';
import { CairnDb } from '../../storage/db';
import { getChildren } from '../../storage/vaultStore';
import { setCurrentSync } from '../../sync/currentSync';
import * as members from '../../sync/memberActions';
import { SyncClient } from '../../sync/SyncClient';
import { injectFetch } from '../../sync/testing/realServer';
import * as actions from '../../sync/vaultActions';
import { groupItems, groupSummary } from './timelineItems';
import { readTimeline } from './timelineSource';
import { describeItem } from './timelineText';

const env = new TestEnv('sqlite');
let app: FastifyInstance;

async function device() {
  const user = await TestUser.create();
  const session = await newSession(new ServerTestClient(app), env.dataDir, user);
  const crypto = createCryptoApi();
  await crypto.loadPendingWallet(user.phrase.split(' '));
  await crypto.activatePendingWallet();
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  const fetchLike = injectFetch(() => app, () => session.token);
  const api = createApiClient({ fetch: fetchLike as FetchLike });
  const client = new SyncClient({ db, api, crypto, transfer: createTransferApi({ fetch: fetchLike }), log: () => {} }, { pollIntervalMs: 0 });
  client.start(session.user.id, { id: session.user.id, publicSigningKey: user.publicSigningKey, address: user.address });
  return { user, userId: session.user.id, db, client };
}
type Device = Awaited<ReturnType<typeof device>>;

async function as<T>(d: Device, action: () => Promise<T>): Promise<T> {
  setCurrentSync(d.client);
  return action();
}

/** Each line of `d`'s timeline as a user reads it: author, words, object. */
async function linesOf(d: Device, vaultId: string, role: string): Promise<string[]> {
  const items = await readTimeline(d.db, d.userId, vaultId, { key: d.user.publicSigningKey, role });
  return groupItems(items).map(({ items: group }) => {
    const first = group[0]!;
    if (group.length > 1) return `${first.authorName} ${groupSummary(group)}: ${group.map((i) => i.name).join(', ')}`;
    const { before, object, after } = describeItem(first);
    return [first.authorName, before, object ?? ''].join(' ').trim() + after;
  });
}

const file = (name: string, text: string) => ({ file: new File([text], name, { type: 'text/plain', lastModified: 1 }) });

beforeAll(async () => {
  await env.setUp();
  app = await env.buildApp();
}, 60_000);

afterAll(async () => {
  setCurrentSync(null);
  await env.tearDown();
});

describe('timeline against the real server', () => {
  it('two members see each other by name, batch uploads and hides as one group, in newest-first order', async () => {
    const owner = await device();
    const alex = await device();
    const vaultId = await as(owner, () => actions.createVault({ title: 'Ridge survey', description: '', tags: [], terms: 'Research only.', isPublic: false, isCloud: true }));
    await owner.client.syncNow();
    const [invited] = await as(owner, () => members.inviteMembers(vaultId, [{ email: alex.user.email, role: 'CONTRIBUTOR' }]));
    await alex.client.syncNow();
    await as(alex, () => members.acceptInvite(vaultId, (invited as { membershipId: string }).membershipId));
    await owner.client.syncNow();

    await as(owner, () => actions.uploadFiles(vaultId, null, [file('north.txt', 'n'), file('south.txt', 's')]));
    await owner.client.syncNow();
    await alex.client.syncNow();
    const folderId = await as(alex, () => actions.createFolder(vaultId, null, 'Cairns'));
    await as(alex, () => actions.renameNode(vaultId, folderId, 'Cairn sites'));
    await alex.client.syncNow();
    await owner.client.syncNow();
    const files = (await getChildren(owner.db, owner.userId, vaultId, null)).filter((n) => n.kind === 'file');
    await as(owner, () => actions.hideNodes(vaultId, files.map((f) => f.id)));
    await owner.client.syncNow();
    await alex.client.syncNow();

    const ownerName = owner.user.email;
    const alexName = alex.user.email;
    // Newest first: the batch's last operation heads its group.
    const hidden = files.map((f) => f.name).reverse().join(', ');
    expect(await linesOf(alex, vaultId, 'CONTRIBUTOR')).toEqual([
      `${ownerName} hid 2 files: ${hidden}`,
      'You renamed the folder to Cairn sites',
      // An item names what its operation signed: the folder was made as 'Cairns'.
      'You created the folder Cairns',
      expect.stringMatching(new RegExp(`^${ownerName} uploaded 2 files: (north.txt, south.txt|south.txt, north.txt)$`)),
      'You accepted the terms of access',
      `${ownerName} invited ${alexName} as Contributor`,
      `${ownerName} created the vault Ridge survey`,
    ]);
    const ownerLines = await linesOf(owner, vaultId, 'OWNER');
    expect(ownerLines.slice(0, 3)).toEqual([`You hid 2 files: ${hidden}`, `${alexName} renamed the folder to Cairn sites`, `${alexName} created the folder Cairns`]);
  }, 120_000);

  it('the live timeline (one read transaction, only the nodes it names) follows actions, their pull, and renames', async () => {
    const owner = await device();
    const vaultId = await as(owner, () => actions.createVault({ title: 'Live', description: '', tags: [], terms: '', isPublic: false, isCloud: true }));
    await owner.client.syncNow();
    let lines: string[] = [];
    const subscription = liveQuery(() => readTimeline(owner.db, owner.userId, vaultId, { key: owner.user.publicSigningKey, role: 'OWNER' })).subscribe({
      next: (items) => {
        lines = items.map((item) => `${describeItem(item).before} ${item.name ?? ''}${item.isPending ? ' (pending)' : ''}`.trim());
      },
    });
    try {
      await vi.waitFor(() => expect(lines).toEqual(['created the vault Live']));
      const folderId = await as(owner, () => actions.createFolder(vaultId, null, 'Maps'));
      // Pending in the outbox at once (the client may push it before the check looks).
      await vi.waitFor(() => expect(lines).toEqual([expect.stringMatching(/^created the folder Maps( \(pending\))?$/), 'created the vault Live']));
      await owner.client.syncNow();
      await vi.waitFor(() => expect(lines).toEqual(['created the folder Maps', 'created the vault Live']));
      // A hide names the folder by its current name, read from the node after the rename.
      await as(owner, () => actions.renameNode(vaultId, folderId, 'Old maps'));
      await as(owner, () => actions.hideNodes(vaultId, [folderId]));
      await owner.client.syncNow();
      await vi.waitFor(() => expect(lines).toEqual(['hid the folder Old maps', 'renamed the folder to Old maps', 'created the folder Maps', 'created the vault Live']));
    } finally {
      subscription.unsubscribe();
    }
  }, 60_000);

  it('an operation whose signature does not verify is never an item', async () => {
    const owner = await device();
    const vaultId = await as(owner, () => actions.createVault({ title: 'Checked', description: '', tags: [], terms: '', isPublic: false, isCloud: true }));
    await as(owner, () => actions.createFolder(vaultId, null, 'Real folder'));
    await owner.client.syncNow();
    expect(await linesOf(owner, vaultId, 'OWNER')).toEqual(['You created the folder Real folder', 'You created the vault Checked']);
    // The cached copy of the folder.create is marked unverified, as the worker marks a forged one.
    await owner.db.opPages.toCollection().modify((page) => {
      for (const op of page.ops) if (op.op.body.type === 'folder.create') op.isVerified = false;
    });
    expect(await linesOf(owner, vaultId, 'OWNER')).toEqual(['You created the vault Checked']);
  }, 60_000);
});
