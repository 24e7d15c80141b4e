import { describe, expect, it } from 'vitest';
import fixture from '../../tests/fixtures/device-wallet.json';
import { bytesToHex, hexToBytes } from '../../src/crypto/encoding';
import { createDeviceKey, openWithDeviceKey, sealWithDeviceKey } from './deviceKey';

describe('device-sealed wallet format', () => {
  it('opens the known-answer blob (format pinned: iv || AES-256-GCM, fixed associated data)', async () => {
    const key = await globalThis.crypto.subtle.importKey('raw', hexToBytes(fixture.key), 'AES-GCM', false, ['encrypt', 'decrypt']);
    expect(bytesToHex(await openWithDeviceKey(key, fixture.sealed))).toBe(fixture.entropy);
  });

  it('seals with a fresh IV each time under a non-extractable key', async () => {
    const key = await createDeviceKey();
    expect(key.extractable).toBe(false);
    const data = hexToBytes(fixture.entropy);
    const a = await sealWithDeviceKey(key, data);
    const b = await sealWithDeviceKey(key, data);
    expect(a).not.toBe(b);
    expect(await openWithDeviceKey(key, a)).toEqual(data);
    await expect(openWithDeviceKey(await createDeviceKey(), a)).rejects.toThrow('BAD_STORED_WALLET');
    await expect(openWithDeviceKey(key, 'AAAA')).rejects.toThrow('BAD_STORED_WALLET');
    await expect(openWithDeviceKey(key, '!')).rejects.toThrow('BAD_STORED_WALLET');
  });
});
