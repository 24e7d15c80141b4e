/**
 * A hostile server (DESIGN.md section 3, SYNC_SPEC R50-R52): the REAL server and the REAL crypto
 * API, with the server's database or answers changed the way an attacker holding the server
 * would. The device must refuse what the log does not vouch for, never seal under a key the
 * server slipped in, and keep the vault readable as last verified, marked 'This vault's history
 * could not be verified'.
 */
import { describe, expect, it } from 'vitest';
import { createKeyRing, sealKeyRing } from '../crypto/keyRing';
import { hexToBytes } from '../crypto/encoding';
import { loadSodium } from '../crypto/sodium';
import { canonicalJson } from '../protocol/canonical';
import { PullResponse, type Operation, type UnsignedOperation } from '../protocol/vaults';
import { getChildren, getVault } from '../storage/vaultStore';
import { as, type Device, realServerSuite, sharedVault, sync } from './testing/realDevices';
import * as actions from './vaultActions';

const { env, device } = realServerSuite();

/** The server appends `op` to the vault's log as if it had accepted it (what a hostile server can do). */
async function appendToLog(vaultId: string, authorUserId: string, op: Operation): Promise<number> {
  const vault = await env.db.selectFrom('vaults').select('head_seq').where('id', '=', vaultId).executeTakeFirstOrThrow();
  const seq = Number(vault.head_seq) + 1;
  await env.db
    .insertInto('ops')
    .values({ vault_id: vaultId, seq, op_id: op.id, author_user_id: authorUserId, type: op.body.type, object_id: op.objectId, body: canonicalJson(op), received_at: Date.now() })
    .execute();
  await env.db.updateTable('vaults').set({ head_seq: seq }).where('id', '=', vaultId).execute();
  return seq;
}

/** A folder.create by `author`, sealed with the author's own copy of the ring when it holds one. */
async function folderCreateBy(author: Device, vaultId: string, name: string, folderId: string): Promise<Operation> {
  let sealedName;
  try {
    sealedName = (await author.crypto.sealFields(vaultId, folderId, { name })).name!;
  } catch {
    // No ring (not a member): a field that looks sealed; the device must refuse before opening it.
    sealedName = { key: 0, c: 'A'.repeat(60) };
  }
  const unsigned: UnsignedOperation = {
    id: `op-${folderId}`,
    vaultId,
    objectId: folderId,
    author: author.user.publicSigningKey,
    createdAt: Date.now(),
    body: { type: 'folder.create', parentId: null, name: sealedName },
  };
  return author.crypto.signOperation(unsigned);
}

async function folderNames(d: Device, vaultId: string): Promise<string[]> {
  return (await getChildren(d.db, d.userId, vaultId, null)).map((n) => n.name).sort();
}

async function problemOf(d: Device, vaultId: string) {
  return (await getVault(d.db, d.userId, vaultId))?.log?.problem ?? null;
}

