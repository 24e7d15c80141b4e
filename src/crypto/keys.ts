/**
 * The wallet's key pairs, derived deterministically from the recovery phrase (DESIGN.md section 2):
 * Ed25519 signing key at m/44'/472'/0'/0'/0' (472: Arweave's SLIP-44 coin type) and X25519
 * encryption key from the SLIP-0010 node at m/44'/472'/0'/0'/1'. The same phrase gives the same
 * keys on every device, which is what makes recovery by phrase possible.
 */
import { addressOf } from './address';
import { bytesToHex } from './encoding';
import { entropyToPhrase, phraseToSeed } from './phrase';
import { deriveSlip10Ed25519 } from './slip10';
import { loadSodium } from './sodium';

export const SIGNING_KEY_PATH = "m/44'/472'/0'/0'/0'";
export const ENCRYPTION_KEY_PATH = "m/44'/472'/0'/0'/1'";

/** Private and public keys of a wallet. Secret: lives in the crypto worker only. */
export interface WalletKeys {
  /** Ed25519 public key, 32 bytes. */
  signingPublicKey: Uint8Array;
  /** libsodium Ed25519 secret key, 64 bytes: the 32-byte seed followed by the public key. */
  signingPrivateKey: Uint8Array;
  /** X25519 public key, 32 bytes. */
  encryptionPublicKey: Uint8Array;
  /** X25519 private key, 32 bytes. */
  encryptionPrivateKey: Uint8Array;
}

/** The public half of a wallet in protocol form (same shape as the worker's `PublicWallet`). */
export interface PublicWallet {
  /** base64url(SHA-256(Ed25519 public key)), 43 characters. */
  address: string;
  /** Lower-case hex, 64 characters. */
  publicSigningKey: string;
  /** Lower-case hex, 64 characters. */
  publicEncryptionKey: string;
}

/** Derives both key pairs from a 64-byte BIP39 seed. */
export async function deriveWalletKeys(seed: Uint8Array): Promise<WalletKeys> {
  const sodium = await loadSodium();
  const signingNode = deriveSlip10Ed25519(seed, SIGNING_KEY_PATH);
  const encryptionNode = deriveSlip10Ed25519(seed, ENCRYPTION_KEY_PATH);
  try {
    const signing = sodium.crypto_sign_seed_keypair(signingNode.key);
    // crypto_box_seed_keypair hashes the seed (SHA-512, first 32 bytes) into the X25519 scalar,
    // so the SLIP-0010 key is never used directly as a Curve25519 scalar.
    const encryption = sodium.crypto_box_seed_keypair(encryptionNode.key);
    return {
      signingPublicKey: signing.publicKey,
      signingPrivateKey: signing.privateKey,
      encryptionPublicKey: encryption.publicKey,
      encryptionPrivateKey: encryption.privateKey,
    };
  } finally {
    // Intermediate secrets: wipe what we can (JS gives no guarantee about copies).
    for (const node of [signingNode, encryptionNode]) {
      sodium.memzero(node.key);
      sodium.memzero(node.chainCode);
    }
  }
}

/** Derives the wallet keys of a phrase's entropy (entropy → words → BIP39 seed → keys). */
export async function deriveWalletKeysFromEntropy(entropy: Uint8Array): Promise<WalletKeys> {
  const seed = await phraseToSeed(entropyToPhrase(entropy));
  try {
    return await deriveWalletKeys(seed);
  } finally {
    seed.fill(0);
  }
}

/** The public half of `keys` as the server and the UI see it. */
export async function toPublicWallet(keys: WalletKeys): Promise<PublicWallet> {
  return {
    address: await addressOf(keys.signingPublicKey),
    publicSigningKey: bytesToHex(keys.signingPublicKey),
    publicEncryptionKey: bytesToHex(keys.encryptionPublicKey),
  };
}

/** Overwrites every private key of `keys` with zeros (on lock). */
export function wipeWalletKeys(keys: WalletKeys): void {
  keys.signingPrivateKey.fill(0);
  keys.encryptionPrivateKey.fill(0);
}
