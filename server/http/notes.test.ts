/**
 * note.draft on the server (docs/SYNC_SPEC.md R25-R27): only on an ACTIVE file of the vault,
 * based on one of its committed versions, sealed in a private vault and clear in a public one,
 * within the draft size limit; accepted drafts are pulled by the vault's members unread.
 */
import { beforeAll, expect, it } from 'vitest';
import { DRAFT_UPDATE_MAX, PullResponse } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { clear, countVaultRows, expectAccepted, expectRejected, makeFile, newId, sealed, VaultActor } from '../testing/vaults';

describeEachDatabase('note drafts', (env) => {
  let api: ApiClient;
  let owner: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
  });

  async function note(vaultId: string, options: { isPublic?: boolean } = {}) {
    const noteId = newId();
    const version = await owner.upload(vaultId, makeFile(20, options), options);
    const name = options.isPublic ? clear('Plan.md') : sealed();
    expectAccepted(await owner.apply(vaultId, noteId, { type: 'file.create', parentId: null, name, version }));
    return { noteId, versionId: version.versionId };
  }

  it('accepts a sealed draft of an active note and serves it to pulls as pushed', async () => {
    const vaultId = await owner.createVault();
    const { noteId, versionId } = await note(vaultId);
    const update = sealed(2_000);
    const op = await owner.sign(vaultId, noteId, { type: 'note.draft', baseVersionId: versionId, update });
    expectAccepted((await owner.push(op))[0]);
    const response = await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: owner.token });
    expectStatus(response, 200);
    expect(PullResponse.parse(response.body).ops.at(-1)?.op).toEqual(op);
  });

  it('refuses a draft of a folder, a hidden note, a missing note or another file version, and changes nothing', async () => {
    const vaultId = await owner.createVault();
    const { noteId, versionId } = await note(vaultId);
    const other = await note(vaultId);
    const folderId = newId();
    expectAccepted(await owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: sealed() }));
    const hidden = await note(vaultId);
    expectAccepted(await owner.apply(vaultId, hidden.noteId, { type: 'node.hide' }));
    const before = await countVaultRows(env.db);
    const draft = (baseVersionId: string) => ({ type: 'note.draft', baseVersionId, update: sealed() }) as const;
    expectRejected(await owner.apply(vaultId, folderId, draft(versionId)), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, hidden.noteId, draft(hidden.versionId)), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, newId(), draft(versionId)), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, noteId, draft(other.versionId)), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, noteId, draft(newId())), 'INVALID_OPERATION');
    expect(await countVaultRows(env.db)).toEqual(before);
  });

  it('refuses a clear draft in a private vault and a sealed one in a public vault', async () => {
    const privateId = await owner.createVault();
    const secret = await note(privateId);
    expectRejected(
      await owner.apply(privateId, secret.noteId, { type: 'note.draft', baseVersionId: secret.versionId, update: { clear: 'AAEC' } }),
      'VALIDATION_FAILED',
    );
    const publicId = await owner.createVault({ isPublic: true });
    const open = await note(publicId, { isPublic: true });
    expectRejected(
      await owner.apply(publicId, open.noteId, { type: 'note.draft', baseVersionId: open.versionId, update: sealed() }),
      'VALIDATION_FAILED',
    );
    expectAccepted(await owner.apply(publicId, open.noteId, { type: 'note.draft', baseVersionId: open.versionId, update: { clear: 'AAEC' } }));
  });

  it('refuses a draft larger than the limit at the edge', async () => {
    const vaultId = await owner.createVault();
    const { noteId, versionId } = await note(vaultId);
    const op = await owner.sign(vaultId, noteId, { type: 'note.draft', baseVersionId: versionId, update: { key: 0, c: 'A'.repeat(DRAFT_UPDATE_MAX + 201) } });
    const response = await owner.pushRaw([op]);
    expect(response.status).toBe(400);
  });
});
