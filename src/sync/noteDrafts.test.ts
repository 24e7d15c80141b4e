/**
 * SYNC_SPEC R25-R27: two devices of one account edit the same note's draft while offline; once
 * both are back online and synced, each device's draft holds both edits, the seed text (the saved
 * version, which both devices inserted on their own) appears once, and the server only ever held
 * the updates sealed. Real server (buildApp on SQLite), real crypto API, fake-indexeddb.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createCryptoApi } from '../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../workers/transfer/createTransferApi';
import { createApiClient, type FetchLike } from '../platform/apiClient';
import { PullResponse } from '../protocol/vaults';
import { CairnDb } from '../storage/db';
import { readDraftUpdates } from '../storage/noteDraftStore';
import { setCurrentSync } from './currentSync';
import { downloadFileVersion } from './downloadFile';
import { NoteDraftSync, replaceText, seedDraft, seedUpdate } from './noteDrafts';
import { SyncClient } from './SyncClient';
import { signedInServer } from './testing/realServer';
import * as actions from './vaultActions';

const real = signedInServer(() => setCurrentSync(null));

interface Device {
  db: CairnDb;
  client: SyncClient;
  online: boolean;
}

let nextId = 0;

async function newDevice(name: string): Promise<Device> {
  const crypto = createCryptoApi();
  await crypto.loadPendingWallet(real.user.phrase.split(' '));
  await crypto.activatePendingWallet();
  const device = { db: new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange }), online: true } as Device;
  const server = real.fetch();
  const fetchLike = (async (input: string | URL | Request, init?: RequestInit) => {
    if (!device.online) throw new TypeError('Failed to fetch');
    return server(input, init);
  }) as typeof fetch;
  device.client = new SyncClient(
    {
      db: device.db,
      crypto,
      api: createApiClient({ fetch: fetchLike as FetchLike }),
      transfer: createTransferApi({ fetch: fetchLike }),
      log: () => {},
      newId: () => `${name}-${(nextId += 1).toString(36).padStart(6, '0')}`,
    },
    { pollIntervalMs: 0 },
  );
  device.client.start(real.userId, real.me);
  return device;
}

/**
 * The node of a file `device` uploaded, once its upload finished and its operation was pushed. An
 * upload whose request failed is retried on a timer (the queue is then idle meanwhile), which a
 * loaded machine met: syncNow alone can return before it.
 */
