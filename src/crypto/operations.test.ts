import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fixture from '../../tests/fixtures/operation.json';
import { canonicalBytes, canonicalJson } from '../protocol/canonical';
import { Operation, operationSigningPayload, UnsignedOperation } from '../protocol/vaults';
import { deriveWalletKeysFromEntropy } from './keys';
import { signOperation, verifyOperation } from './operations';
import { phraseToEntropy } from './phrase';

const unsigned = UnsignedOperation.parse(fixture.op);

/** The server's check (server/services/signatures.ts verifySignedPayload): node:crypto over SPKI DER. */
function verifyLikeServer(publicKeyHex: string, payload: unknown, signature: string): boolean {
  const key = crypto.createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKeyHex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
  return crypto.verify(null, canonicalBytes(payload), key, Buffer.from(signature, 'base64url'));
}

async function referenceKeys() {
  return deriveWalletKeysFromEntropy(phraseToEntropy(fixture.phrase));
}

describe('signed operations', () => {
  it('reproduces the known-answer signature (Node OpenSSL) for the reference wallet', async () => {
    expect(canonicalJson(operationSigningPayload(unsigned))).toBe(fixture.canonical);
    const signed = await signOperation((await referenceKeys()).signingPrivateKey, unsigned);
    expect(signed.signature).toBe(fixture.signature);
    expect(Operation.safeParse(signed).success).toBe(true);
    expect(await verifyOperation(signed)).toBe(true);
  });

  it('the server’s node:crypto check accepts what the client signs, and rejects changes', async () => {
    const signed = await signOperation((await referenceKeys()).signingPrivateKey, unsigned);
    const { signature, ...rest } = signed;
    expect(verifyLikeServer(signed.author, operationSigningPayload(rest), signature)).toBe(true);
    const renamed = { ...rest, objectId: 'node_43' };
    expect(verifyLikeServer(signed.author, operationSigningPayload(renamed), signature)).toBe(false);
  });

  it('re-signing an already signed operation ignores its old signature', async () => {
    const keys = await referenceKeys();
    const signed = await signOperation(keys.signingPrivateKey, unsigned);
    const again = await signOperation(keys.signingPrivateKey, signed);
    expect(again.signature).toBe(signed.signature);
  });

  it('rejects a changed field, another author, a flipped signature and garbage without throwing', async () => {
    const signed = Operation.parse({ ...fixture.op, signature: fixture.signature });
    expect(await verifyOperation(signed)).toBe(true);
    expect(await verifyOperation({ ...signed, createdAt: signed.createdAt + 1 })).toBe(false);
    expect(await verifyOperation({ ...signed, body: { type: 'node.hide' } })).toBe(false);
    const other = await deriveWalletKeysFromEntropy(new Uint8Array(16).fill(9));
    const byOther = await signOperation(other.signingPrivateKey, unsigned);
    expect(await verifyOperation(byOther)).toBe(false); // author says the reference key
    const flipped = `${fixture.signature[0] === 'A' ? 'B' : 'A'}${fixture.signature.slice(1)}`;
    expect(await verifyOperation({ ...signed, signature: flipped })).toBe(false);
    expect(await verifyOperation({ ...signed, signature: 'x' })).toBe(false);
    expect(await verifyOperation({ ...signed, author: 'zz' })).toBe(false);
  });

  it('a groupRef is signed: added, changed or dropped, the signature no longer verifies (SYNC_SPEC R29)', async () => {
    const grouped = UnsignedOperation.parse({ ...fixture.op, groupRef: 'batch_1' });
    const signed = await signOperation((await referenceKeys()).signingPrivateKey, grouped);
    expect(Operation.parse(signed).groupRef).toBe('batch_1');
    expect(await verifyOperation(signed)).toBe(true);
    expect(await verifyOperation({ ...signed, groupRef: 'batch_2' })).toBe(false);
    const { groupRef: _dropped, ...ungrouped } = signed;
    expect(await verifyOperation(ungrouped)).toBe(false);
    expect(UnsignedOperation.safeParse({ ...fixture.op, groupRef: 'not an id!' }).success).toBe(false);
  });
});
