/**
 * Recovery phrases: 12 BIP39 English words from 128 bits of entropy (DESIGN.md section 2).
 * `@scure/bip39`, not `bip39`: the latter needs Node's Buffer in the browser. The wallet itself is
 * kept as its entropy (16 bytes); words and seed are derived from it when needed.
 */
import {
  entropyToMnemonic,
  mnemonicToEntropy,
  mnemonicToSeedWebcrypto,
  validateMnemonic,
} from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { randomBytes } from './random';

/** Entropy of a Cairn phrase: 128 bits, hence 12 words. */
export const PHRASE_ENTROPY_BYTES = 16;
export const PHRASE_WORD_COUNT = 12;

/**
 * The one spelling of a phrase that BIP39 hashes: trimmed, lower-case, words joined by single
 * spaces. A typed phrase with stray capitals or double spaces must still give the same seed.
 */
export function normalisePhrase(phrase: string | readonly string[]): string {
  const text = typeof phrase === 'string' ? phrase : phrase.join(' ');
  return text.trim().toLowerCase().split(/\s+/).filter(Boolean).join(' ');
}

/** True when the phrase (after normalisation) is a valid BIP39 English mnemonic of any length. */
export function isValidPhrase(phrase: string | readonly string[]): boolean {
  return validateMnemonic(normalisePhrase(phrase), wordlist);
}

/** Fresh random entropy for a new 12-word phrase. */
export function generatePhraseEntropy(): Uint8Array<ArrayBuffer> {
  return randomBytes(PHRASE_ENTROPY_BYTES);
}

/** The words of `entropy` (16, 20, 24, 28 or 32 bytes), joined by single spaces. */
export function entropyToPhrase(entropy: Uint8Array): string {
  return entropyToMnemonic(entropy, wordlist);
}

/** The entropy of a phrase. Throws Error('INVALID_PHRASE') when the words or checksum are wrong. */
export function phraseToEntropy(phrase: string | readonly string[]): Uint8Array<ArrayBuffer> {
  const normalised = normalisePhrase(phrase);
  if (!validateMnemonic(normalised, wordlist)) throw new Error('INVALID_PHRASE');
  return Uint8Array.from(mnemonicToEntropy(normalised, wordlist));
}

/**
 * The 64-byte BIP39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, through WebCrypto). Cairn uses no
 * passphrase; `passphrase` exists for the official test vectors.
 */
export async function phraseToSeed(phrase: string | readonly string[], passphrase = ''): Promise<Uint8Array<ArrayBuffer>> {
  const normalised = normalisePhrase(phrase);
  if (!validateMnemonic(normalised, wordlist)) throw new Error('INVALID_PHRASE');
  return Uint8Array.from(await mnemonicToSeedWebcrypto(normalised, passphrase));
}
