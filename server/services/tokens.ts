import crypto from 'node:crypto';

/** A random secret as base64url (32 bytes: 43 characters). */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Row ids: 16 random bytes, matching the protocol's `Id` pattern. */
export function randomId(): string {
  return randomToken(16);
}

/** A uniformly random string of `length` decimal digits. */
export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += crypto.randomInt(0, 10).toString();
  return out;
}

/**
 * SHA-256 hex of a token, with an optional scope (the row the code belongs to). Session tokens and
 * e-mailed codes carry 256 bits, so a plain hash is enough; a scoped hash keeps one leaked short
 * SMS code hash from being looked up against another challenge.
 */
export function hashToken(token: string, scope = ''): string {
  return crypto.createHash('sha256').update(scope).update('\0').update(token).digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
