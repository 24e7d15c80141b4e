/**
 * Account addresses: base64url(SHA-256(Ed25519 public key)), 43 characters. This is the owner
 * address an Arweave ANS-104 data item signed with Ed25519 carries, so the spec's
 * "43-character wallet address" rules hold for our users' own addresses.
 */
import { bytesToBase64Url } from './encoding';

/** The address of an Ed25519 public key (32 bytes). */
export async function addressOf(publicSigningKey: Uint8Array): Promise<string> {
  if (publicSigningKey.length !== 32) throw new TypeError('addressOf: expected a 32-byte Ed25519 public key');
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new Uint8Array(publicSigningKey));
  return bytesToBase64Url(new Uint8Array(digest));
}
