/**
 * docs/SYNC_SPEC.md R79 on the device: the upload step sends a private image's thumbnail sealed
 * (the server is handed no clear byte of it) and a public one's in clear; the list's loader checks
 * the signed hash, opens it, keeps it in IndexedDB, and a version without one stays an icon.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bytesToHex } from '../crypto/encoding';
import type { Thumbnail } from '../protocol/thumbnails';
import { CairnDb } from '../storage/db';
import type { VersionRecord } from '../storage/vaultRecords';
import { loadThumbnail } from './loadThumbnail';
import type { SyncContext } from './SyncContext';
import { FakeVaultCrypto } from './testing/FakeVaultCrypto';
import { uploadThumbnail } from './uploadThumbnail';

const IMAGE = new TextEncoder().encode('RIFF\u0000\u0000\u0000\u0000WEBPVP8 pretend pixels of a mountain');
const make = async () => ({ bytes: IMAGE.slice().buffer, width: 256, height: 170 });

let db: CairnDb;
let crypto: FakeVaultCrypto;
let sent: { announced: unknown[]; chunks: Map<string, Uint8Array> };

function context(): SyncContext {
  let n = 0;
  const ctx = {
    db,
    crypto,
    accountId: 'acc1',
    now: () => 1_000,
    newId: () => `thumb-${++n}`,
    log: () => undefined,
    api: {
      post: async (_path: string, body: unknown) => {
        sent.announced.push(body);
        return { blobId: 'x', storedChunks: [], committed: false };
      },
    },
    transfer: {
      putChunk: async ({ body, url }: { body: Blob; url: string }) => {
        sent.chunks.set(url, new Uint8Array(await body.arrayBuffer()));
      },
    },
  };
  return ctx as unknown as SyncContext;
}

beforeEach(() => {
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  crypto = new FakeVaultCrypto();
  void crypto.createVaultKeys('v1');
  sent = { announced: [], chunks: new Map() };
});
afterEach(() => db.close());

async function keepVersion(versionId: string, thumbnail: Thumbnail | undefined, fileKey?: VersionRecord['fileKey']) {
  await db.versions.put({ accountId: 'acc1', vaultId: 'v1', fileId: 'f1', versionId, ...(thumbnail ? { thumbnail } : {}), ...(fileKey ? { fileKey } : {}) } as VersionRecord);
}

const served = (url: string) => async () => {
  const bytes = sent.chunks.get(url);
  if (!bytes) throw new Error('404');
  return bytes.slice().buffer;
};

describe('[R79] thumbnails on the device', () => {
  it('a private image: sealed before it leaves, opened on load, then kept on the device', async () => {
    const ctx = context();
    const { rawKey, sealed } = await crypto.createFileKey('v1', 'ver1');
    const record = { vaultId: 'v1', versionId: 'ver1', fileType: 'image/png', name: 'summit.png' };
    const thumbnail = await uploadThumbnail(ctx, record, new Blob(['png']), rawKey, true, make);
    expect(thumbnail).toMatchObject({ blobId: 'thumb-1', width: 256, height: 170 });
    expect(sent.announced).toEqual([{ blobId: 'thumb-1', storedSize: IMAGE.length + 28, chunkCount: 1 }]);
    const url = '/api/vaults/v1/blobs/thumb-1/chunks/0';
    const stored = new Uint8Array(sent.chunks.get(url)!);
    // What the server holds is not the image, and its hash is what the version signs.
    expect(bytesToHex(stored)).not.toContain(bytesToHex(IMAGE.slice(0, 12)));
    expect(bytesToHex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', stored)))).toBe(thumbnail!.sha256);

    await keepVersion('ver1', thumbnail!, sealed);
    const image = await loadThumbnail(ctx, 'ver1', served(url));
    expect(new Uint8Array(await image!.arrayBuffer())).toEqual(IMAGE);
    // Kept: the second look needs no network.
    const again = await loadThumbnail(ctx, 'ver1', async () => {
      throw new Error('offline');
    });
    expect(new Uint8Array(await again!.arrayBuffer())).toEqual(IMAGE);
  });

  it('a public image goes up in clear', async () => {
    const ctx = context();
    const thumbnail = await uploadThumbnail(ctx, { vaultId: 'v1', versionId: 'ver2', fileType: 'image/jpeg', name: 'a.jpg' }, new Blob(['jpg']), null, false, make);
    expect(sent.chunks.get(`/api/vaults/v1/blobs/${thumbnail!.blobId}/chunks/0`)).toEqual(IMAGE);
  });

  it('a chunk that is not the signed one is refused and not kept', async () => {
    const ctx = context();
    const { rawKey, sealed } = await crypto.createFileKey('v1', 'ver3');
    const thumbnail = await uploadThumbnail(ctx, { vaultId: 'v1', versionId: 'ver3', fileType: 'image/webp', name: 'w.webp' }, new Blob(['w']), rawKey, true, make);
    await keepVersion('ver3', thumbnail!, sealed);
    const forged = async () => new Uint8Array(IMAGE.length + 28).buffer;
    await expect(loadThumbnail(ctx, 'ver3', forged)).rejects.toThrow(/signed/);
    expect(await db.thumbnails.count()).toBe(0);
  });

  it('[R79a] a private PDF gets its first page as a thumbnail, sealed like an image', async () => {
    const ctx = context();
    const { rawKey } = await crypto.createFileKey('v1', 'ver5');
    const asked: string[] = [];
    const makeFromPdf = async (_file: Blob, mimeType: string) => {
      asked.push(mimeType);
      return make();
    };
    const record = { vaultId: 'v1', versionId: 'ver5', fileType: 'application/pdf', name: 'route.pdf' };
    const thumbnail = await uploadThumbnail(ctx, record, new Blob(['%PDF-1.4']), rawKey, true, makeFromPdf);
    expect(asked).toEqual(['application/pdf']);
    expect(thumbnail).toMatchObject({ width: 256, height: 170, storedSize: IMAGE.length + 28 });
  });

  it('no thumbnail for other types or a failed encoder; the upload goes on without one', async () => {
    const ctx = context();
    const base = { vaultId: 'v1', versionId: 'ver4', name: 'x' };
    expect(await uploadThumbnail(ctx, { ...base, fileType: 'text/plain' }, new Blob(['t']), null, false, make)).toBeNull();
    expect(await uploadThumbnail(ctx, { ...base, fileType: 'application/pdf' }, new Blob(['%PDF']), null, false, async () => null)).toBeNull();
    expect(await uploadThumbnail(ctx, { ...base, fileType: 'image/png' }, new Blob(['?']), null, false, async () => null)).toBeNull();
    const failing = async () => {
      throw new Error('decoder crashed');
    };
    expect(await uploadThumbnail(ctx, { ...base, fileType: 'image/png' }, new Blob(['?']), null, false, failing)).toBeNull();
    expect(sent.announced).toEqual([]);
  });

  it('a version uploaded before thumbnails loads none (the list shows its icon)', async () => {
    await keepVersion('old', undefined);
    expect(await loadThumbnail(context(), 'old', async () => new ArrayBuffer(0))).toBeNull();
    // A version not on the device yet is not a 'none': the row asks again later.
    expect(await loadThumbnail(context(), 'not-pulled-yet', async () => new ArrayBuffer(0))).toBeUndefined();
  });
});
