import { createHash, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadSodium } from './sodium';
import {
  hasSmallOrder,
  hasWebCryptoEd25519,
  isCanonicalPoint,
  isCanonicalScalar,
  type SignedMessage,
  verifyEd25519Many,
} from './verifyEd25519Many';

const P = 2n ** 255n - 19n;
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

function le32(value: bigint): Uint8Array {
  const bytes = new Uint8Array(32);
  for (let i = 0, v = value; i < 32; i++, v >>= 8n) bytes[i] = Number(v & 0xffn);
  return bytes;
}

function leToBigInt(bytes: Uint8Array): bigint {
  return bytes.reduceRight((acc, b) => (acc << 8n) | BigInt(b), 0n);
}

const text = (s: string) => new TextEncoder().encode(s);

/** Node's WebCrypto Ed25519 (OpenSSL) with no extra rule: what a naive native check accepts. */
async function rawWebCrypto({ publicKey, message, signature }: SignedMessage): Promise<boolean> {
  try {
    const key = await webcrypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
    return await webcrypto.subtle.verify('Ed25519', key, signature, message);
  } catch {
    return false;
  }
}

async function libsodium(item: SignedMessage): Promise<boolean> {
  return (await verifyEd25519Many([item], 'libsodium'))[0]!;
}

async function keyPair(seedByte: number) {
  const sodium = await loadSodium();
  const seed = new Uint8Array(32).fill(seedByte);
  const { publicKey, privateKey } = sodium.crypto_sign_seed_keypair(seed);
  // The secret scalar a (RFC 8032 5.1.5), to build signatures a normal signer never makes.
  const h = createHash('sha512').update(seed).digest();
  h[0]! &= 248;
  h[31]! &= 127;
  h[31]! |= 64;
  return { publicKey, privateKey, scalar: leToBigInt(h.subarray(0, 32)) };
}

function challenge(r: Uint8Array, publicKey: Uint8Array, message: Uint8Array): bigint {
  return leToBigInt(createHash('sha512').update(r).update(publicKey).update(message).digest()) % L;
}

