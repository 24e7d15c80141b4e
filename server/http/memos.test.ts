/**
 * Chat on the server (spec 000 sections 2, 4-6; docs/SYNC_SPEC.md R22-R24): memo ops only in
 * ACTIVE private vaults, memo ids unique per vault, reactions only on a memo of that vault, and
 * the message length bound. Roles are in vaultRoles.test.ts; the clear-text scan in
 * privateVaultScan.test.ts.
 */
import { beforeAll, expect, it } from 'vitest';
import { MEMO_LIMITS, PullResponse } from '../../src/protocol/vaults';
import { MESSAGE_SEALED_MAX } from '../services/ops/memoOps';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { clear, countVaultRows, expectAccepted, expectRejected, newId, sealed, VaultActor } from '../testing/vaults';

describeEachDatabase('memos', (env) => {
  let api: ApiClient;
  let owner: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
  });

  async function pulledTypes(vaultId: string): Promise<string[]> {
    const response = await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: owner.token });
    expectStatus(response, 200);
    return PullResponse.parse(response.body).ops.map((o) => o.op.body.type);
  }

  it('[R22] posts a memo and reacts to it in a private vault; both are pulled in order', async () => {
    const vaultId = await owner.createVault();
    const memoId = newId();
    expect(expectAccepted(await owner.apply(vaultId, memoId, { type: 'memo.create', message: sealed() }))).toBe(2);
    expect(expectAccepted(await owner.apply(vaultId, memoId, { type: 'memo.react', reaction: sealed(), isAdded: true }))).toBe(3);
    expect(expectAccepted(await owner.apply(vaultId, memoId, { type: 'memo.react', reaction: sealed(), isAdded: false }))).toBe(4);
    expect(await pulledTypes(vaultId)).toEqual(['vault.create', 'memo.create', 'memo.react', 'memo.react']);
  });

  it('refuses memo ops in a public vault, whatever their fields', async () => {
    const vaultId = await owner.createVault({ isPublic: true });
    const before = await countVaultRows(env.db);
    expectRejected(await owner.apply(vaultId, newId(), { type: 'memo.create', message: clear('Hello') }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, newId(), { type: 'memo.create', message: sealed() }), 'VALIDATION_FAILED');
    expect(await countVaultRows(env.db)).toEqual(before);
  });

  it('refuses a clear message in a private vault', async () => {
    const vaultId = await owner.createVault();
    expectRejected(await owner.apply(vaultId, newId(), { type: 'memo.create', message: clear('Hello') }), 'VALIDATION_FAILED');
  });

  it('refuses memo ops in an archived vault', async () => {
    const vaultId = await owner.createVault();
    const memoId = newId();
    expectAccepted(await owner.apply(vaultId, memoId, { type: 'memo.create', message: sealed() }));
    expectAccepted(await owner.apply(vaultId, vaultId, { type: 'vault.archive' }));
    expectRejected(await owner.apply(vaultId, newId(), { type: 'memo.create', message: sealed() }), 'VAULT_ARCHIVED');
    expectRejected(await owner.apply(vaultId, memoId, { type: 'memo.react', reaction: sealed(), isAdded: true }), 'VAULT_ARCHIVED');
  });

  it('refuses a memo id already used in the vault, or used by a node or the vault', async () => {
    const vaultId = await owner.createVault();
    const memoId = newId();
    expectAccepted(await owner.apply(vaultId, memoId, { type: 'memo.create', message: sealed() }));
    expectRejected(await owner.apply(vaultId, memoId, { type: 'memo.create', message: sealed() }), 'INVALID_OPERATION');
    const folderId = newId();
    expectAccepted(await owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: sealed() }));
    expectRejected(await owner.apply(vaultId, folderId, { type: 'memo.create', message: sealed() }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, vaultId, { type: 'memo.create', message: sealed() }), 'INVALID_OPERATION');
  });

  it('refuses a reaction on a memo that does not exist or belongs to another vault', async () => {
    const vaultId = await owner.createVault();
    const otherVaultId = await owner.createVault();
    const otherMemoId = newId();
    expectAccepted(await owner.apply(otherVaultId, otherMemoId, { type: 'memo.create', message: sealed() }));
    expectRejected(await owner.apply(vaultId, newId(), { type: 'memo.react', reaction: sealed(), isAdded: true }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, otherMemoId, { type: 'memo.react', reaction: sealed(), isAdded: true }), 'INVALID_OPERATION');
  });

  it(`refuses a message longer than ${MEMO_LIMITS.MESSAGE_MAX} characters (by its sealed size)`, async () => {
    const vaultId = await owner.createVault();
    // The largest ciphertext a 5,000-character message can make passes; one byte more does not.
    const fits = { key: 0, c: 'A'.repeat(MESSAGE_SEALED_MAX) };
    const tooLong = { key: 0, c: 'A'.repeat(MESSAGE_SEALED_MAX + 4) };
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'memo.create', message: fits }));
    expectRejected(await owner.apply(vaultId, newId(), { type: 'memo.create', message: tooLong }), 'VALIDATION_FAILED');
  });
});
