import { describe, expect, it } from 'vitest';
import fixture from '../../tests/fixtures/key-ring.json';
import { Base64Url } from '../protocol/primitives';
import { base64UrlToBytes, bytesToBase64Url, hexToBytes } from './encoding';
import { addKey, createKeyRing, openKeyRing, sealKeyRing } from './keyRing';
import { loadSodium } from './sodium';

const publicKey = hexToBytes(fixture.publicEncryptionKey);
const privateKey = hexToBytes(fixture.encryptionPrivateKey);

describe('vault key rings', () => {
  it('opens a ring sealed independently with raw libsodium (known answer)', async () => {
    const sodium = await loadSodium();
    const ring = openKeyRing(sodium, fixture.sealed, publicKey, privateKey);
    expect(ring.map((k) => bytesToBase64Url(k))).toEqual(fixture.ring);
  });

  it('creates fresh 32-byte keys, adds keys without changing the old ring, and round-trips', async () => {
    const sodium = await loadSodium();
    const ring = createKeyRing();
    expect(ring).toHaveLength(1);
    expect(ring[0]).toHaveLength(32);
    const rotated = addKey(ring);
    expect(ring).toHaveLength(1);
    expect(rotated).toHaveLength(2);
    expect(rotated[0]).toEqual(ring[0]);
    expect(rotated[1]).not.toEqual(ring[0]);
    const sealed = sealKeyRing(sodium, rotated, publicKey);
    expect(sealed).not.toBe(sealKeyRing(sodium, rotated, publicKey)); // ephemeral key each time
    expect(Base64Url(8_000).safeParse(sealed).success).toBe(true); // fits vault.create ownerKeys
    expect(openKeyRing(sodium, sealed, publicKey, privateKey)).toEqual(rotated);
  });

  it('a ring sealed to one member does not open with another key pair', async () => {
    const sodium = await loadSodium();
    const other = sodium.crypto_box_keypair();
    expect(() => openKeyRing(sodium, fixture.sealed, other.publicKey, other.privateKey)).toThrow('BAD_VAULT_KEYS');
    const toOther = sealKeyRing(sodium, createKeyRing(), other.publicKey);
    expect(() => openKeyRing(sodium, toOther, publicKey, privateKey)).toThrow('BAD_VAULT_KEYS');
  });

  it('tampering, garbage and a ring that is not a list of 32-byte keys give BAD_VAULT_KEYS', async () => {
    const sodium = await loadSodium();
    const bytes = base64UrlToBytes(fixture.sealed);
    bytes[bytes.length - 1]! ^= 1;
    expect(() => openKeyRing(sodium, bytesToBase64Url(bytes), publicKey, privateKey)).toThrow('BAD_VAULT_KEYS');
    expect(() => openKeyRing(sodium, 'garbage!', publicKey, privateKey)).toThrow('BAD_VAULT_KEYS');
    for (const json of ['[]', '{}', '["AAAA"]', '[1]', 'nope']) {
      const sealed = bytesToBase64Url(sodium.crypto_box_seal(new TextEncoder().encode(json), publicKey));
      expect(() => openKeyRing(sodium, sealed, publicKey, privateKey)).toThrow('BAD_VAULT_KEYS');
    }
    expect(() => sealKeyRing(sodium, [], publicKey)).toThrow(TypeError);
  });
});
