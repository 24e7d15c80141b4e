/**
 * Vault key rings (DESIGN.md section 3): a list of 32-byte symmetric keys numbered from 0. New
 * content uses the newest key; a rotation (a member revoked or leaving) appends a key and seals the
 * ring to the remaining members only, so older keys keep opening older content.
 *
 * Sealed form: base64url(crypto_box_seal(UTF-8 JSON list of base64url keys, member's X25519
 * public key)). crypto_box_seal uses a fresh ephemeral key each time, so there is no fixed
 * ciphertext to pin; tests/fixtures/key-ring.json pins the opening side.
 */
import { base64UrlToBytes, bytesToBase64Url, bytesToUtf8, utf8ToBytes } from './encoding';
import { randomBytes } from './random';
import type { Sodium } from './sodium';

export const VAULT_KEY_BYTES = 32;
const X25519_KEY_BYTES = 32;

/** A vault's keys, index = key number. */
export type KeyRing = Uint8Array[];

/** A new ring holding one fresh random key (number 0). */
export function createKeyRing(): KeyRing {
  return [randomBytes(VAULT_KEY_BYTES)];
}

/** A new ring: `ring` plus one fresh random key, which becomes the newest. `ring` is unchanged. */
export function addKey(ring: readonly Uint8Array[]): KeyRing {
  return [...ring, randomBytes(VAULT_KEY_BYTES)];
}

/** Seals the whole ring to a member's X25519 public key (32 bytes). */
export function sealKeyRing(sodium: Sodium, ring: readonly Uint8Array[], publicEncryptionKey: Uint8Array): string {
  if (ring.length === 0 || ring.some((key) => key.length !== VAULT_KEY_BYTES)) throw new TypeError('sealKeyRing: bad ring');
  if (publicEncryptionKey.length !== X25519_KEY_BYTES) throw new TypeError('sealKeyRing: public key must be 32 bytes');
  const json = utf8ToBytes(JSON.stringify(ring.map((key) => bytesToBase64Url(key))));
  return bytesToBase64Url(sodium.crypto_box_seal(json, publicEncryptionKey));
}

/**
 * Opens a ring sealed to the key pair (X25519 public and private key). Throws
 * Error('BAD_VAULT_KEYS') when it was sealed to someone else, was tampered with or is not a
 * non-empty list of 32-byte keys.
 */
export function openKeyRing(
  sodium: Sodium,
  sealed: string,
  publicEncryptionKey: Uint8Array,
  privateEncryptionKey: Uint8Array,
): KeyRing {
  try {
    const json = bytesToUtf8(sodium.crypto_box_seal_open(base64UrlToBytes(sealed), publicEncryptionKey, privateEncryptionKey));
    const list: unknown = JSON.parse(json);
    if (!Array.isArray(list) || list.length === 0) throw new Error('shape');
    return list.map((text) => {
      if (typeof text !== 'string') throw new Error('shape');
      const key = base64UrlToBytes(text);
      if (key.length !== VAULT_KEY_BYTES) throw new Error('length');
      return key;
    });
  } catch {
    throw new Error('BAD_VAULT_KEYS');
  }
}
