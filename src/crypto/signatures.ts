/**
 * Detached Ed25519 signatures over `canonicalBytes(payload)` (src/protocol/canonical.ts): the
 * form every signed request and vault operation uses, so the server cannot forge an action.
 * Signatures travel as base64url (86 characters).
 */
import { canonicalBytes } from '../protocol/canonical';
import { base64UrlToBytes, bytesToBase64Url, hexToBytes } from './encoding';
import { loadSodium } from './sodium';

const SIGNATURE_BYTES = 64;
const PUBLIC_KEY_BYTES = 32;

/** Signs `canonicalJson(payload)` with a 64-byte libsodium Ed25519 secret key. */
export async function signPayload(signingPrivateKey: Uint8Array, payload: unknown): Promise<string> {
  const sodium = await loadSodium();
  return bytesToBase64Url(sodium.crypto_sign_detached(canonicalBytes(payload), signingPrivateKey));
}

/**
 * True when `signature` (base64url) is a valid Ed25519 signature by `publicSigningKey` (32 bytes,
 * or lower-case hex as the protocol carries it) over `canonicalJson(payload)`. Malformed keys or
 * signatures from the wire give false, never an exception; a payload that has no canonical
 * encoding still throws (a programming error, not bad input).
 */
export async function verifyPayload(
  publicSigningKey: Uint8Array | string,
  payload: unknown,
  signature: string,
): Promise<boolean> {
  const message = canonicalBytes(payload);
  let key: Uint8Array;
  let sig: Uint8Array;
  try {
    key = typeof publicSigningKey === 'string' ? hexToBytes(publicSigningKey) : publicSigningKey;
    sig = base64UrlToBytes(signature);
  } catch {
    return false;
  }
  if (key.length !== PUBLIC_KEY_BYTES || sig.length !== SIGNATURE_BYTES) return false;
  const sodium = await loadSodium();
  try {
    return sodium.crypto_sign_verify_detached(sig, message, key);
  } catch {
    return false;
  }
}
