/**
 * Key fingerprints ("safety numbers", spec 001 section 5): what two members read to each other to
 * check that the keys the server handed out for a person are that person's own. A server that
 * swapped a member's keys to read a vault would change the fingerprint both sides see.
 *
 * keyFingerprint = SHA-256(Ed25519 public key (32) || X25519 public key (32)); its first 30 bytes
 * are read as six 5-byte big-endian integers, each taken mod 100000 and written as 5 digits,
 * joined by single spaces: 'ddddd ddddd ddddd ddddd ddddd ddddd'. The reduction's bias (2^40 is
 * not a multiple of 10^5) is under one part in ten million per group: negligible for a visual
 * comparison.
 *
 * Synchronous (@noble/hashes), so a member row renders its fingerprint without an effect.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { hexToBytes } from './encoding';

const KEY_BYTES = 32;
const GROUPS = 6;
const GROUP_BYTES = 5;

/** The fingerprint of a member's public keys (lower- or upper-case hex, 32 bytes each). */
export function keyFingerprint(publicSigningKeyHex: string, publicEncryptionKeyHex: string): string {
  const signing = hexToBytes(publicSigningKeyHex);
  const encryption = hexToBytes(publicEncryptionKeyHex);
  if (signing.length !== KEY_BYTES || encryption.length !== KEY_BYTES) throw new TypeError('keyFingerprint: keys must be 32 bytes each');
  const input = new Uint8Array(2 * KEY_BYTES);
  input.set(signing, 0);
  input.set(encryption, KEY_BYTES);
  const digest = sha256(input);
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    // 5 bytes stay below 2^40, well inside a double's exact integers.
    let value = 0;
    for (let i = 0; i < GROUP_BYTES; i++) value = value * 256 + digest[g * GROUP_BYTES + i]!;
    groups.push(String(value % 100_000).padStart(5, '0'));
  }
  return groups.join(' ');
}
