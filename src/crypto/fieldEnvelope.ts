/**
 * Field envelopes: the small user texts of a private vault (names, descriptions, tags, terms, MIME
 * types, file keys) sealed under a vault key (DESIGN.md section 3).
 *
 * Format (version 1): `SealedField { key, c }` with `c` = base64url(nonce (24) || ciphertext),
 * XChaCha20-Poly1305-IETF under key number `key` of the vault's ring, associated data
 * `cairn-field-v1 \0 vaultId \0 objectId \0 field \0 key` (UTF-8, decimal key number). The
 * associated data is what stops a server (or a member) from moving a sealed value onto another
 * vault, object or field, or relabelling it with another key number: it then fails to open.
 * Ids are `[A-Za-z0-9_-]+` (src/protocol/primitives.ts) and field names are fixed, so the NUL
 * separators make the encoding unambiguous. tests/fixtures/field-envelope.json pins the format.
 *
 * Takes the initialised libsodium as an argument (synchronous, no loading): only the crypto worker,
 * the server and tests hold it.
 */
import type { FieldName, SealedField } from '../protocol/vaults';
import { base64UrlToBytes, bytesToBase64Url, bytesToUtf8, concatBytes, utf8ToBytes } from './encoding';
import { randomBytes } from './random';
import type { Sodium } from './sodium';

export const FIELD_ENVELOPE_CONTEXT = 'cairn-field-v1';
const KEY_BYTES = 32;
const NONCE_BYTES = 24;
const TAG_BYTES = 16;

/** Where a sealed field belongs: part of its associated data. */
export interface FieldContext {
  vaultId: string;
  objectId: string;
  field: FieldName;
}

/** The associated data of a field envelope. Throws TypeError for an id that could blur it. */
export function fieldAssociatedData(context: FieldContext, keyIndex: number): Uint8Array<ArrayBuffer> {
  const { vaultId, objectId, field } = context;
  if (!Number.isSafeInteger(keyIndex) || keyIndex < 0) throw new TypeError('field envelope: bad key index');
  for (const part of [vaultId, objectId, field]) {
    if (part.length === 0 || part.includes('\0')) throw new TypeError('field envelope: empty id or id with NUL');
  }
  return utf8ToBytes(`${FIELD_ENVELOPE_CONTEXT}\0${vaultId}\0${objectId}\0${field}\0${keyIndex}`);
}

/** Seals `plaintext` under vault key number `keyIndex` (`key`, 32 bytes) with a fresh random nonce. */
export function sealField(
  sodium: Sodium,
  key: Uint8Array,
  keyIndex: number,
  context: FieldContext,
  plaintext: string,
): SealedField {
  return sealFieldWithNonce(sodium, key, keyIndex, context, plaintext, randomBytes(NONCE_BYTES));
}

/**
 * `sealField` with a caller-chosen nonce. For known-answer tests only: a nonce must never seal two
 * different plaintexts under one key, and only a random 192-bit nonce makes that safe.
 */
export function sealFieldWithNonce(
  sodium: Sodium,
  key: Uint8Array,
  keyIndex: number,
  context: FieldContext,
  plaintext: string,
  nonce: Uint8Array,
): SealedField {
  if (key.length !== KEY_BYTES) throw new TypeError('sealField: key must be 32 bytes');
  if (nonce.length !== NONCE_BYTES) throw new TypeError('sealField: nonce must be 24 bytes');
  const ad = fieldAssociatedData(context, keyIndex);
  const sealed = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(utf8ToBytes(plaintext), ad, null, nonce, key);
  return { key: keyIndex, c: bytesToBase64Url(concatBytes(nonce, sealed)) };
}

/**
 * Opens a field sealed for `context` with `key`, which must be key number `sealed.key` of the
 * vault's ring. Throws Error('BAD_FIELD') for anything that does not authenticate: another key,
 * vault, object or field, a changed key number, tampering, malformed text or invalid UTF-8.
 */
export function openField(sodium: Sodium, key: Uint8Array, context: FieldContext, sealed: SealedField): string {
  try {
    if (key.length !== KEY_BYTES) throw new Error('key');
    const bytes = base64UrlToBytes(sealed.c);
    if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new Error('short');
    const ad = fieldAssociatedData(context, sealed.key);
    const plain = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(
      null,
      bytes.subarray(NONCE_BYTES),
      ad,
      bytes.subarray(0, NONCE_BYTES),
      key,
    );
    return bytesToUtf8(plain);
  } catch {
    throw new Error('BAD_FIELD');
  }
}

/** Tags travel (sealed or clear) as the text of a JSON array of strings. */
export function encodeTags(tags: readonly string[]): string {
  return JSON.stringify(tags);
}

/** The tags of an opened `tags` field; an empty list for text that is not a JSON string array. */
export function decodeTags(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((tag) => typeof tag === 'string') ? value : [];
  } catch {
    return [];
  }
}
