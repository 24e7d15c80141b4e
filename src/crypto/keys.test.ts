import { describe, expect, it } from 'vitest';
import vectors from '../../tests/fixtures/wallet-keys.json';
import { addressOf } from './address';
import { bytesToHex, hexToBytes } from './encoding';
import { deriveWalletKeys, deriveWalletKeysFromEntropy, toPublicWallet, wipeWalletKeys } from './keys';
import { phraseToEntropy, phraseToSeed } from './phrase';

describe('wallet keys', () => {
  it('gives the DESIGN.md reference public key and address for abandon … about', async () => {
    const keys = await deriveWalletKeys(await phraseToSeed(
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    ));
    const wallet = await toPublicWallet(keys);
    expect(wallet.publicSigningKey).toBe('4dc169ce254e3077194c03865739070de5f89c0b93b6d97cf0f09b9a5a167dfa');
    expect(wallet.address).toBe('654KyaguCVnaojCIaY-ZHqj7KOByyUwCMWi4mJKOhyw');
  });

  it.each(vectors.vectors)('matches the independently computed vector for "$phrase"', async (vector) => {
    const keys = await deriveWalletKeysFromEntropy(phraseToEntropy(vector.phrase));
    expect(bytesToHex(keys.signingPrivateKey)).toBe(vector.signingPrivateKey + vector.publicSigningKey);
    expect(bytesToHex(keys.encryptionPrivateKey)).toBe(vector.encryptionPrivateKey);
    expect(await toPublicWallet(keys)).toEqual({
      address: vector.address,
      publicSigningKey: vector.publicSigningKey,
      publicEncryptionKey: vector.publicEncryptionKey,
    });
  });

  it('address is 43 base64url characters', async () => {
    const address = await addressOf(hexToBytes(vectors.vectors[0]!.publicSigningKey));
    expect(address).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(addressOf(new Uint8Array(31))).rejects.toThrow(TypeError);
  });

  it('wipeWalletKeys zeroes the private keys', async () => {
    const keys = await deriveWalletKeysFromEntropy(new Uint8Array(16));
    wipeWalletKeys(keys);
    expect(keys.signingPrivateKey.every((b) => b === 0)).toBe(true);
    expect(keys.encryptionPrivateKey.every((b) => b === 0)).toBe(true);
  });
});
