/**
 * `encBackupPhrase`: the phrase's entropy sealed under a key derived from the OPAQUE export key
 * (DESIGN.md section 2), so a new device needs only e-mail and password. The server stores the
 * blob and can neither open it nor brute-force the password offline (the export key depends on
 * the server's OPRF key).
 *
 * Format (version 1), base64url without padding:
 *   0x01 || nonce (24 bytes) || XChaCha20-Poly1305-IETF(entropy, ad = "cairn:encBackupPhrase:v1")
 * Key: BLAKE2b-256 keyed with the export key over the context "cairn-backup-phrase-v1", so the
 * export key itself is never used as a cipher key and other uses of it get independent keys.
 * A change to any of this must bump the version byte; tests/fixtures/backup-phrase.json pins it.
 */
import { base64UrlToBytes, bytesToBase64Url, concatBytes, utf8ToBytes } from './encoding';
import { randomBytes } from './random';
import { loadSodium } from './sodium';

export const BACKUP_PHRASE_VERSION = 0x01;
const KDF_CONTEXT = utf8ToBytes('cairn-backup-phrase-v1');
const ASSOCIATED_DATA = utf8ToBytes('cairn:encBackupPhrase:v1');
const NONCE_BYTES = 24;
const TAG_BYTES = 16;
/** BIP39 entropy lengths: 128 to 256 bits in steps of 32. */
const ENTROPY_LENGTHS = new Set([16, 20, 24, 28, 32]);

/** The XChaCha20-Poly1305 key for `encBackupPhrase` from an OPAQUE export key (16 to 64 bytes). */
export async function deriveBackupPhraseKey(exportKey: Uint8Array): Promise<Uint8Array> {
  const sodium = await loadSodium();
  if (exportKey.length < sodium.crypto_generichash_KEYBYTES_MIN || exportKey.length > sodium.crypto_generichash_KEYBYTES_MAX) {
    throw new TypeError('deriveBackupPhraseKey: export key must be 16 to 64 bytes');
  }
  return sodium.crypto_generichash(32, KDF_CONTEXT, exportKey);
}

/** Seals phrase entropy under the export key with a fresh random nonce. */
export async function sealBackupPhrase(exportKey: Uint8Array, entropy: Uint8Array): Promise<string> {
  return sealBackupPhraseWithNonce(exportKey, entropy, randomBytes(NONCE_BYTES));
}

/**
 * `sealBackupPhrase` with a caller-chosen nonce. For known-answer tests only: a nonce must never
 * seal two different plaintexts under one key.
 */
export async function sealBackupPhraseWithNonce(
  exportKey: Uint8Array,
  entropy: Uint8Array,
  nonce: Uint8Array,
): Promise<string> {
  if (!ENTROPY_LENGTHS.has(entropy.length)) throw new TypeError('sealBackupPhrase: not BIP39 entropy');
  if (nonce.length !== NONCE_BYTES) throw new TypeError('sealBackupPhrase: nonce must be 24 bytes');
  const sodium = await loadSodium();
  const key = await deriveBackupPhraseKey(exportKey);
  try {
    const sealed = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(entropy, ASSOCIATED_DATA, null, nonce, key);
    return bytesToBase64Url(concatBytes(Uint8Array.of(BACKUP_PHRASE_VERSION), nonce, sealed));
  } finally {
    sodium.memzero(key);
  }
}

/**
 * Opens `encBackupPhrase` and returns the entropy. Throws Error('BAD_BACKUP') for anything that
 * does not authenticate: wrong export key (hence wrong password), tampering, unknown version.
 */
export async function openBackupPhrase(exportKey: Uint8Array, blob: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = base64UrlToBytes(blob);
  } catch {
    throw new Error('BAD_BACKUP');
  }
  if (bytes.length < 1 + NONCE_BYTES + TAG_BYTES || bytes[0] !== BACKUP_PHRASE_VERSION) throw new Error('BAD_BACKUP');
  const sodium = await loadSodium();
  const key = await deriveBackupPhraseKey(exportKey);
  let entropy: Uint8Array;
  try {
    entropy = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(
      null,
      bytes.subarray(1 + NONCE_BYTES),
      ASSOCIATED_DATA,
      bytes.subarray(1, 1 + NONCE_BYTES),
      key,
    );
  } catch {
    throw new Error('BAD_BACKUP');
  } finally {
    sodium.memzero(key);
  }
  if (!ENTROPY_LENGTHS.has(entropy.length)) throw new Error('BAD_BACKUP');
  return entropy;
}