describe('a hostile server against the client', () => {
  it('R50: an operation signed by a key that is not a member’s is refused and never applied; the vault stays readable', async () => {
    const owner = await device('owner');
    const mallory = await device('mallory');
    const vaultId = await as(owner, () => actions.createVault({ title: 'Ledger', description: '', tags: [], terms: '', isPublic: false, isCloud: true }));
    await as(owner, () => actions.createFolder(vaultId, null, 'Invoices'));
    await sync(owner);

    const seq = await appendToLog(vaultId, mallory.userId, await folderCreateBy(mallory, vaultId, 'Planted', 'planted-1'));
    await sync(owner);

    expect(await folderNames(owner, vaultId)).toEqual(['Invoices']);
    expect(await getVault(owner.db, owner.userId, vaultId)).toMatchObject({ name: 'Ledger', cursor: seq });
    expect(await problemOf(owner, vaultId)).toEqual({ seq, reason: 'its author was not a member of the vault' });
  });

  it('R50: a VIEWER’s operation that the server wrongly accepted is refused; the vault stays readable', async () => {
    const owner = await device('owner');
    const viewer = await device('viewer');
    const vaultId = await sharedVault(owner, [{ d: viewer, role: 'VIEWER' }], 'Minutes');
    await as(owner, () => actions.createFolder(vaultId, null, 'Board'));
    await sync(owner, viewer);

    // The viewer holds the ring, so its forged folder is sealed and signed properly: only its role is wrong.
    const seq = await appendToLog(vaultId, viewer.userId, await folderCreateBy(viewer, vaultId, 'Viewer was here', 'viewer-folder'));
    await sync(owner);

    expect(await folderNames(owner, vaultId)).toEqual(['Board']);
    expect(await problemOf(owner, vaultId)).toEqual({ seq, reason: 'its author was a VIEWER and folder.create needs an OWNER or CONTRIBUTOR' });
  });

  it('R50: a reordered page stops the pull at the first operation out of order; what came before stays readable', async () => {
    const owner = await device('owner');
    const vaultId = await as(owner, () => actions.createVault({ title: 'Archive', description: '', tags: [], terms: '', isPublic: false, isCloud: true }));
    await sync(owner);
    for (const name of ['One', 'Two', 'Three']) await as(owner, () => actions.createFolder(vaultId, null, name));
    await sync(owner);

    // A fresh device of the same account, whose server swaps two operations of the page.
    const second = await makeDeviceOf(owner);
    second.tamper = async (request, response) => {
      if (!request.startsWith(`GET /api/vaults/${vaultId}/ops`)) return response;
      const page = PullResponse.parse(await response.json());
      const third = page.ops.findIndex((o) => o.seq === 3);
      const fourth = page.ops.findIndex((o) => o.seq === 4);
      if (third >= 0 && fourth >= 0) [page.ops[third], page.ops[fourth]] = [page.ops[fourth]!, page.ops[third]!];
      return Response.json(page);
    };
    await sync(second);

    const vault = await getVault(second.db, second.userId, vaultId);
    expect(vault).toMatchObject({ name: 'Archive', cursor: 2 });
    expect(await folderNames(second, vaultId)).toEqual(['One']);
    expect(vault?.log?.problem).toEqual({ seq: 4, reason: 'the server served operation 4 where 3 was due' });
  });

  it('R51: a key ring the server substitutes is refused, nothing is sealed under it, and the vault stays readable', async () => {
    const owner = await device('owner');
    const vaultId = await as(owner, () => actions.createVault({ title: 'Secrets', description: '', tags: [], terms: '', isPublic: false, isCloud: true }));
    await as(owner, () => actions.createFolder(vaultId, null, 'Keys'));
    await sync(owner);

    // The server makes a ring of its own (two keys it knows), sealed to the owner's public key,
    // and says the vault was rotated, so new content would be sealed under a key it can read.
    const sodium = await loadSodium();
    const planted = [...createKeyRing(), ...createKeyRing()];
    const sealed = sealKeyRing(sodium, planted, hexToBytes(owner.user.publicEncryptionKey));
    await env.db.updateTable('memberships').set({ keys: sealed }).where('vault_id', '=', vaultId).where('user_id', '=', owner.userId).execute();
    await env.db.updateTable('vaults').set({ key_count: 2 }).where('id', '=', vaultId).execute();

    // The device holding the real ring refuses the substitute and keeps sealing under its own key.
    await as(owner, () => actions.createFolder(vaultId, null, 'After'));
    await sync(owner);
    expect(await folderNames(owner, vaultId)).toEqual(['After', 'Keys']);
    expect(await problemOf(owner, vaultId)).toMatchObject({ reason: 'the server serves a key ring that replaces keys this device holds' });
    const [queued] = await owner.db.outbox.toArray();
    const name = (queued?.op.body as { name?: { key: number } }).name;
    expect(name?.key).toBe(0);

    // A new device of the owner, given only the planted ring: it never seals under it.
    const second = await makeDeviceOf(owner);
    await sync(second);
    expect(await problemOf(second, vaultId)).toMatchObject({ reason: 'the server serves a key ring that no member handed out' });
    await expect(as(second, () => actions.createFolder(vaultId, null, 'Leak'))).rejects.toThrow('UNVERIFIED_VAULT_KEYS');
    expect(await second.db.outbox.count()).toBe(0);
  });
});

/** A second device signed in to `d`'s account (its own IndexedDB, crypto worker and session). */
async function makeDeviceOf(d: Device): Promise<Device> {
  return device(`${d.name}-2`, d.user);
}
