import { describe, expect, it } from 'vitest';
import fixture from '../../tests/fixtures/backup-phrase.json';
import {
  deriveBackupPhraseKey,
  openBackupPhrase,
  sealBackupPhrase,
  sealBackupPhraseWithNonce,
} from './backupPhrase';
import { base64UrlToBytes, bytesToBase64Url, bytesToHex, hexToBytes } from './encoding';
import { randomBytes } from './random';

describe('encBackupPhrase format v1', () => {
  it.each(fixture.vectors)('known answer for entropy $entropy', async (vector) => {
    const exportKey = base64UrlToBytes(vector.exportKey);
    expect(bytesToHex(await deriveBackupPhraseKey(exportKey))).toBe(vector.key);
    const blob = await sealBackupPhraseWithNonce(exportKey, hexToBytes(vector.entropy), hexToBytes(vector.nonce));
    expect(blob).toBe(vector.blob);
    expect(bytesToHex(await openBackupPhrase(exportKey, vector.blob))).toBe(vector.entropy);
  });

  it('seals with a fresh nonce each time and opens again', async () => {
    const exportKey = randomBytes(64);
    const entropy = randomBytes(16);
    const a = await sealBackupPhrase(exportKey, entropy);
    const b = await sealBackupPhrase(exportKey, entropy);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(a.length).toBeLessThanOrEqual(256); // Base64Url(256) in src/protocol/auth.ts
    expect(await openBackupPhrase(exportKey, a)).toEqual(entropy);
  });

  it('fails with BAD_BACKUP for a wrong key, tampering, another version or garbage', async () => {
    const vector = fixture.vectors[0]!;
    const exportKey = base64UrlToBytes(vector.exportKey);
    const wrongKey = exportKey.slice();
    wrongKey[0]! ^= 1;
    await expect(openBackupPhrase(wrongKey, vector.blob)).rejects.toThrow('BAD_BACKUP');

    const bytes = base64UrlToBytes(vector.blob);
    for (const index of [0, 1, 30, bytes.length - 1]) {
      const tampered = bytes.slice();
      tampered[index]! ^= 1;
      await expect(openBackupPhrase(exportKey, bytesToBase64Url(tampered))).rejects.toThrow('BAD_BACKUP');
    }
    await expect(openBackupPhrase(exportKey, bytesToBase64Url(bytes.subarray(0, 40)))).rejects.toThrow('BAD_BACKUP');
    await expect(openBackupPhrase(exportKey, 'not base64url!')).rejects.toThrow('BAD_BACKUP');
    await expect(openBackupPhrase(exportKey, '')).rejects.toThrow('BAD_BACKUP');
  });

  it('refuses what is not BIP39 entropy, a bad nonce or a bad export key', async () => {
    const exportKey = randomBytes(64);
    await expect(sealBackupPhrase(exportKey, randomBytes(15))).rejects.toThrow(TypeError);
    await expect(sealBackupPhraseWithNonce(exportKey, randomBytes(16), randomBytes(12))).rejects.toThrow(TypeError);
    await expect(sealBackupPhrase(randomBytes(8), randomBytes(16))).rejects.toThrow(TypeError);
  });
});
