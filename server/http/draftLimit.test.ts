/**
 * SYNC_SPEC R63: a note's drafts on one base version are limited (DRAFT_LIMITS): past the count or
 * the characters the server refuses the draft with DRAFT_LIMIT and changes nothing; other notes,
 * and the same note once saved as a new version, take drafts again.
 */
import { beforeAll, expect, it } from 'vitest';
import { DRAFT_LIMIT_MESSAGE, DRAFT_LIMITS, VAULT_LIMITS } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { countVaultRows, expectAccepted, expectRejected, makeFile, newId, sealed, VaultActor } from '../testing/vaults';

describeEachDatabase('note draft limit', (env) => {
  let api: ApiClient;
  let owner: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
  });

  async function note(vaultId: string) {
    const noteId = newId();
    const version = await owner.upload(vaultId, makeFile(20));
    expectAccepted(await owner.apply(vaultId, noteId, { type: 'file.create', parentId: null, name: sealed(), version }));
    return { noteId, versionId: version.versionId };
  }

  function draft(vaultId: string, noteId: string, baseVersionId: string, bytes = 40) {
    return owner.sign(vaultId, noteId, { type: 'note.draft', baseVersionId, update: sealed(bytes) });
  }

  it(`[R63] refuses the draft after ${DRAFT_LIMITS.OPS_PER_BASE} on one base with DRAFT_LIMIT, changing nothing; another note and a new version take drafts`, { timeout: 120_000 }, async () => {
    const vaultId = await owner.createVault();
    const { noteId, versionId } = await note(vaultId);
    for (let sent = 0; sent < DRAFT_LIMITS.OPS_PER_BASE; sent += VAULT_LIMITS.PUSH_BATCH_MAX) {
      const batch = await Promise.all(Array.from({ length: VAULT_LIMITS.PUSH_BATCH_MAX }, () => draft(vaultId, noteId, versionId)));
      for (const result of await owner.push(...batch)) expectAccepted(result);
    }
    const before = await countVaultRows(env.db);
    const [refused] = await owner.push(await draft(vaultId, noteId, versionId));
    expectRejected(refused, 'DRAFT_LIMIT');
    expect(refused).toMatchObject({ error: { message: DRAFT_LIMIT_MESSAGE } });
    expect(await countVaultRows(env.db)).toEqual(before);

    const other = await note(vaultId);
    expectAccepted((await owner.push(await draft(vaultId, other.noteId, other.versionId)))[0]);
    // Saving the note makes a new base: its drafts start a new count.
    const version = await owner.upload(vaultId, makeFile(30));
    expectAccepted(await owner.apply(vaultId, noteId, { type: 'file.addVersion', version }));
    expectAccepted((await owner.push(await draft(vaultId, noteId, version.versionId)))[0]);
    expectRejected((await owner.push(await draft(vaultId, noteId, versionId)))[0], 'DRAFT_LIMIT');
  });

  it(`[R63] refuses the draft that would pass ${DRAFT_LIMITS.CHARS_PER_BASE} characters of updates on one base`, { timeout: 120_000 }, async () => {
    const vaultId = await owner.createVault();
    const { noteId, versionId } = await note(vaultId);
    const size = 520_000; // about 693,000 base64url characters: a pasted page
    const fitting = Math.floor(DRAFT_LIMITS.CHARS_PER_BASE / sealed(size).c.length);
    for (let i = 0; i < fitting; i += 1) expectAccepted((await owner.push(await draft(vaultId, noteId, versionId, size)))[0]);
    const before = await countVaultRows(env.db);
    expectRejected((await owner.push(await draft(vaultId, noteId, versionId, size)))[0], 'DRAFT_LIMIT');
    expect(await countVaultRows(env.db)).toEqual(before);
    // A small one still fits what is left.
    expectAccepted((await owner.push(await draft(vaultId, noteId, versionId, 40)))[0]);
  });
});