async function uploadedNode(device: Device, vaultId: string, name: string) {
  for (let round = 0; round < 100; round += 1) {
    await device.client.syncNow();
    const node = (await device.db.nodes.where('[accountId+vaultId]').equals([real.userId, vaultId]).toArray()).find((n) => n.name === name);
    if (node && node.pendingOpIds.length === 0) return node;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} was never uploaded`);
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('SYNC_SPEC R25-R27: collaborative note drafts', () => {
  it('R26/R27: two devices edit one note offline; after reconnecting both drafts hold both edits and the seed once', async () => {
    const a = await newDevice('A');
    const b = await newDevice('B');
    setCurrentSync(a.client);
    const vaultId = await actions.createVault({ title: 'Notes', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    const saved = '# Trip\nPack the tent.\nBook the ferry.';
    await actions.uploadFiles(vaultId, null, [{ file: new File([saved], 'Trip.md', { type: 'text/markdown' }) }]);
    await uploadedNode(a, vaultId, 'Trip.md');
    await b.client.syncNow();
    const note = (await b.db.nodes.where('[accountId+vaultId]').equals([real.userId, vaultId]).toArray()).find((n) => n.name === 'Trip.md');
    expect(note).toBeDefined();
    const [version] = await b.db.versions.where('[accountId+fileId]').equals([real.userId, note!.id]).toArray();
    expect(version).toBeDefined();
    const target = { vaultId, noteId: note!.id, baseVersionId: version!.versionId };

    // Each device seeds its draft from the saved version it downloads (through the real path).
    const docs: Y.Doc[] = [];
    const syncs: NoteDraftSync[] = [];
    for (const device of [a, b]) {
      const text = await (await downloadFileVersion(device.client.context, vaultId, note!.id, version!.versionId)).text();
      expect(text).toBe(saved);
      const doc = new Y.Doc();
      seedDraft(doc, 'Trip', text);
      docs.push(doc);
      syncs.push(new NoteDraftSync(device.client.context, doc, target, { batchMs: 60_000 }));
    }
    const [docA, docB] = docs as [Y.Doc, Y.Doc];

    a.online = false;
    b.online = false;
    replaceText(docA.getText('text'), saved.replace('Pack the tent.', 'Pack the tent and stove.'));
    replaceText(docA.getText('title'), 'Trip north');
    replaceText(docB.getText('text'), `${saved}\nBring cash for the ferry.`);
    for (const sync of syncs) await sync.flush();
    // Offline: queued in each device's outbox, nothing reached the server.
    for (const device of [a, b]) {
      const drafts = (await device.db.outbox.toArray()).filter((r) => r.op.body.type === 'note.draft');
      expect(drafts).toHaveLength(1);
      expect(drafts[0]!.status).toBe('pending');
    }

    a.online = true;
    b.online = true;
    await a.client.syncNow();
    await b.client.syncNow();
    await a.client.syncNow();
    for (const [i, device] of [a, b].entries()) {
      syncs[i]!.applyPulled(await readDraftUpdates(device.db, real.userId, target.noteId, target.baseVersionId));
    }

    const expected = '# Trip\nPack the tent and stove.\nBook the ferry.\nBring cash for the ferry.';
    expect(docA.getText('text').toString()).toBe(expected);
    expect(docB.getText('text').toString()).toBe(expected);
    expect(docA.getText('title').toString()).toBe('Trip north');
    expect(docB.getText('title').toString()).toBe('Trip north');
    expect(occurrences(docA.getText('text').toString(), 'Book the ferry.')).toBe(1);

    // A third device starting from the saved version and the pulled updates sees the same draft.
    const c = await newDevice('C');
    await c.client.syncNow();
    const docC = new Y.Doc();
    seedDraft(docC, 'Trip', saved);
    new NoteDraftSync(c.client.context, docC, target).applyPulled(await readDraftUpdates(c.db, real.userId, target.noteId, target.baseVersionId));
    expect(docC.getText('text').toString()).toBe(expected);

    // The server holds the drafts sealed: no edit's text appears in what it serves.
    const served = JSON.stringify(PullResponse.parse(await (await real.fetch()(`/api/vaults/${vaultId}/ops?after=0`)).json()));
    expect(served).toContain('note.draft');
    expect(served).not.toContain('stove');
    expect(served).not.toContain('Bring cash');
    for (const device of [a, b, c]) device.client.stop();
  }, 60_000);

  it('R25: edits kept on the device but not queued before a reload are sent when the draft opens again', async () => {
    const a = await newDevice('R');
    setCurrentSync(a.client);
    const vaultId = await actions.createVault({ title: 'Reload', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    await actions.uploadFiles(vaultId, null, [{ file: new File(['Draft me'], 'Memo.md', { type: 'text/markdown' }) }]);
    const note = await uploadedNode(a, vaultId, 'Memo.md');
    const [version] = await a.db.versions.where('[accountId+fileId]').equals([real.userId, note.id]).toArray();
    const target = { vaultId, noteId: note.id, baseVersionId: version!.versionId };
    const drafts = async () => (await a.db.outbox.toArray()).filter((r) => r.op.body.type === 'note.draft').length;

    // Offline, so the outbox shows what was queued. One edit queued, then one typed just before
    // the page went away (never flushed).
    a.online = false;
    const before = new Y.Doc();
    seedDraft(before, 'Memo', 'Draft me');
    const first = new NoteDraftSync(a.client.context, before, target, { batchMs: 60_000 });
    replaceText(before.getText('text'), 'Draft me now');
    await first.flush();
    replaceText(before.getText('text'), 'Draft me now, quickly');
    first.cancel();
    expect(await drafts()).toBe(1);

    // The reload: the doc comes back from the device's copy (what y-indexeddb stores).
    const after = new Y.Doc();
    Y.applyUpdate(after, Y.encodeStateAsUpdate(before));
    seedDraft(after, 'Memo', 'Draft me');
    const second = new NoteDraftSync(a.client.context, after, target);
    await second.sendUnsent(seedUpdate('Memo', 'Draft me'));
    expect(await drafts()).toBe(2);
    // Opening again with nothing new sends nothing.
    await second.sendUnsent(seedUpdate('Memo', 'Draft me'));
    expect(await drafts()).toBe(2);

    a.online = true;
    await a.client.syncNow();
    const fresh = new Y.Doc();
    seedDraft(fresh, 'Memo', 'Draft me');
    new NoteDraftSync(a.client.context, fresh, target).applyPulled(await readDraftUpdates(a.db, real.userId, note.id, target.baseVersionId));
    expect(fresh.getText('text').toString()).toBe('Draft me now, quickly');
    // Once accepted and pulled, nothing is unsent.
    await second.sendUnsent(seedUpdate('Memo', 'Draft me'));
    expect(await drafts()).toBe(0);
    a.client.stop();
  }, 60_000);

  it('R27: the seed update is identical wherever it is made, so seeding twice changes nothing', () => {
    expect(seedUpdate('T', 'Body')).toEqual(seedUpdate('T', 'Body'));
    const doc = new Y.Doc();
    seedDraft(doc, 'T', 'Body');
    seedDraft(doc, 'T', 'Body');
    expect(doc.getText('text').toString()).toBe('Body');
  });

  it('replaceText edits only the changed span, so concurrent edits elsewhere survive', () => {
    const one = new Y.Doc();
    const two = new Y.Doc();
    seedDraft(one, '', 'abc def ghi');
    seedDraft(two, '', 'abc def ghi');
    replaceText(one.getText('text'), 'abc DEF ghi');
    replaceText(two.getText('text'), 'abc def ghi jkl');
    Y.applyUpdate(one, Y.encodeStateAsUpdate(two));
    Y.applyUpdate(two, Y.encodeStateAsUpdate(one));
    expect(one.getText('text').toString()).toBe('abc DEF ghi jkl');
    expect(two.getText('text').toString()).toBe('abc DEF ghi jkl');
  });
});
