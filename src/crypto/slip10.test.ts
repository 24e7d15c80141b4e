import { describe, expect, it } from 'vitest';
import vectors from '../../tests/fixtures/slip10-ed25519.json';
import { bytesToHex, hexToBytes } from './encoding';
import { deriveSlip10Ed25519 } from './slip10';
import { loadSodium } from './sodium';

const cases = vectors.vectors.flatMap((vector) =>
  vector.chains.map((chain) => [vector.name, chain.path, vector.seed, chain] as const),
);

describe('SLIP-0010 official ed25519 vectors (satoshilabs/slips)', () => {
  it('covers every chain of test vectors 1 and 2', () => {
    expect(cases).toHaveLength(12);
  });

  it.each(cases)('%s, chain %s: chain code, private key, public key', async (_name, path, seed, chain) => {
    const sodium = await loadSodium();
    const node = deriveSlip10Ed25519(hexToBytes(seed), path);
    expect(bytesToHex(node.chainCode)).toBe(chain.chainCode);
    expect(bytesToHex(node.key)).toBe(chain.private);
    // SLIP-0010 writes Ed25519 public keys as 0x00 || 32-byte key; ours come from libsodium.
    expect(`00${bytesToHex(sodium.crypto_sign_seed_keypair(node.key).publicKey)}`).toBe(chain.public);
  });

  it('rejects non-hardened and malformed paths', () => {
    const seed = hexToBytes(vectors.vectors[0]!.seed);
    for (const path of ["m/0", "m/0'/1", "44'/0'", "m/", "m/2147483648'"]) {
      expect(() => deriveSlip10Ed25519(seed, path)).toThrow(TypeError);
    }
  });
});
