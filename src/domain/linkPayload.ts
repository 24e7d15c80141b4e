/**
 * The `uid` of e-mailed links: base64url(JSON { email, address? }) (src/protocol/auth.ts).
 * Verification links carry `{ email }`, recovery links `{ email, address }`.
 */

export interface LinkPayload {
  email: string;
  /** The account's 43-character address (recovery links only). */
  address?: string;
}

function decodeBase64Url(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return null;
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  try {
    const binary = atob(padded);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Reads a link's uid; null when it is not a base64url JSON object with a string e-mail. */
export function decodeLinkPayload(uid: string | undefined | null): LinkPayload | null {
  if (!uid) return null;
  const bytes = decodeBase64Url(uid);
  if (!bytes) return null;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { email, address } = value as { email?: unknown; address?: unknown };
  if (typeof email !== 'string' || email.length === 0) return null;
  return typeof address === 'string' ? { email, address } : { email };
}

/** The inverse, for tests and fixtures. */
export function encodeLinkPayload(payload: LinkPayload): string {
  const bytes = new TextEncoder().encode(JSON.stringify(payload));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
