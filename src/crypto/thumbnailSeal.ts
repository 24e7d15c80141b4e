/**
 * A private vault's thumbnail (docs/SYNC_SPEC.md R79): stored = nonce(12) || AES-256-GCM(image),
 * under the thumbnail key HKDF-SHA-256(ikm = the version's 32-byte file key, salt = empty,
 * info = 'cairn thumbnail v1'), with associated data 'cairn thumbnail v1' || 0x00 || version id.
 *
 * A key of its own, because the file key seals the content under nonces made of chunk indexes: a
 * thumbnail sealed under it at nonce 0 would reuse chunk 0's nonce. The nonce is random because
 * the image may be made again (a retried upload) with other bytes under the same file key. The
 * version id in the associated data keeps one version's thumbnail from being shown for another.
 */
import { THUMBNAIL_KEY_INFO } from '../protocol/thumbnails';
import { concatBytes, utf8ToBytes } from './encoding';

const NONCE_BYTES = 12;

async function thumbnailKey(fileKey: Uint8Array<ArrayBuffer>, usage: 'encrypt' | 'decrypt') {
  const subtle = globalThis.crypto.subtle;
  const ikm = await subtle.importKey('raw', fileKey, 'HKDF', false, ['deriveKey']);
  return subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8ToBytes(THUMBNAIL_KEY_INFO) },
    ikm,
    { name: 'AES-GCM', length: 256 },
    false,
    [usage],
  );
}

function associatedData(versionId: string): Uint8Array<ArrayBuffer> {
  return concatBytes(utf8ToBytes(THUMBNAIL_KEY_INFO), new Uint8Array([0]), utf8ToBytes(versionId));
}

/** Seals `image` for version `versionId` under its file key; `nonce` is for test vectors only. */
export async function sealThumbnail(
  fileKey: Uint8Array<ArrayBuffer>,
  versionId: string,
  image: Uint8Array<ArrayBuffer>,
  nonce: Uint8Array<ArrayBuffer> = globalThis.crypto.getRandomValues(new Uint8Array(NONCE_BYTES)),
): Promise<Uint8Array<ArrayBuffer>> {
  if (nonce.length !== NONCE_BYTES) throw new TypeError('sealThumbnail: the nonce is 12 bytes');
  const key = await thumbnailKey(fileKey, 'encrypt');
  const sealed = await globalThis.crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce, additionalData: associatedData(versionId) }, key, image);
  return concatBytes(nonce, new Uint8Array(sealed));
}

/** Opens a stored thumbnail; rejects when it was not sealed for this version under this file key. */
export async function openThumbnail(fileKey: Uint8Array<ArrayBuffer>, versionId: string, stored: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  if (stored.length < NONCE_BYTES + 16) throw new Error('The thumbnail is too short');
  const key = await thumbnailKey(fileKey, 'decrypt');
  const opened = await globalThis.crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: stored.slice(0, NONCE_BYTES), additionalData: associatedData(versionId) },
    key,
    stored.slice(NONCE_BYTES),
  );
  return new Uint8Array(opened);
}
