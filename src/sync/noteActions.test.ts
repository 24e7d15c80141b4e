/**
 * Saving notes (spec 000 section 4) over the real server: a new note is a markdown file; saving it
 * again adds a version and renames it when the title changed; an empty note is refused with the
 * spec's text and queues nothing.
 */
import { describe, expect, it } from 'vitest';
import { UNSUPPORTED_NOTE_MESSAGE } from '../domain/noteRules';
import { setCurrentSync } from './currentSync';
import { downloadFileVersion } from './downloadFile';
import { NoteSaveError, saveNote } from './noteActions';
import { signedInServer } from './testing/realServer';
import * as actions from './vaultActions';

const real = signedInServer(() => setCurrentSync(null));

describe('saveNote', () => {
  it('creates a markdown file, then adds a version and renames it; an empty note is refused', async () => {
    const { db, client } = await real.startDevice('note');
    const vaultId = await actions.createVault({ title: 'Notes', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    const folderId = await actions.createFolder(vaultId, null, 'Trips');

    expect(await saveNote({ vaultId, folderId, title: '', text: '# Ferry times\n08:10, 12:40' })).toBe('Ferry times.md');
    await client.syncNow();
    await client.syncNow();
    const nodes = await db.nodes.where('[accountId+vaultId]').equals([real.userId, vaultId]).toArray();
    const note = nodes.find((n) => n.name === 'Ferry times.md')!;
    expect(note).toMatchObject({ kind: 'file', parentId: folderId, mimeType: 'text/markdown', pendingOpIds: [] });

    await saveNote({ vaultId, folderId, title: 'Ferry', text: '# Ferry times\n08:10, 12:40, 18:00', existing: { noteId: note.id, name: note.name } });
    await client.syncNow();
    await client.syncNow();
    const saved = await db.nodes.get([real.userId, note.id]);
    expect(saved).toMatchObject({ name: 'Ferry.md', versionCount: 2, pendingOpIds: [] });
    const text = await (await downloadFileVersion(client.context, vaultId, note.id)).text();
    expect(text).toBe('# Ferry times\n08:10, 12:40, 18:00');

    const outboxBefore = await db.outbox.count();
    await expect(saveNote({ vaultId, folderId, title: 'Blank', text: '  \n' })).rejects.toThrow(new NoteSaveError(UNSUPPORTED_NOTE_MESSAGE));
    expect(await db.outbox.count()).toBe(outboxBefore);
    expect(await db.uploads.where('accountId').equals(real.userId).count()).toBe(2);
    client.stop();
  }, 60_000);
});
