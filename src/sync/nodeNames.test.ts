/**
 * SYNC_SPEC R73 at the actions every screen calls: a create, rename, move or note save that would
 * repeat a name of the folder, or give a name a file system cannot save, is refused with a
 * VALIDATION_FAILED on `name` and queues nothing; uploads never repeat a name either.
 */
import { describe, expect, it } from 'vitest';
import { NAME_TEXTS } from '../domain/nodeNames';
import { setCurrentSync } from './currentSync';
import { saveNote } from './noteActions';
import { signedInServer } from './testing/realServer';
import * as actions from './vaultActions';

const real = signedInServer(() => setCurrentSync(null));

let devices = 0;

function startDevice() {
  return real.startDevice(`names${(devices += 1)}`);
}

/** What the dialog shows: the refusal's text for the name field. */
async function refusalOf(action: Promise<unknown>): Promise<string | null> {
  try {
    await action;
    return null;
  } catch (error) {
    return actions.nameRefusalText(error);
  }
}

describe('[R73] names at the actions', () => {
  it('[R73] create folder, rename, move and note save refuse a name the folder has (any case) or a bad name, queueing nothing', async () => {
    const { db, client } = await startDevice();
    const vaultId = await actions.createVault({ title: 'Names', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    const trips = await actions.createFolder(vaultId, null, 'Trips');
    const inner = await actions.createFolder(vaultId, trips, 'Photos');
    const other = await actions.createFolder(vaultId, null, 'Other');
    const otherPhotos = await actions.createFolder(vaultId, other, 'photos');
    await client.syncNow();
    const queued = await db.outbox.count();

    expect(await refusalOf(actions.createFolder(vaultId, null, 'TRIPS'))).toBe(NAME_TEXTS.taken('Trips'));
    expect(await refusalOf(actions.createFolder(vaultId, null, 'a/b'))).toBe(NAME_TEXTS.forbidden);
    expect(await refusalOf(actions.createFolder(vaultId, null, '..'))).toBe(NAME_TEXTS.onlyDots);
    expect(await refusalOf(actions.renameNode(vaultId, other, 'trips'))).toBe(NAME_TEXTS.taken('Trips'));
    expect(await refusalOf(actions.renameNode(vaultId, other, 'tab\there'))).toBe(NAME_TEXTS.control);
    // Dragging Other/photos into Trips, which holds Photos.
    expect(await refusalOf(actions.moveNodes(vaultId, [otherPhotos], trips))).toBe(NAME_TEXTS.takenByMove('photos'));
    expect(await refusalOf(saveNote({ vaultId, folderId: null, title: 'Trips.md', text: 'x' }))).toBeNull();
    expect(await refusalOf(saveNote({ vaultId, folderId: null, title: 'trips', text: 'y' }))).toBe(NAME_TEXTS.taken('Trips.md'));
    expect(await db.outbox.count()).toBe(queued);
    expect(await db.uploads.where('accountId').equals(real.userId).count()).toBe(1);

    // Its own name in another case, and a move where the name is free, are fine.
    await actions.renameNode(vaultId, inner, 'PHOTOS');
    await actions.moveNodes(vaultId, [otherPhotos], null);
    await client.syncNow();
    const names = (await db.nodes.where('[accountId+vaultId]').equals([real.userId, vaultId]).toArray()).map((n) => n.name).sort();
    expect(names).toEqual(['Other', 'PHOTOS', 'Trips', 'Trips.md', 'photos']);
    client.stop();
  }, 60_000);

  it('[R73] uploads into a folder never repeat a name there and keep only names a disk can save', async () => {
    const { db, client } = await startDevice();
    const vaultId = await actions.createVault({ title: 'Uploads', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    await actions.createFolder(vaultId, null, 'Photos');
    await client.syncNow();
    const file = (name: string) => new File(['x'], name, { type: 'text/plain' });
    await actions.uploadFiles(vaultId, null, [
      { file: file('photos') },
      { file: file('a.txt') },
      { file: file('A.TXT') },
      { file: file('what?.txt') },
      { file: file('b.txt'), path: ['PHOTOS'] },
    ]);
    const uploads = await db.uploads.where('accountId').equals(real.userId).toArray();
    const folders = (await db.nodes.where('[accountId+vaultId]').equals([real.userId, vaultId]).toArray()).filter((n) => n.kind === 'folder');
    expect(uploads.map((u) => u.name).sort()).toEqual(['A copy.TXT', 'a.txt', 'b.txt', 'photos copy', 'what_.txt']);
    // The folder pick's 'PHOTOS' went into the existing 'Photos' instead of making a second one.
    expect(folders.map((f) => f.name)).toEqual(['Photos']);
    expect(uploads.find((u) => u.name === 'b.txt')?.parentId).toBe(folders[0]!.id);
    client.stop();
  }, 60_000);
});
