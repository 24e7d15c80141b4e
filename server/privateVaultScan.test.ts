/**
 * DESIGN.md section 3: for a private vault the server never holds a name or file byte in clear.
 * After creating a vault, a folder, a file, a chat message and a reaction whose texts and content
 * carry markers, a scan of
 * every file under DATA_DIR (the SQLite database and the blob store) and, on PostgreSQL, of every
 * table finds neither marker, while the ciphertext itself is found (the scan can see).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { CHUNK_SIZE, CHUNK_TAG_BYTES, type SealedField } from '../src/protocol/vaults';
import { TABLES } from './db/Database';
import { ApiClient } from './testing/ApiClient';
import { describeEachDatabase } from './testing/databases';
import { expectAccepted, newId, VaultActor, versionOf } from './testing/vaults';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** AES-256-GCM like the client's chunk format: ciphertext then the 16-byte tag. */
function encrypt(key: Buffer, plain: Buffer): Buffer {
  const cipher = crypto.createCipheriv('aes-256-gcm', key, Buffer.alloc(12));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([body, cipher.getAuthTag()]);
}

/** A sealed field made of real ciphertext (nonce || ciphertext || tag). */
function seal(key: Buffer, text: string): SealedField {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { key: 0, c: Buffer.concat([nonce, body]).toString('base64url') };
}

describeEachDatabase('private vault scan', (env) => {
  it('finds no clear name or file content of a private vault in DATA_DIR or the database', async () => {
    const api = new ApiClient(await env.buildApp());
    const owner = await VaultActor.create(env, api);
    const vaultKey = crypto.randomBytes(32);
    const fileKey = crypto.randomBytes(32);
    const markers = {
      'vault name': 'Vault-Name-Marker-Quokka-4471',
      'folder name': 'Folder-Name-Marker-Ibis-9052',
      'file name': 'File-Name-Marker-Tapir-3318.txt',
      content: 'CONTENT-MARKER-Narwhal-7720',
      'chat message': 'Chat-Message-Marker-Axolotl-6613',
      reaction: 'Reaction-Marker-Okapi-5521',
    };

    const vaultId = newId();
    expectAccepted(
      await owner.apply(vaultId, vaultId, {
        type: 'vault.create',
        isPublic: false,
        isCloud: true,
        name: seal(vaultKey, markers['vault name']),
        ownerKeys: crypto.randomBytes(120).toString('base64url'),
      }),
    );
    const folderId = newId();
    expectAccepted(await owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: seal(vaultKey, markers['folder name']) }));
    const plain = Buffer.from(`${markers.content}\n`.repeat(200));
    const chunk = encrypt(fileKey, plain);
    const file = { size: plain.length, storedSize: plain.length + CHUNK_TAG_BYTES, chunkSize: CHUNK_SIZE, chunks: [chunk] };
    const uploaded = await owner.upload(vaultId, file);
    const version = { ...versionOf(uploaded.blobId, file, false), fileKey: seal(vaultKey, fileKey.toString('base64url')), mimeType: seal(vaultKey, 'text/plain') };
    expectAccepted(
      await owner.apply(vaultId, newId(), { type: 'file.create', parentId: folderId, name: seal(vaultKey, markers['file name']), version }),
    );

    const memoId = newId();
    expectAccepted(await owner.apply(vaultId, memoId, { type: 'memo.create', message: seal(vaultKey, markers['chat message']) }));
    expectAccepted(await owner.apply(vaultId, memoId, { type: 'memo.react', reaction: seal(vaultKey, markers.reaction), isAdded: true }));

    // Close everything so SQLite's WAL is checkpointed into the file being scanned as well.
    await api.app.close();
    await env.reopenDatabase();

    const files = filesUnder(env.dataDir);
    // Positive controls: the scan sees the stored ciphertext and the database.
    expect(files.some((f) => f.includes(`${path.sep}blobs${path.sep}`) && fs.readFileSync(f).equals(chunk))).toBe(true);
    if (env.kind === 'sqlite') {
      expect(files.some((f) => fs.readFileSync(f).includes(Buffer.from(vaultId))), 'scan sees the database').toBe(true);
    }
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      for (const [name, marker] of Object.entries(markers)) {
        expect(bytes.includes(Buffer.from(marker, 'utf8')), `${path.relative(env.dataDir, file)} contains the ${name}`).toBe(false);
      }
    }
    for (const table of TABLES) {
      const dump = JSON.stringify(await env.db.selectFrom(table).selectAll().execute());
      for (const [name, marker] of Object.entries(markers)) expect(dump.includes(marker), `${table} contains the ${name}`).toBe(false);
    }
  });
});
