/**
 * Device sealing for 'Keep me signed in': the wallet entropy sealed with AES-256-GCM under a
 * non-extractable WebCrypto key that lives only in this browser's IndexedDB (structured clone).
 * Script on the page can use the key while it runs but can never read it out, so a copied
 * `sealed` string is useless on another machine.
 *
 * Format: base64url(iv (12 bytes) || AES-GCM ciphertext and tag), associated data
 * "cairn:deviceWallet:v1".
 *
 * Lives beside the worker, not in src/crypto: only the browser needs it, and the server's
 * tsconfig (no DOM lib) has no CryptoKey type.
 */
import { base64UrlToBytes, bytesToBase64Url, concatBytes, utf8ToBytes } from '../../src/crypto/encoding';
import { randomBytes } from '../../src/crypto/random';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const ASSOCIATED_DATA = utf8ToBytes('cairn:deviceWallet:v1');

/** A fresh AES-GCM-256 key that cannot be exported (extractable: false). */
export async function createDeviceKey(): Promise<CryptoKey> {
  return globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/** Seals `data` under the device key with a random 96-bit IV. */
export async function sealWithDeviceKey(deviceKey: CryptoKey, data: Uint8Array): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const sealed = await globalThis.crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: ASSOCIATED_DATA },
    deviceKey,
    new Uint8Array(data),
  );
  return bytesToBase64Url(concatBytes(iv, new Uint8Array(sealed)));
}

/** Opens what `sealWithDeviceKey` sealed. Throws Error('BAD_STORED_WALLET') when it cannot. */
export async function openWithDeviceKey(deviceKey: CryptoKey, sealed: string): Promise<Uint8Array> {
  try {
    const bytes = base64UrlToBytes(sealed);
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('short');
    const data = await globalThis.crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES), additionalData: ASSOCIATED_DATA },
      deviceKey,
      bytes.subarray(IV_BYTES),
    );
    return new Uint8Array(data);
  } catch {
    throw new Error('BAD_STORED_WALLET');
  }
}
