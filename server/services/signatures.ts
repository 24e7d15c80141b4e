import crypto from 'node:crypto';
import { canonicalBytes } from '../../src/protocol/canonical';

// DER SubjectPublicKeyInfo header for an Ed25519 key (RFC 8410); the raw 32-byte key follows.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * True when `signature` (base64url) is a valid Ed25519 signature by `publicKeyHex` over
 * `canonicalBytes(payload)`. A malformed key or signature is simply not valid.
 */
export function verifySignedPayload(publicKeyHex: string, payload: unknown, signature: string): boolean {
  try {
    const key = crypto.createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]),
      format: 'der',
      type: 'spki',
    });
    const sig = Buffer.from(signature, 'base64url');
    if (sig.length !== 64) return false;
    return crypto.verify(null, canonicalBytes(payload), key, sig);
  } catch {
    return false;
  }
}

/** base64url(SHA-256(public key bytes)): the account address (DESIGN.md section 2). */
export function addressOf(publicKeyHex: string): string {
  return crypto.createHash('sha256').update(Buffer.from(publicKeyHex, 'hex')).digest('base64url');
}
