import { describe, expect, it } from 'vitest';
import {
  base64UrlToBytes,
  bytesEqual,
  bytesToBase64Url,
  bytesToHex,
  bytesToUtf8,
  concatBytes,
  hexToBytes,
  utf8ToBytes,
} from './encoding';

describe('encoding', () => {
  it('hex round-trips and is lower-case', () => {
    const bytes = Uint8Array.from([0, 1, 0x7f, 0x80, 0xab, 0xff]);
    expect(bytesToHex(bytes)).toBe('00017f80abff');
    expect(hexToBytes('00017F80ABff')).toEqual(bytes);
    expect(() => hexToBytes('abc')).toThrow(TypeError);
    expect(() => hexToBytes('zz')).toThrow(TypeError);
  });

  it('base64url matches RFC 4648 test vectors without padding', () => {
    // RFC 4648 section 10, in the URL-safe alphabet, padding removed.
    const cases: Array<[string, string]> = [
      ['', ''], ['f', 'Zg'], ['fo', 'Zm8'], ['foo', 'Zm9v'], ['foob', 'Zm9vYg'], ['fooba', 'Zm9vYmE'], ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, encoded] of cases) {
      expect(bytesToBase64Url(utf8ToBytes(text))).toBe(encoded);
      expect(bytesToUtf8(base64UrlToBytes(encoded))).toBe(text);
    }
    expect(bytesToBase64Url(Uint8Array.from([0xfb, 0xff, 0xbf]))).toBe('-_-_');
  });

  it('base64url agrees with Node for every length up to 70 bytes', () => {
    for (let n = 0; n <= 70; n += 1) {
      const bytes = globalThis.crypto.getRandomValues(new Uint8Array(n));
      const encoded = Buffer.from(bytes).toString('base64url');
      expect(bytesToBase64Url(bytes)).toBe(encoded);
      expect(base64UrlToBytes(encoded)).toEqual(bytes);
    }
  });

  it('base64url decoding rejects padding, the standard alphabet and non-canonical spellings', () => {
    expect(() => base64UrlToBytes('Zg==')).toThrow(TypeError);
    expect(() => base64UrlToBytes('+/+/')).toThrow(TypeError);
    expect(() => base64UrlToBytes('Z')).toThrow(TypeError);
    expect(() => base64UrlToBytes('Zh')).toThrow(TypeError); // 'Zg' with a stray low bit
  });

  it('utf8 decoding rejects malformed bytes', () => {
    expect(() => bytesToUtf8(Uint8Array.from([0xc3]))).toThrow(TypeError);
    expect(bytesToUtf8(utf8ToBytes('é ✓ 😀'))).toBe('é ✓ 😀');
  });

  it('concatBytes and bytesEqual', () => {
    expect(concatBytes(Uint8Array.of(1), Uint8Array.of(), Uint8Array.of(2, 3))).toEqual(Uint8Array.of(1, 2, 3));
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).toBe(true);
    expect(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 3))).toBe(false);
    expect(bytesEqual(Uint8Array.of(1), Uint8Array.of(1, 2))).toBe(false);
  });
});
