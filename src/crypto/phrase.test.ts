import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import vectors from '../../tests/fixtures/bip39-english.json';
import { bytesToHex, hexToBytes } from './encoding';
import {
  entropyToPhrase,
  generatePhraseEntropy,
  isValidPhrase,
  normalisePhrase,
  phraseToEntropy,
  phraseToSeed,
  PHRASE_WORD_COUNT,
} from './phrase';

const ABOUT = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

describe('BIP39 official English vectors (trezor/python-mnemonic, passphrase TREZOR)', () => {
  it('covers 12, 18 and 24 words', () => {
    const lengths = new Set(vectors.english.map(([, mnemonic]) => mnemonic!.split(' ').length));
    expect([...lengths].sort()).toEqual([12, 18, 24]);
    expect(vectors.english).toHaveLength(24);
  });

  it.each(vectors.english.map((v, i) => [i, ...v] as [number, string, string, string]))(
    'vector %i: entropy → phrase → entropy, phrase → seed',
    async (_i, entropy, mnemonic, seed) => {
      expect(entropyToPhrase(hexToBytes(entropy))).toBe(mnemonic);
      expect(bytesToHex(phraseToEntropy(mnemonic))).toBe(entropy);
      expect(isValidPhrase(mnemonic)).toBe(true);
      expect(bytesToHex(await phraseToSeed(mnemonic, vectors.passphrase))).toBe(seed);
    },
  );
});

describe('phrase', () => {
  it('generates 12 valid words from fresh 128-bit entropy', () => {
    const a = generatePhraseEntropy();
    const b = generatePhraseEntropy();
    expect(a).toHaveLength(16);
    expect(bytesToHex(a)).not.toBe(bytesToHex(b));
    const words = entropyToPhrase(a).split(' ');
    expect(words).toHaveLength(PHRASE_WORD_COUNT);
    expect(isValidPhrase(words)).toBe(true);
    expect(phraseToEntropy(words)).toEqual(a);
  });

  it('normalises case and spacing before any use', async () => {
    const messy = `  ${ABOUT.toUpperCase().replaceAll(' ', ' \t ')}\n`;
    expect(normalisePhrase(messy)).toBe(ABOUT);
    expect(normalisePhrase(['Abandon', ...ABOUT.split(' ').slice(1)])).toBe(ABOUT);
    expect(bytesToHex(await phraseToSeed(messy))).toBe(bytesToHex(await phraseToSeed(ABOUT)));
  });

  it('seeds with no passphrase by default (the BIP39 seed Cairn uses)', async () => {
    // BIP39: PBKDF2-HMAC-SHA512(phrase, salt "mnemonic" + passphrase, 2048), here by Node's OpenSSL.
    const expected = pbkdf2Sync(ABOUT, 'mnemonic', 2048, 64, 'sha512').toString('hex');
    expect(bytesToHex(await phraseToSeed(ABOUT))).toBe(expected);
  });

  it('rejects a bad checksum, an unknown word and a wrong length', async () => {
    const badChecksum = ABOUT.replace(/about$/, 'abandon');
    for (const bad of [badChecksum, ABOUT.replace(/about$/, 'aboutt'), ABOUT.split(' ').slice(1).join(' '), '']) {
      expect(isValidPhrase(bad)).toBe(false);
      expect(() => phraseToEntropy(bad)).toThrow('INVALID_PHRASE');
      await expect(phraseToSeed(bad)).rejects.toThrow('INVALID_PHRASE');
    }
  });
});
