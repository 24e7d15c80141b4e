/**
 * SYNC_SPEC R63 on the device: a draft the server refuses for the draft limit is kept in the
 * outbox as a rejection (R9) that the note editor finds and shows; the typed text stays in the
 * draft; the operations queued after it go on; saving dismisses it. Real server (buildApp on
 * SQLite), real crypto API, fake-indexeddb.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createCryptoApi } from '../../../workers/crypto/createCryptoApi';
import { createTransferApi } from '../../../workers/transfer/createTransferApi';
import { createApiClient, type FetchLike } from '../../platform/apiClient';
import { DRAFT_LIMIT_MESSAGE, DRAFT_LIMITS } from '../../protocol/vaults';
import { CairnDb } from '../../storage/db';
import { setCurrentSync } from '../../sync/currentSync';
import { NoteDraftSync, replaceText, seedDraft } from '../../sync/noteDrafts';
import { SyncClient } from '../../sync/SyncClient';
import { signedInServer } from '../../sync/testing/realServer';
import * as actions from '../../sync/vaultActions';
import { readDraftLimitRefusals } from './draftLimit';

const real = signedInServer(() => setCurrentSync(null));

let nextId = 0;

async function newDevice(): Promise<{ db: CairnDb; client: SyncClient }> {
  const crypto = createCryptoApi();
  await crypto.loadPendingWallet(real.user.phrase.split(' '));
  await crypto.activatePendingWallet();
  const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  const fetchLike = real.fetch();
  const client = new SyncClient(
    {
      db,
      crypto,
      api: createApiClient({ fetch: fetchLike as FetchLike }),
      transfer: createTransferApi({ fetch: fetchLike }),
      log: () => {},
      newId: () => `L-${(nextId += 1).toString(36).padStart(6, '0')}`,
    },
    { pollIntervalMs: 0 },
  );
  client.start(real.userId, real.me);
  return { db, client };
}

describe('SYNC_SPEC R63: the draft limit on the device', () => {
  it('[R63] a draft refused with DRAFT_LIMIT is found for its note and base, the text stays, later changes go on, and dismissing clears it', async () => {
    const { db, client } = await newDevice();
    setCurrentSync(client);
    const vaultId = await actions.createVault({ title: 'Limits', description: '', tags: [], terms: '', isPublic: false, isCloud: true });
    const saved = '# Plan\nFirst line.';
    await actions.uploadFiles(vaultId, null, [{ file: new File([saved], 'Plan.md', { type: 'text/markdown' }) }]);
    await client.syncNow();
    await client.syncNow();
    const note = (await db.nodes.where('[accountId+vaultId]').equals([real.userId, vaultId]).toArray()).find((n) => n.name === 'Plan.md')!;
    const [version] = await db.versions.where('[accountId+fileId]').equals([real.userId, note.id]).toArray();
    const target = { vaultId, noteId: note.id, baseVersionId: version!.versionId };
    // The server has taken as many drafts of this base as it keeps (written directly: a thousand
    // pushes would only make the test slow; server/http/draftLimit.test.ts pushes them).
    await real.env.db
      .insertInto('note_drafts')
      .values({ vault_id: vaultId, note_id: note.id, base_version_id: target.baseVersionId, count: DRAFT_LIMITS.OPS_PER_BASE, bytes: 0 })
      .execute();

    const doc = new Y.Doc();
    seedDraft(doc, 'Plan', saved);
    const sync = new NoteDraftSync(client.context, doc, target, { batchMs: 60_000 });
    replaceText(doc.getText('text'), `${saved}\nA line typed past the limit.`);
    await sync.flush();
    await actions.createFolder(vaultId, null, 'After');
    await client.syncNow();

    const refusals = await readDraftLimitRefusals(db, real.userId, target);
    expect(refusals.map((r) => r.error)).toEqual([{ code: 'DRAFT_LIMIT', message: DRAFT_LIMIT_MESSAGE }]);
    // Another base of the same note has no refusal.
    expect(await readDraftLimitRefusals(db, real.userId, { ...target, baseVersionId: 'another-version' })).toEqual([]);
    // The text typed is still the draft's; the change queued after the refusal was applied.
    expect(doc.getText('text').toString()).toContain('A line typed past the limit.');
    const nodes = await db.nodes.where('[accountId+vaultId]').equals([real.userId, vaultId]).toArray();
    expect(nodes.find((n) => n.name === 'After')?.pendingOpIds).toEqual([]);
    expect(nodes.find((n) => n.id === note.id)?.rejection).toMatchObject({ code: 'DRAFT_LIMIT', type: 'note.draft' });
    expect(await db.outbox.where('[accountId+vaultId]').equals([real.userId, vaultId]).filter((r) => r.status === 'pending').count()).toBe(0);

    await client.dismissRejection(refusals[0]!.opId);
    expect(await readDraftLimitRefusals(db, real.userId, target)).toEqual([]);
    client.stop();
  }, 60_000);
});
