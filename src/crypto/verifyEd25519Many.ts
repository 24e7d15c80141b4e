/**
 * Ed25519 verification of many detached signatures at once, for pulls (a fresh device checks every
 * operation of a vault: 10,000 signatures for a 10,000-file folder).
 *
 * WebCrypto's Ed25519 (native BoringSSL or OpenSSL) is several times faster than libsodium's
 * WebAssembly, and the calls of a page run concurrently. But native Ed25519 is RFC 8032
 * cofactorless verification without libsodium's extra rules, so it accepts some signatures
 * libsodium refuses: any "signature" under a public key of small order (which anyone can forge),
 * and a signature whose R is of small order. Browsers without WebCrypto Ed25519 (or pages outside
 * a secure context) fall back to libsodium, and members must never disagree on which operations
 * verify, so the same rules as libsodium's `crypto_sign_verify_detached` are checked here first:
 * S is a canonical scalar (S < L), the public key is a canonical encoding, and neither the public
 * key nor R is one of the encodings of a point of small order. With them, both paths accept
 * exactly the same signatures (verifyEd25519Many.test.ts checks crafted cases against libsodium).
 */
import { bytesToHex } from './encoding';
import { loadSodium } from './sodium';

export interface SignedMessage {
  /** 32 bytes. */
  publicKey: Uint8Array;
  message: Uint8Array;
  /** 64 bytes: R (32) then S (32). */
  signature: Uint8Array;
}

export type Ed25519Implementation = 'webcrypto' | 'libsodium';

const P = 2n ** 255n - 19n;
/** The order of the base point. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
/** The y-coordinate of the points of order 8 (the other two have P - Y8). */
const Y8 = 2707385501144840649318225287225658788936804267575313519463743609750303402022n;

function littleEndian32(value: bigint): Uint8Array {
  const bytes = new Uint8Array(32);
  for (let i = 0, v = value; i < 32; i++, v >>= 8n) bytes[i] = Number(v & 0xffn);
  return bytes;
}

const L_BYTES = littleEndian32(L);

/**
 * The encodings (sign bit ignored) of the points of order 1, 2, 4 and 8: y = 0 (order 4), 1 (the
 * identity), Y8 and P - Y8 (order 8), P - 1 (order 2), and the non-canonical P and P + 1 (0 and 1
 * again). The list libsodium refuses for public keys and for R.
 */
const SMALL_ORDER_ENCODINGS = [0n, 1n, Y8, P - Y8, P - 1n, P, P + 1n].map(littleEndian32);

/** `s` (32 bytes, little-endian) is below L. */
export function isCanonicalScalar(s: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    if (s[i]! < L_BYTES[i]!) return true;
    if (s[i]! > L_BYTES[i]!) return false;
  }
  return false;
}

/** The y-coordinate of point encoding `e` (sign bit ignored) is below P. */
export function isCanonicalPoint(e: Uint8Array): boolean {
  if ((e[31]! & 0x7f) !== 0x7f) return true;
  for (let i = 30; i > 0; i--) if (e[i] !== 0xff) return true;
  return e[0]! < 0xed;
}

/** `e` (sign bit ignored) encodes a point of small order. */
export function hasSmallOrder(e: Uint8Array): boolean {
  return SMALL_ORDER_ENCODINGS.some((bad) => {
    for (let i = 0; i < 31; i++) if (e[i] !== bad[i]) return false;
    return (e[31]! & 0x7f) === bad[31];
  });
}

/** libsodium's rules beyond RFC 8032 (see the file comment), plus the lengths. */
export function passesStrictRules({ publicKey, signature }: SignedMessage): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const r = signature.subarray(0, 32);
  const s = signature.subarray(32);
  return isCanonicalScalar(s) && !hasSmallOrder(r) && isCanonicalPoint(publicKey) && !hasSmallOrder(publicKey);
}

/** RFC 8032 test 1's public key: a valid key to probe WebCrypto with. */
const PROBE_KEY = new Uint8Array([
  0xd7, 0x5a, 0x98, 0x01, 0x82, 0xb1, 0x0a, 0xb7, 0xd5, 0x4b, 0xfe, 0xd3, 0xc9, 0x64, 0x07, 0x3a, 0x0e, 0xe1, 0x72, 0xf3, 0xda, 0xa6,
  0x23, 0x25, 0xaf, 0x02, 0x1a, 0x68, 0xf7, 0x07, 0x51, 0x1a,
]);

let webCryptoSupport: Promise<boolean> | undefined;

/** Whether this runtime's WebCrypto verifies Ed25519 (absent outside a secure context, and in older browsers). */
export function hasWebCryptoEd25519(): Promise<boolean> {
  webCryptoSupport ??= (async () => {
    try {
      const subtle = globalThis.crypto?.subtle;
      if (!subtle) return false;
      await subtle.importKey('raw', PROBE_KEY, { name: 'Ed25519' }, false, ['verify']);
      return true;
    } catch {
      return false;
    }
  })();
  return webCryptoSupport;
}

/** A WebCrypto key, named through `globalThis.crypto` so this file also typechecks without the DOM lib (server). */
type VerifyKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

/** Imported public keys by hex: a vault's operations come from a handful of authors. */
const importedKeys = new Map<string, Promise<VerifyKey>>();
const IMPORTED_KEYS_MAX = 256;

function importVerifyKey(publicKey: Uint8Array): Promise<VerifyKey> {
  const hex = bytesToHex(publicKey);
  let key = importedKeys.get(hex);
  if (!key) {
    if (importedKeys.size >= IMPORTED_KEYS_MAX) importedKeys.clear();
    key = globalThis.crypto.subtle.importKey('raw', new Uint8Array(publicKey), { name: 'Ed25519' }, false, ['verify']);
    // A key that fails to import verifies nothing; do not keep the failure.
    key.catch(() => importedKeys.delete(hex));
    importedKeys.set(hex, key);
  }
  return key;
}

async function verifyWithWebCrypto(item: SignedMessage): Promise<boolean> {
  try {
    const key = await importVerifyKey(item.publicKey);
    return await globalThis.crypto.subtle.verify('Ed25519', key, new Uint8Array(item.signature), new Uint8Array(item.message));
  } catch {
    return false;
  }
}

/**
 * One verdict per item, in order: true when `signature` is a valid Ed25519 signature by
 * `publicKey` over `message` under libsodium's rules. Never throws for bad input.
 * `implementation` is for tests; by default WebCrypto when the runtime has it, else libsodium.
 */
export async function verifyEd25519Many(items: SignedMessage[], implementation?: Ed25519Implementation): Promise<boolean[]> {
  const use = implementation ?? ((await hasWebCryptoEd25519()) ? 'webcrypto' : 'libsodium');
  if (use === 'libsodium') {
    const sodium = await loadSodium();
    return items.map((item) => {
      if (item.publicKey.length !== 32 || item.signature.length !== 64) return false;
      try {
        return sodium.crypto_sign_verify_detached(item.signature, item.message, item.publicKey);
      } catch {
        return false;
      }
    });
  }
  return Promise.all(items.map((item) => (passesStrictRules(item) ? verifyWithWebCrypto(item) : false)));
}
