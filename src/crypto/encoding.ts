/**
 * Byte encodings used across Cairn's wire formats. Pure and dependency-free so the UI, the
 * workers and the server share one implementation (no Node `Buffer`, no DOM-only API).
 *
 * Every function returns `Uint8Array<ArrayBuffer>` (never a view of a shared or foreign buffer) so
 * results can be handed straight to WebCrypto, whose types reject `ArrayBufferLike`.
 */

const HEX_PATTERN = /^(?:[0-9a-fA-F]{2})*$/;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]*$/;
const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Lower-case hex, the form public keys take in the protocol. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** Parses hex (either case). Throws TypeError on odd length or a non-hex character. */
export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (!HEX_PATTERN.test(hex)) throw new TypeError('hexToBytes: not an even-length hex string');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** RFC 4648 base64url without padding. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += BASE64URL_ALPHABET[n >>> 18]! + BASE64URL_ALPHABET[(n >>> 12) & 63]! +
      BASE64URL_ALPHABET[(n >>> 6) & 63]! + BASE64URL_ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += BASE64URL_ALPHABET[n >>> 18]! + BASE64URL_ALPHABET[(n >>> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += BASE64URL_ALPHABET[n >>> 18]! + BASE64URL_ALPHABET[(n >>> 12) & 63]! + BASE64URL_ALPHABET[(n >>> 6) & 63]!;
  }
  return out;
}

/**
 * Parses RFC 4648 base64url without padding. Strict: rejects padding, the standard alphabet's
 * `+` and `/`, impossible lengths and non-zero trailing bits, so every byte string has exactly one
 * accepted encoding (signed and stored values must not have look-alike spellings).
 */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  if (!BASE64URL_PATTERN.test(text) || text.length % 4 === 1) {
    throw new TypeError('base64UrlToBytes: not unpadded base64url');
  }
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let o = 0;
  for (const char of text) {
    value = (value << 6) | BASE64URL_ALPHABET.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (value >>> bits) & 0xff;
    }
  }
  if ((value & ((1 << bits) - 1)) !== 0) throw new TypeError('base64UrlToBytes: non-canonical trailing bits');
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 bytes of a string. */
export function utf8ToBytes(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text) as Uint8Array<ArrayBuffer>;
}

/** Decodes UTF-8; throws TypeError on malformed input rather than inserting U+FFFD. */
export function bytesToUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** Concatenates byte arrays into a fresh buffer. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Constant-time comparison for secrets and MACs (time depends on length only). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
