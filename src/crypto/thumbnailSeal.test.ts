import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes, utf8ToBytes } from './encoding';
import { openThumbnail, sealThumbnail } from './thumbnailSeal';

const FILE_KEY = hexToBytes('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
const NONCE = hexToBytes('a0a1a2a3a4a5a6a7a8a9aaab');
const IMAGE = utf8ToBytes('RIFF....WEBPVP8 a tiny stand-in for an image');

describe('[R79] thumbnail sealing', () => {
  it('is the nonce followed by AES-GCM under HKDF(file key), and opens back', async () => {
    const sealed = await sealThumbnail(FILE_KEY, 'version-1', IMAGE, NONCE);
    expect(sealed.length).toBe(12 + IMAGE.length + 16);
    expect(bytesToHex(sealed.slice(0, 12))).toBe(bytesToHex(NONCE));
    // Pinned: the format must not drift, or thumbnails already stored stop opening.
    expect(bytesToHex(sealed)).toMatchSnapshot();
    expect(await openThumbnail(FILE_KEY, 'version-1', sealed)).toEqual(IMAGE);
  });

  it('is not the content chunk format: the file key alone does not open it at nonce 0', async () => {
    const sealed = await sealThumbnail(FILE_KEY, 'version-1', IMAGE, NONCE);
    const raw = await crypto.subtle.importKey('raw', FILE_KEY, 'AES-GCM', false, ['decrypt']);
    await expect(crypto.subtle.decrypt({ name: 'AES-GCM', iv: NONCE }, raw, sealed.slice(12))).rejects.toThrow();
  });

  it('refuses another version, another key, or a changed byte', async () => {
    const sealed = await sealThumbnail(FILE_KEY, 'version-1', IMAGE);
    await expect(openThumbnail(FILE_KEY, 'version-2', sealed)).rejects.toThrow();
    const otherKey = FILE_KEY.slice(0);
    otherKey[0] = 0xff;
    await expect(openThumbnail(otherKey, 'version-1', sealed)).rejects.toThrow();
    const tampered = sealed.slice(0);
    tampered[20]! ^= 1;
    await expect(openThumbnail(FILE_KEY, 'version-1', tampered)).rejects.toThrow();
  });

  it('seals the same image twice under two random nonces', async () => {
    const a = await sealThumbnail(FILE_KEY, 'v', IMAGE);
    const b = await sealThumbnail(FILE_KEY, 'v', IMAGE);
    expect(bytesToHex(a)).not.toBe(bytesToHex(b));
  });
});
