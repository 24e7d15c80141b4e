import { describe, expect, it } from 'vitest';
import vector from '../../tests/fixtures/signature.json';
import { canonicalJson } from '../protocol/canonical';
import { hexToBytes } from './encoding';
import { deriveWalletKeysFromEntropy } from './keys';
import { phraseToEntropy } from './phrase';
import { signPayload, verifyPayload } from './signatures';

async function vectorKeys() {
  return deriveWalletKeysFromEntropy(phraseToEntropy(vector.phrase));
}

describe('signatures over canonical JSON', () => {
  it('reproduces the known-answer signature (canonical encoding and Ed25519 pinned)', async () => {
    expect(canonicalJson(vector.payload)).toBe(vector.canonical);
    const keys = await vectorKeys();
    const signature = await signPayload(keys.signingPrivateKey, vector.payload);
    expect(signature).toBe(vector.signature);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(await verifyPayload(vector.publicSigningKey, vector.payload, vector.signature)).toBe(true);
    expect(await verifyPayload(hexToBytes(vector.publicSigningKey), vector.payload, vector.signature)).toBe(true);
  });

  it('key order of the payload does not matter, its content does', async () => {
    const reordered = { nested: vector.payload.nested, zeta: vector.payload.zeta, email: vector.payload.email, purpose: 'signup' };
    expect(await verifyPayload(vector.publicSigningKey, reordered, vector.signature)).toBe(true);
    expect(await verifyPayload(vector.publicSigningKey, { ...vector.payload, email: 'eve@example.com' }, vector.signature)).toBe(false);
    expect(await verifyPayload(vector.publicSigningKey, { ...vector.payload, extra: 1 }, vector.signature)).toBe(false);
  });

  it('rejects another key, a flipped bit and malformed input without throwing', async () => {
    const other = await deriveWalletKeysFromEntropy(new Uint8Array(16).fill(7));
    expect(await verifyPayload(other.signingPublicKey, vector.payload, vector.signature)).toBe(false);
    const flipped = `${vector.signature[0] === 'A' ? 'B' : 'A'}${vector.signature.slice(1)}`;
    expect(await verifyPayload(vector.publicSigningKey, vector.payload, flipped)).toBe(false);
    expect(await verifyPayload(vector.publicSigningKey, vector.payload, 'not a signature')).toBe(false);
    expect(await verifyPayload(vector.publicSigningKey, vector.payload, vector.signature.slice(0, 84))).toBe(false);
    expect(await verifyPayload('zz', vector.payload, vector.signature)).toBe(false);
    expect(await verifyPayload(new Uint8Array(31), vector.payload, vector.signature)).toBe(false);
  });
});
