import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import walletKeys from '../../tests/fixtures/wallet-keys.json';
import { keyFingerprint } from './fingerprint';

const reference = walletKeys.vectors[0]!;

describe('keyFingerprint', () => {
  it('gives the pinned safety number for the DESIGN.md reference phrase keys', () => {
    // Pinned from node:crypto's SHA-256 (see the independent computation below), not from src/crypto.
    expect(keyFingerprint(reference.publicSigningKey, reference.publicEncryptionKey)).toBe('33176 92777 31793 79687 46928 04203');
  });

  it('matches an independent computation with node:crypto for other keys', () => {
    const signing = 'ab'.repeat(32);
    const encryption = '01'.repeat(16) + 'fe'.repeat(16);
    const digest = createHash('sha256').update(Buffer.from(signing + encryption, 'hex')).digest();
    const expected = [0, 1, 2, 3, 4, 5].map((g) => String(Number(digest.readUIntBE(g * 5, 5) % 100_000)).padStart(5, '0')).join(' ');
    expect(keyFingerprint(signing, encryption)).toBe(expected);
    expect(keyFingerprint(signing.toUpperCase(), encryption)).toBe(expected);
  });

  it('changes when either key changes and refuses keys of the wrong length', () => {
    const base = keyFingerprint(reference.publicSigningKey, reference.publicEncryptionKey);
    expect(keyFingerprint(reference.publicEncryptionKey, reference.publicSigningKey)).not.toBe(base);
    expect(keyFingerprint(reference.publicSigningKey, '00'.repeat(32))).not.toBe(base);
    expect(() => keyFingerprint('abcd', reference.publicEncryptionKey)).toThrow(TypeError);
  });
});
