/**
 * The file chunk format (DESIGN.md section 3). A file version's plaintext is cut into chunks of
 * `chunkSize` bytes (the last may be shorter; an empty file is one empty chunk), each sealed on its
 * own with AES-256-GCM (WebCrypto) under the version's fresh random file key:
 *
 * - nonce (12 bytes) = chunk index as uint64 big-endian || last-chunk flag as uint32 big-endian
 *   (1 for the last chunk, else 0);
 * - associated data = the header: format version byte (1) || chunk size || plaintext size ||
 *   chunk count, each uint64 big-endian (25 bytes);
 * - stored chunk = ciphertext || 16-byte tag.
 *
 * So any chunk decrypts alone and in parallel, while a chunk moved to another index, a middle chunk
 * presented as the last (truncation), a chunk of another file version or a changed header all fail
 * authentication. Nonces never repeat under a key because every file version gets a new key and
 * a retried chunk re-seals identical bytes. tests/fixtures/file-chunks.json pins the format.
 *
 * The chunk size is a parameter (CHUNK_SIZE is the app's value) so tests use small chunks.
 */
import { CHUNK_SIZE, CHUNK_TAG_BYTES } from '../protocol/vaults';
import { bytesToHex } from './encoding';

export const FILE_FORMAT_VERSION = 1;
export const FILE_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const HEADER_BYTES = 1 + 3 * 8;

/** An AES-GCM key as WebCrypto gives it (typed without the DOM lib, which the server lacks). */
export type FileKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

/** What every chunk's associated data binds. */
export interface ChunkHeader {
  /** Plaintext size of the whole file version, bytes. */
  size: number;
  chunkSize: number;
  chunkCount: number;
}

/** Number of chunks for a plaintext of `size` bytes; an empty file still has one (empty) chunk. */
export function chunkCount(size: number, chunkSize: number = CHUNK_SIZE): number {
  if (!Number.isSafeInteger(size) || size < 0) throw new TypeError('chunkCount: bad size');
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) throw new TypeError('chunkCount: bad chunk size');
  return Math.max(1, Math.ceil(size / chunkSize));
}

/** The header of a plaintext of `size` bytes. */
export function chunkHeaderFor(size: number, chunkSize: number = CHUNK_SIZE): ChunkHeader {
  return { size, chunkSize, chunkCount: chunkCount(size, chunkSize) };
}

/** Throws TypeError unless the header is self-consistent (its count is the one its sizes give). */
export function assertChunkHeader(header: ChunkHeader): void {
  if (chunkCount(header.size, header.chunkSize) !== header.chunkCount) throw new TypeError('chunk header: inconsistent chunk count');
}

/** Byte range [start, end) of chunk `index` in the plaintext. Throws RangeError for a bad index. */
export function plainChunkRange(index: number, header: ChunkHeader): { start: number; end: number } {
  assertChunkHeader(header);
  if (!Number.isSafeInteger(index) || index < 0 || index >= header.chunkCount) throw new RangeError('chunk index out of range');
  const start = index * header.chunkSize;
  return { start, end: Math.min(header.size, start + header.chunkSize) };
}

/** Plaintext bytes of chunk `index`. Throws RangeError for a bad index. */
export function plainChunkSize(index: number, header: ChunkHeader): number {
  const { start, end } = plainChunkRange(index, header);
  return end - start;
}

/** Stored size of a whole version: the plaintext, plus one tag per chunk when encrypted. */
export function storedFileSize(header: ChunkHeader, isEncrypted: boolean): number {
  return header.size + (isEncrypted ? header.chunkCount * CHUNK_TAG_BYTES : 0);
}

/** The 12-byte AES-GCM nonce of chunk `index`. */
export function chunkNonce(index: number, isLast: boolean): Uint8Array<ArrayBuffer> {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError('chunkNonce: bad index');
  const out = new Uint8Array(NONCE_BYTES);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(index));
  view.setUint32(8, isLast ? 1 : 0);
  return out;
}

/** The 25-byte header every chunk authenticates (the AES-GCM associated data). */
export function chunkHeaderBytes(header: ChunkHeader): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(HEADER_BYTES);
  const view = new DataView(out.buffer);
  out[0] = FILE_FORMAT_VERSION;
  view.setBigUint64(1, BigInt(header.chunkSize));
  view.setBigUint64(9, BigInt(header.size));
  view.setBigUint64(17, BigInt(header.chunkCount));
  return out;
}

/** Imports a raw 32-byte file key for AES-GCM (non-extractable). */
export async function importFileKey(raw: ArrayBuffer | Uint8Array): Promise<FileKey> {
  const bytes = new Uint8Array(raw.byteLength);
  bytes.set(raw instanceof Uint8Array ? raw : new Uint8Array(raw));
  if (bytes.length !== FILE_KEY_BYTES) throw new TypeError('importFileKey: key must be 32 bytes');
  try {
    return await globalThis.crypto.subtle.importKey('raw', bytes, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
  } finally {
    bytes.fill(0);
  }
}

function toOwnBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/**
 * Seals chunk `index` of a file version. `plaintext` must be exactly that chunk (its length is
 * checked against the header: a changed source file must not be sealed under the old header).
 */
export async function encryptChunk(
  key: FileKey,
  index: number,
  header: ChunkHeader,
  plaintext: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const { start, end } = plainChunkRange(index, header);
  if (plaintext.length !== end - start) throw new RangeError('encryptChunk: plaintext length does not match the header');
  const sealed = await globalThis.crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: chunkNonce(index, index === header.chunkCount - 1), additionalData: chunkHeaderBytes(header) },
    key,
    toOwnBuffer(plaintext),
  );
  return new Uint8Array(sealed);
}

/**
 * Opens stored chunk `index`. Throws Error('CHUNK_TAMPERED') when it does not authenticate as that
 * chunk of that version (wrong key, index, position, header, or any changed byte).
 */
export async function decryptChunk(
  key: FileKey,
  index: number,
  header: ChunkHeader,
  stored: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const { start, end } = plainChunkRange(index, header);
  if (stored.length !== end - start + CHUNK_TAG_BYTES) throw new Error('CHUNK_TAMPERED');
  try {
    const plain = await globalThis.crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: chunkNonce(index, index === header.chunkCount - 1), additionalData: chunkHeaderBytes(header) },
      key,
      toOwnBuffer(stored),
    );
    return new Uint8Array(plain);
  } catch {
    throw new Error('CHUNK_TAMPERED');
  }
}

/** Lower-case hex SHA-256: a stored chunk's receipt (`x-chunk-sha256`, `FileVersion.chunkHashes`). */
export async function sha256Hex(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  const data = bytes instanceof Uint8Array ? toOwnBuffer(bytes) : bytes;
  return bytesToHex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', data)));
}
