import Database from 'better-sqlite3';
import { join } from 'node:path';
import { bytesToHex } from '../../src/crypto/encoding';
import { signOperation } from '../../src/crypto/operations';
import { loadSodium } from '../../src/crypto/sodium';
import { canonicalJson } from '../../src/protocol/canonical';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

/**
 * What a server holding the database can do: append to a vault's log an operation it signed with
 * a key of its own, as if a member had pushed it (SYNC_SPEC R50).
 */
async function appendForgedFolder(vaultId: string, name: string): Promise<void> {
  const sodium = await loadSodium();
  const keys = sodium.crypto_sign_keypair();
  const folderId = `forged${Date.now().toString(36)}`;
  const op = await signOperation(keys.privateKey, {
    id: `op${folderId}`,
    vaultId,
    objectId: folderId,
    author: bytesToHex(keys.publicKey),
    createdAt: Date.now(),
    body: { type: 'folder.create', parentId: null, name: { key: 0, c: Buffer.from(name).toString('base64url').padEnd(60, 'A') } },
  });
  const db = new Database(join(DATA_DIR, 'cairn.sqlite'));
  try {
    db.transaction(() => {
      const { head_seq: head, owner_user_id: owner } = db.prepare('select head_seq, owner_user_id from vaults where id = ?').get(vaultId) as { head_seq: number; owner_user_id: string };
      db.prepare('insert into ops (vault_id, seq, op_id, author_user_id, type, object_id, body, received_at) values (?, ?, ?, ?, ?, ?, ?, ?)').run(
        vaultId,
        head + 1,
        op.id,
        owner,
        op.body.type,
        op.objectId,
        canonicalJson(op),
        Date.now(),
      );
      db.prepare('update vaults set head_seq = ? where id = ?').run(head + 1, vaultId);
    })();
  } finally {
    db.close();
  }
}

test('a change the server forged is refused: the vault says its history could not be verified and shows what was verified', async ({ page, shoot }, testInfo) => {
  const email = uniqueEmail(testInfo, 'forged');
  await new SignupFlow(page).createAccount(DATA_DIR, email, STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault('Field ledger', { storage: 'Cloud storage', privacy: 'Private' });
  await room.createFolder('Kept receipts');
  await expect(page.getByRole('status', { name: /Synced/ })).toBeVisible({ timeout: 30_000 });
  const vaultId = /\/vaults\/active\/([A-Za-z0-9_-]+)\//.exec(page.url())![1]!;

  await appendForgedFolder(vaultId, 'Planted');
  await page.reload();

  await expect(page.getByRole('alert').filter({ hasText: "This vault's history could not be verified" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('alert')).toContainText('its author was not a member of the vault');
  await expect(room.row('Kept receipts')).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(2);
  await shoot('forged-history');
});
