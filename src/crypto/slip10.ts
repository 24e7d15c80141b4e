/**
 * SLIP-0010 Ed25519 derivation (hardened only, as the curve requires), through `ed25519-hd-key`.
 * Checked for browser use: version 2.0.0 is pure ESM over @noble/hashes (HMAC-SHA512 in JS) and
 * needs neither Node's Buffer nor Node's crypto, so no own implementation is needed. It returns
 * Uint8Array (TOOLCHAIN pitfall 7), and takes the seed as hex.
 */
import { derivePath, getMasterKeyFromSeed } from 'ed25519-hd-key';
import { bytesToHex } from './encoding';

/** A SLIP-0010 node: the 32-byte private key (the Ed25519 seed) and its chain code. */
export interface Slip10Node {
  key: Uint8Array<ArrayBuffer>;
  chainCode: Uint8Array<ArrayBuffer>;
}

const PATH_PATTERN = /^m(\/\d+')*$/;

/**
 * Derives `path` (e.g. `m/44'/472'/0'/0'/0'`; every level hardened, `m` for the master node) from
 * a BIP39 or SLIP-0010 seed. Throws TypeError for a malformed or non-hardened path.
 */
export function deriveSlip10Ed25519(seed: Uint8Array, path: string): Slip10Node {
  if (!PATH_PATTERN.test(path)) throw new TypeError(`deriveSlip10Ed25519: bad path ${path}`);
  const levels = path.split('/').slice(1).map((level) => Number.parseInt(level, 10));
  // The library adds the hardened offset itself; an index at or above 2^31 would wrap around.
  if (levels.some((index) => !(index < 0x80000000))) throw new TypeError(`deriveSlip10Ed25519: index out of range in ${path}`);
  const node = levels.length === 0 ? getMasterKeyFromSeed(bytesToHex(seed)) : derivePath(path, bytesToHex(seed));
  return { key: Uint8Array.from(node.key), chainCode: Uint8Array.from(node.chainCode) };
}