describe('verifyEd25519Many', () => {
  it('accepts valid signatures and refuses changed messages, other keys and bad lengths, on both paths', async () => {
    const sodium = await loadSodium();
    const a = await keyPair(1);
    const b = await keyPair(2);
    const items: SignedMessage[] = [];
    const expected: boolean[] = [];
    for (let i = 0; i < 20; i++) {
      const signer = i % 2 ? a : b;
      const message = text(`operation ${i}`);
      const signature = sodium.crypto_sign_detached(message, signer.privateKey);
      items.push({ publicKey: signer.publicKey, message, signature });
      expected.push(true);
      items.push({ publicKey: signer.publicKey, message: text(`operation ${i}!`), signature });
      expected.push(false);
      items.push({ publicKey: (signer === a ? b : a).publicKey, message, signature });
      expected.push(false);
    }
    items.push({ publicKey: a.publicKey.subarray(1), message: text('x'), signature: new Uint8Array(64) });
    items.push({ publicKey: a.publicKey, message: text('x'), signature: new Uint8Array(63) });
    expected.push(false, false);
    expect(await verifyEd25519Many(items, 'webcrypto')).toEqual(expected);
    expect(await verifyEd25519Many(items, 'libsodium')).toEqual(expected);
  });

  it('uses WebCrypto where the runtime has Ed25519 (Node 20 and Chromium do)', async () => {
    expect(await hasWebCryptoEd25519()).toBe(true);
    const a = await keyPair(3);
    const sodium = await loadSodium();
    const message = text('default path');
    expect(await verifyEd25519Many([{ publicKey: a.publicKey, message, signature: sodium.crypto_sign_detached(message, a.privateKey) }])).toEqual([true]);
  });

  it('refuses "signatures" under every small-order public key, which native Ed25519 alone accepts', async () => {
    // With A of small order, R = identity and S = 0 verify whenever [k]A is the identity: anyone can forge them.
    const identity = le32(1n);
    const y8 = 2707385501144840649318225287225658788936804267575313519463743609750303402022n;
    const encodings: Uint8Array[] = [];
    for (const y of [0n, 1n, y8, P - y8, P - 1n]) {
      for (const sign of [0, 0x80]) {
        const e = le32(y);
        e[31]! |= sign;
        encodings.push(e);
      }
    }
    let forged = 0;
    for (const publicKey of encodings) {
      for (let m = 0; m < 200; m++) {
        const item = { publicKey, message: text(`forged ${m}`), signature: new Uint8Array([...identity, ...new Uint8Array(32)]) };
        if (!(await rawWebCrypto(item))) continue;
        forged += 1;
        expect(await libsodium(item)).toBe(false);
        expect(await verifyEd25519Many([item], 'webcrypto')).toEqual([false]);
        break;
      }
    }
    // Every one of the ten encodings was forgeable (OpenSSL even decodes x = 0 with the sign bit set).
    expect(forged).toBe(encodings.length);
  });

  it('refuses a signature whose R is of small order, which native Ed25519 alone accepts', async () => {
    const a = await keyPair(4);
    const message = text('small R');
    const r = le32(1n);
    // R' = [S]B - [k]A is the identity R when S = k·a: only the key's owner can make this, but libsodium refuses it.
    const s = le32((challenge(r, a.publicKey, message) * a.scalar) % L);
    const item = { publicKey: a.publicKey, message, signature: new Uint8Array([...r, ...s]) };
    expect(await rawWebCrypto(item)).toBe(true);
    expect(await libsodium(item)).toBe(false);
    expect(await verifyEd25519Many([item], 'webcrypto')).toEqual([false]);
  });

  it('refuses a non-canonical S (S + L), like libsodium and native Ed25519', async () => {
    const sodium = await loadSodium();
    const a = await keyPair(5);
    const message = text('malleable');
    const signature = sodium.crypto_sign_detached(message, a.privateKey);
    const bumped = new Uint8Array(signature);
    bumped.set(le32(leToBigInt(signature.subarray(32)) + L), 32);
    const item = { publicKey: a.publicKey, message, signature: bumped };
    expect(await verifyEd25519Many([item], 'webcrypto')).toEqual([false]);
    expect(await libsodium(item)).toBe(false);
  });

  it('agrees with libsodium on valid signatures with bytes flipped anywhere', async () => {
    const sodium = await loadSodium();
    const a = await keyPair(6);
    const items: SignedMessage[] = [];
    for (let i = 0; i < 64; i++) {
      const message = text(`flip ${i}`);
      const signature = new Uint8Array(sodium.crypto_sign_detached(message, a.privateKey));
      const publicKey = new Uint8Array(a.publicKey);
      if (i % 3 === 0) signature[i]! ^= 1 << (i % 8);
      if (i % 3 === 1) publicKey[i % 32]! ^= 0x80;
      if (i % 3 === 2) signature[63]! |= 0xf0;
      items.push({ publicKey, message, signature });
    }
    expect(await verifyEd25519Many(items, 'webcrypto')).toEqual(await verifyEd25519Many(items, 'libsodium'));
  });
});

describe('the encoding rules', () => {
  it('scalars below L are canonical', () => {
    expect(isCanonicalScalar(le32(0n))).toBe(true);
    expect(isCanonicalScalar(le32(L - 1n))).toBe(true);
    expect(isCanonicalScalar(le32(L))).toBe(false);
    expect(isCanonicalScalar(le32(2n ** 256n - 1n))).toBe(false);
  });

  it('point encodings with y below P are canonical, whatever the sign bit', () => {
    expect(isCanonicalPoint(le32(P - 1n))).toBe(true);
    expect(isCanonicalPoint(le32(P))).toBe(false);
    expect(isCanonicalPoint(le32(P + 18n))).toBe(false);
    const signed = le32(P - 1n);
    signed[31]! |= 0x80;
    expect(isCanonicalPoint(signed)).toBe(true);
    signed.set(le32(P + 1n));
    signed[31]! |= 0x80;
    expect(isCanonicalPoint(signed)).toBe(false);
  });

  it('small order is recognised with or without the sign bit, and a real key is not', async () => {
    const e = le32(P + 1n);
    expect(hasSmallOrder(e)).toBe(true);
    e[31]! |= 0x80;
    expect(hasSmallOrder(e)).toBe(true);
    expect(hasSmallOrder(le32(2n))).toBe(false);
    expect(hasSmallOrder((await keyPair(7)).publicKey)).toBe(false);
  });
});
