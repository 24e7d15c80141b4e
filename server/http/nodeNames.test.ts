/**
 * SYNC_SPEC R73 on the server: what it can check of names and structure. A public vault's names
 * are in clear, so one no common file system can save is refused; a sealed name is the device's
 * to check. Whatever the names, a move or create needs an active folder of the vault as its
 * destination, never the item itself or a file.
 */
import { beforeAll, expect, it } from 'vitest';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { clear, countVaultRows, expectAccepted, expectRejected, makeFile, newId, sealed, VaultActor } from '../testing/vaults';

describeEachDatabase('node names and structure (R73)', (env) => {
  let api: ApiClient;
  let owner: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
  });

  it('[R73] refuses clear names a file system cannot save in a public vault, changing nothing', async () => {
    const vaultId = await owner.createVault({ isPublic: true });
    const folderId = newId();
    expectAccepted(await owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: clear('Photos') }));
    const version = await owner.upload(vaultId, makeFile(10, { isPublic: true }), { isPublic: true });
    const before = await countVaultRows(env.db);
    for (const name of ['a/b', '..', 'tab\there', 'CON', 'trailing.', '']) {
      expectRejected(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: clear(name) }), 'INVALID_OPERATION');
      expectRejected(await owner.apply(vaultId, folderId, { type: 'node.rename', name: clear(name) }), 'INVALID_OPERATION');
    }
    expectRejected(await owner.apply(vaultId, newId(), { type: 'file.create', parentId: null, name: clear('what?.txt'), version }), 'INVALID_OPERATION');
    expect(await countVaultRows(env.db)).toEqual(before);
    expectAccepted(await owner.apply(vaultId, folderId, { type: 'node.rename', name: clear('Photos 2024') }));
  });

  it('[R73] accepts any sealed name: the server cannot read it', async () => {
    const vaultId = await owner.createVault();
    expectAccepted(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: null, name: sealed() }));
  });

  it('[R73] a move or create goes only into an active folder of the vault, never into a file or the item itself', async () => {
    const vaultId = await owner.createVault();
    const otherVault = await owner.createVault();
    const folderId = newId();
    const otherFolder = newId();
    expectAccepted(await owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: sealed() }));
    expectAccepted(await owner.apply(otherVault, otherFolder, { type: 'folder.create', parentId: null, name: sealed() }));
    const version = await owner.upload(vaultId, makeFile(10));
    const fileId = newId();
    expectAccepted(await owner.apply(vaultId, fileId, { type: 'file.create', parentId: null, name: sealed(), version }));
    const before = await countVaultRows(env.db);
    expectRejected(await owner.apply(vaultId, folderId, { type: 'node.move', parentId: fileId }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, fileId, { type: 'node.move', parentId: fileId }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, folderId, { type: 'node.move', parentId: folderId }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, folderId, { type: 'node.move', parentId: otherFolder }), 'INVALID_OPERATION');
    expectRejected(await owner.apply(vaultId, newId(), { type: 'folder.create', parentId: fileId, name: sealed() }), 'INVALID_OPERATION');
    expect(await countVaultRows(env.db)).toEqual(before);
    expectAccepted(await owner.apply(vaultId, fileId, { type: 'node.move', parentId: folderId }));
  });
});
