/** Vault creation, listing, pushes and pulls of signed operations, folder structure rules. */
import { beforeAll, expect, it } from 'vitest';
import { operationSigningPayload, PullResponse, VaultListResponse } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { clear, countVaultRows, expectAccepted, expectRejected, newId, sealed, VaultActor } from '../testing/vaults';

describeEachDatabase('vault operations', (env) => {
  let api: ApiClient;
  let owner: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
  });

  async function pull(vaultId: string, after = 0, limit?: number) {
    const response = await api.get(`/api/vaults/${vaultId}/ops?after=${after}${limit ? `&limit=${limit}` : ''}`, { token: owner.token });
    expectStatus(response, 200);
    return PullResponse.parse(response.body);
  }

  it('creates a private vault: listed with the sealed key ring, owner and head', async () => {
    const vaultId = newId();
    const ownerKeys = sealed(80).c;
    const create = await owner.sign(vaultId, vaultId, { type: 'vault.create', isPublic: false, isCloud: true, name: sealed(), ownerKeys });
    expect(expectAccepted((await owner.push(create))[0])).toBe(1);

    const list = VaultListResponse.parse((await api.get('/api/vaults', { token: owner.token })).body);
    const summary = list.vaults.find((v) => v.vaultId === vaultId);
    expect(summary).toMatchObject({
      isPublic: false,
      isCloud: true,
      status: 'ACTIVE',
      ownerAddress: owner.user.address,
      membership: { role: 'OWNER', status: 'ACCEPTED', keys: ownerKeys },
      headSeq: 1,
      size: 0,
    });
    const pulled = await pull(vaultId);
    expect(pulled.ops).toEqual([{ seq: 1, receivedAt: expect.any(Number), op: create }]);
    expect(pulled).toMatchObject({ headSeq: 1, hasMore: false });
  });

  it('requires sealed fields and the key ring in private vaults, clear fields and no keys in public ones', async () => {
    const before = await countVaultRows(env.db);
    const cases = [
      { type: 'vault.create', isPublic: false, isCloud: true, name: clear('Tax returns'), ownerKeys: sealed().c },
      { type: 'vault.create', isPublic: false, isCloud: true, name: sealed() },
      { type: 'vault.create', isPublic: true, isCloud: true, name: sealed() },
      { type: 'vault.create', isPublic: true, isCloud: true, name: clear('Open'), ownerKeys: sealed().c },
    ] as const;
    for (const body of cases) {
      const vaultId = newId();
      expectRejected(await owner.apply(vaultId, vaultId, body), 'VALIDATION_FAILED');
    }
    expect(await countVaultRows(env.db)).toEqual(before);

    const publicId = await owner.createVault({ isPublic: true });
    expectAccepted(await owner.apply(publicId, newId(), { type: 'folder.create', parentId: null, name: clear('Photos') }));
    expectRejected(await owner.apply(publicId, newId(), { type: 'folder.create', parentId: null, name: sealed() }), 'VALIDATION_FAILED');
    const privateId = await owner.createVault();
    expectRejected(await owner.apply(privateId, newId(), { type: 'folder.create', parentId: null, name: clear('Photos') }), 'VALIDATION_FAILED');
  });

  it('refuses vault.create on an existing vault or with another object id', async () => {
    const vaultId = await owner.createVault();
    expectRejected(await owner.apply(vaultId, vaultId, { type: 'vault.create', isPublic: false, isCloud: true, name: sealed(), ownerKeys: 'abc' }), 'INVALID_OPERATION');
    const other = newId();
    expectRejected(await owner.apply(other, newId(), { type: 'vault.create', isPublic: false, isCloud: true, name: sealed(), ownerKeys: 'abc' }), 'INVALID_OPERATION');
  });

  it('answers a repeated operation id with its original seq and stores it once', async () => {
    const vaultId = await owner.createVault();
    const op = await owner.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() });
    const [first] = await owner.push(op);
    const [second, third] = await owner.push(op, op);
    expect(first).toEqual({ id: op.id, status: 'accepted', vaultId, seq: 2 });
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    const rows = await env.db.selectFrom('ops').selectAll().where('op_id', '=', op.id).execute();
    expect(rows).toHaveLength(1);
    expect((await pull(vaultId)).headSeq).toBe(2);

    // The same id with other content is not a repeat.
    const forged = await owner.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }, op.id);
    expectRejected((await owner.push(forged))[0], 'CONFLICT');
  });

  it('pages pulls by cursor in seq order', async () => {
    const vaultId = await owner.createVault();
    const ops = [];
    for (let i = 0; i < 6; i += 1) ops.push(await owner.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }));
    const results = await owner.push(...ops);
    expect(results.map((r) => expectAccepted(r))).toEqual([2, 3, 4, 5, 6, 7]);

    const seen: number[] = [];
    let after = 0;
    for (;;) {
      const page = await pull(vaultId, after, 3);
      expect(page.headSeq).toBe(7);
      seen.push(...page.ops.map((o) => o.seq));
      if (!page.hasMore) break;
      after = page.ops.at(-1)?.seq ?? after;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await pull(vaultId, 7)).ops).toEqual([]);
    expectError(await api.get(`/api/vaults/${vaultId}/ops?after=-1`, { token: owner.token }), 400, 'VALIDATION_FAILED');
    expectError(await api.get(`/api/vaults/${vaultId}/ops?after=0&limit=1001`, { token: owner.token }), 400, 'VALIDATION_FAILED');
  });

  it('rejects a bad signature or another author and stores nothing, while the rest of the batch proceeds', async () => {
    const vaultId = await owner.createVault();
    const good = await owner.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() });
    const tampered = { ...(await owner.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() })), createdAt: 1 };
    const other = await VaultActor.create(env, api);
    const foreign = await other.sign(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() });
    const before = await countVaultRows(env.db);
    const results = await owner.push(tampered, foreign, good);
    expectRejected(results[0], 'INVALID_SIGNATURE');
    expectRejected(results[1], 'FORBIDDEN');
    expect(expectAccepted(results[2])).toBe(2);
    expect(await countVaultRows(env.db)).toEqual({ ...before, ops: (before.ops ?? 0) + 1, nodes: (before.nodes ?? 0) + 1 });
    expectError(await owner.pushRaw([]), 400, 'VALIDATION_FAILED');
    expectError(await api.post('/api/vaults/ops', { ops: [good] }), 401, 'UNAUTHENTICATED');
  });

  it('creates, renames, moves, hides, restores and deletes folders with the structure rules', async () => {
    const vaultId = await owner.createVault();
    const a = newId();
    const b = newId();
    const c = newId();
    expectAccepted(await owner.apply(vaultId, a, { type: 'folder.create', parentId: null, name: sealed() }));
    expectAccepted(await owner.apply(vaultId, b, { type: 'folder.create', parentId: a, name: sealed() }));
    expectAccepted(await owner.apply(vaultId, c, { type: 'folder.create', parentId: b, name: sealed() }));
    // Ids are new, parents exist and are folders.
    expectRejected(await owner.apply(vaultId, a, { type: 'folder.create', parentId: null, name: sealed() }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: newId(), name: sealed() }), 'INVALID_OPERATION');
    expectAccepted(await owner.apply(vaultId, b, { type: 'node.rename', name: sealed() }));
    expectRejected(await owner.apply(vaultId, newId(), { type: 'node.rename', name: sealed() }), 'INVALID_OPERATION');

    // No cycles: into itself, into a descendant.
    expectRejected(await owner.apply(vaultId, a, { type: 'node.move', parentId: a }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, a, { type: 'node.move', parentId: c }), 'INVALID_OPERATION');
    expectAccepted(await owner.apply(vaultId, c, { type: 'node.move', parentId: null }));
    expectAccepted(await owner.apply(vaultId, a, { type: 'node.move', parentId: c }));

    // Delete only when hidden; restore only when hidden; a hidden folder is no destination.
    expectRejected(await owner.apply(vaultId, b, { type: 'node.delete' }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, b, { type: 'node.restore' }), 'INVALID_OPERATION');
    expectAccepted(await owner.apply(vaultId, a, { type: 'node.hide' }));
    expectRejected(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: a, name: sealed() }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, c, { type: 'node.move', parentId: a }), 'INVALID_OPERATION');
    expectAccepted(await owner.apply(vaultId, a, { type: 'node.restore' }));
    expectAccepted(await owner.apply(vaultId, a, { type: 'node.hide' }));
    expectAccepted(await owner.apply(vaultId, a, { type: 'node.delete' }));
    const statuses = await env.db.selectFrom('nodes').select(['id', 'status']).where('vault_id', '=', vaultId).execute();
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({ [a]: 'DELETED', [b]: 'DELETED', [c]: 'ACTIVE' });
    expectRejected(await owner.apply(vaultId, a, { type: 'node.restore' }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, b, { type: 'node.rename', name: sealed() }), 'INVALID_OPERATION');

    // Restoring into a hidden parent needs a new parent.
    const d = newId();
    const e = newId();
    expectAccepted(await owner.apply(vaultId, d, { type: 'folder.create', parentId: c, name: sealed() }));
    expectAccepted(await owner.apply(vaultId, e, { type: 'folder.create', parentId: d, name: sealed() }));
    expectAccepted(await owner.apply(vaultId, e, { type: 'node.hide' }));
    expectAccepted(await owner.apply(vaultId, d, { type: 'node.hide' }));
    expectRejected(await owner.apply(vaultId, e, { type: 'node.restore' }), 'INVALID_OPERATION');
    expectAccepted(await owner.apply(vaultId, e, { type: 'node.restore', parentId: null }));
  });

  it('keeps the signed groupRef of a batch action: accepted and served back as signed (SYNC_SPEC R28)', async () => {
    const vaultId = await owner.createVault();
    const groupRef = newId();
    const ops = [];
    for (const name of [sealed(), sealed()]) {
      const unsigned = { id: newId(), vaultId, objectId: newId(), author: owner.user.publicSigningKey, createdAt: Date.now(), groupRef, body: { type: 'folder.create' as const, parentId: null, name } };
      ops.push({ ...unsigned, signature: await owner.user.sign(operationSigningPayload(unsigned)) });
    }
    expect((await owner.push(...ops)).map((r) => r.status)).toEqual(['accepted', 'accepted']);
    const served = (await pull(vaultId, 1)).ops.map((o) => o.op);
    expect(served).toEqual(ops);
    expect(served.map((op) => op.groupRef)).toEqual([groupRef, groupRef]);
  });

  it('answers 404 for a vault the caller is not in and for one that does not exist', async () => {
    const vaultId = await owner.createVault();
    const stranger = await VaultActor.create(env, api);
    expectError(await api.get(`/api/vaults/${vaultId}/ops?after=0`, { token: stranger.token }), 404, 'NOT_FOUND');
    expectError(await api.get(`/api/vaults/${newId()}/ops?after=0`, { token: stranger.token }), 404, 'NOT_FOUND');
    expectRejected(await stranger.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }), 'NOT_FOUND');
    expect(VaultListResponse.parse((await api.get('/api/vaults', { token: stranger.token })).body).vaults).toEqual([]);
  });
});
