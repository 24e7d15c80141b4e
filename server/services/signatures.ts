import crypto from 'node:crypto';
import { canonicalBytes } from '../../src/protocol/canonical';
import { passesStrictRules } from '../../src/crypto/verifyEd25519Many';
import { ApiError } from '../../src/protocol/errors';

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
    // libsodium's rules beyond RFC 8032 (no small-order key or R, canonical S and key), as every
    // client applies them: native Ed25519 alone accepts forgeries under small-order keys.
    if (!passesStrictRules({ publicKey: Buffer.from(publicKeyHex, 'hex'), message: new Uint8Array(0), signature: sig })) return false;
    return crypto.verify(null, canonicalBytes(payload), key, sig);
  } catch {
    return false;
  }
}

/** How fresh a SignedRequest must be, so a captured one cannot be replayed later. */
export const SIGNED_REQUEST_MAX_AGE_MS = 5 * 60 * 1000;

/**
 * Accepts a SignedRequest (src/protocol/auth.ts) for `purpose`, or throws EXPIRED for a stale
 * `signedAt` and INVALID_SIGNATURE for anything not signed by the account's own key.
 */
export function assertSignedRequest(
  user: { id: string; publicSigningKey: string },
  purpose: string,
  request: { signedAt: number; signature: string },
  now: number,
): void {
  if (Math.abs(now - request.signedAt) > SIGNED_REQUEST_MAX_AGE_MS) {
    throw new ApiError('EXPIRED', 'The request is too old. Please try again.');
  }
  const payload = { purpose, userId: user.id, signedAt: request.signedAt };
  if (!verifySignedPayload(user.publicSigningKey, payload, request.signature)) {
    throw new ApiError('INVALID_SIGNATURE', 'The request is not signed by the account key');
  }
}

/** base64url(SHA-256(public key bytes)): the account address (DESIGN.md section 2). */
export function addressOf(publicKeyHex: string): string {
  return crypto.createHash('sha256').update(Buffer.from(publicKeyHex, 'hex')).digest('base64url');
}
