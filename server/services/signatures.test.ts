import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalBytes } from '../../src/protocol/canonical';
import { addressOf, verifySignedPayload } from './signatures';

function keyPair() {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return { privateKey, publicKeyHex: spki.subarray(spki.length - 32).toString('hex') };
}

describe('signatures', () => {
  it('derives the address of the DESIGN.md reference key', () => {
    expect(addressOf('4dc169ce254e3077194c03865739070de5f89c0b93b6d97cf0f09b9a5a167dfa')).toBe(
      '654KyaguCVnaojCIaY-ZHqj7KOByyUwCMWi4mJKOhyw',
    );
  });

  it('verifies an Ed25519 signature over the canonical bytes, and nothing else', () => {
    const { privateKey, publicKeyHex } = keyPair();
    const payload = { purpose: 'delete-account', userId: 'u1', signedAt: 1_700_000_000_000 };
    const signature = crypto.sign(null, canonicalBytes(payload), privateKey).toString('base64url');
    expect(verifySignedPayload(publicKeyHex, payload, signature)).toBe(true);
    // Key order does not matter: the canonical form sorts keys.
    expect(verifySignedPayload(publicKeyHex, { signedAt: 1_700_000_000_000, userId: 'u1', purpose: 'delete-account' }, signature)).toBe(true);
    expect(verifySignedPayload(publicKeyHex, { ...payload, userId: 'u2' }, signature)).toBe(false);
    expect(verifySignedPayload(keyPair().publicKeyHex, payload, signature)).toBe(false);
    expect(verifySignedPayload(publicKeyHex, payload, 'A'.repeat(86))).toBe(false);
    expect(verifySignedPayload(publicKeyHex, payload, 'short')).toBe(false);
    expect(verifySignedPayload('zz', payload, signature)).toBe(false);
  });

  it('refuses a forgery under a small-order key, which native Ed25519 alone accepts', () => {
    // The identity point as the key, R = identity and S = 0: a "signature" over anything.
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    const forged = Buffer.concat([identity, Buffer.alloc(32)]).toString('base64url');
    const payload = { purpose: 'delete-account', userId: 'u1', signedAt: 1_700_000_000_000 };
    const key = crypto.createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), identity]), format: 'der', type: 'spki' });
    // OpenSSL on its own takes it...
    expect(crypto.verify(null, canonicalBytes(payload), key, Buffer.from(forged, 'base64url'))).toBe(true);
    // ...the server does not.
    expect(verifySignedPayload(identity.toString('hex'), payload, forged)).toBe(false);
  });
});
