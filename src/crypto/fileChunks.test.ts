import { createDecipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fixture from '../../tests/fixtures/file-chunks.json';
import { CHUNK_SIZE } from '../protocol/vaults';
import { bytesToHex, hexToBytes } from './encoding';
import {
  chunkCount,
  chunkHeaderBytes,
  chunkHeaderFor,
  chunkNonce,
  decryptChunk,
  encryptChunk,
  importFileKey,
  plainChunkRange,
  plainChunkSize,
  sha256Hex,
  storedFileSize,
  type ChunkHeader,
} from './fileChunks';
import { randomBytes } from './random';

async function sealAll(key: CryptoKey, plaintext: Uint8Array, header: ChunkHeader) {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < header.chunkCount; i += 1) {
    const { start, end } = plainChunkRange(i, header);
    chunks.push(await encryptChunk(key, i, header, plaintext.subarray(start, end)));
  }
  return chunks;
}

describe('file chunk format v1', () => {
  it('counts chunks: an empty file is one chunk, CHUNK_SIZE by default', () => {
    expect(chunkCount(0)).toBe(1);
    expect(chunkCount(1)).toBe(1);
    expect(chunkCount(CHUNK_SIZE)).toBe(1);
    expect(chunkCount(CHUNK_SIZE + 1)).toBe(2);
    expect(chunkCount(2 * CHUNK_SIZE + 1)).toBe(3);
    expect(chunkCount(33, 16)).toBe(3);
    expect(() => chunkCount(-1)).toThrow(TypeError);
    expect(storedFileSize(chunkHeaderFor(20, 16), true)).toBe(52);
    expect(storedFileSize(chunkHeaderFor(20, 16), false)).toBe(20);
  });

  it('sizes each chunk: full ones, then the rest; an empty file has one empty chunk', () => {
    const header = chunkHeaderFor(33, 16);
    expect([0, 1, 2].map((i) => plainChunkSize(i, header))).toEqual([16, 16, 1]);
    expect(plainChunkSize(0, chunkHeaderFor(0, 16))).toBe(0);
    expect(() => plainChunkSize(3, header)).toThrow(RangeError);
  });

  it('lays out nonce and header as specified', () => {
    expect(bytesToHex(chunkNonce(0, false))).toBe('000000000000000000000000');
    expect(bytesToHex(chunkNonce(0x0102030405, true))).toBe('000000010203040500000001');
    expect(bytesToHex(chunkHeaderBytes({ size: 20, chunkSize: 16, chunkCount: 2 }))).toBe(
      '01' + '0000000000000010' + '0000000000000014' + '0000000000000002',
    );
  });

  it.each(fixture.vectors)('known answer (node:crypto aes-256-gcm): $name', async (vector) => {
    const key = await importFileKey(hexToBytes(fixture.key));
    const header = chunkHeaderFor(vector.size, vector.chunkSize);
    expect(header.chunkCount).toBe(vector.chunkCount);
    expect(bytesToHex(chunkHeaderBytes(header))).toBe(vector.header);
    const plaintext = hexToBytes(vector.plaintext);
    const sealed = await sealAll(key, plaintext, header);
    const opened: Uint8Array[] = [];
    for (const [i, chunk] of vector.chunks.entries()) {
      expect(bytesToHex(chunkNonce(i, i === header.chunkCount - 1))).toBe(chunk.nonce);
      expect(bytesToHex(sealed[i]!)).toBe(chunk.stored);
      expect(await sha256Hex(sealed[i]!)).toBe(chunk.sha256);
      opened.push(await decryptChunk(key, i, header, hexToBytes(chunk.stored)));
    }
    expect(bytesToHex(Uint8Array.from(opened.flatMap((c) => [...c])))).toBe(vector.plaintext);
  });

  it('round-trips random data of many sizes and Node opens what WebCrypto sealed', async () => {
    const raw = randomBytes(32);
    const key = await importFileKey(raw);
    for (const size of [0, 1, 15, 16, 17, 100]) {
      const plaintext = randomBytes(size);
      const header = chunkHeaderFor(size, 16);
      const sealed = await sealAll(key, plaintext, header);
      for (const [i, chunk] of sealed.entries()) {
        const { start, end } = plainChunkRange(i, header);
        expect(await decryptChunk(key, i, header, chunk)).toEqual(plaintext.subarray(start, end));
        const decipher = createDecipheriv('aes-256-gcm', raw, chunkNonce(i, i === header.chunkCount - 1));
        decipher.setAAD(chunkHeaderBytes(header));
        decipher.setAuthTag(chunk.subarray(chunk.length - 16));
        const plain = Buffer.concat([decipher.update(chunk.subarray(0, chunk.length - 16)), decipher.final()]);
        expect(new Uint8Array(plain)).toEqual(plaintext.subarray(start, end));
      }
    }
  });

  it('reordering two chunks fails authentication', async () => {
    const key = await importFileKey(randomBytes(32));
    const header = chunkHeaderFor(48, 16);
    const [c0, c1] = await sealAll(key, randomBytes(48), header);
    await expect(decryptChunk(key, 0, header, c1!)).rejects.toThrow('CHUNK_TAMPERED');
    await expect(decryptChunk(key, 1, header, c0!)).rejects.toThrow('CHUNK_TAMPERED');
  });

  it('truncation fails: a middle chunk presented as the last of a shorter file', async () => {
    const key = await importFileKey(randomBytes(32));
    const header = chunkHeaderFor(48, 16);
    const sealed = await sealAll(key, randomBytes(48), header);
    // The attacker drops chunk 2 and claims a 32-byte, 2-chunk file: chunk 1 must now be "last".
    const truncated = chunkHeaderFor(32, 16);
    await expect(decryptChunk(key, 1, truncated, sealed[1]!)).rejects.toThrow('CHUNK_TAMPERED');
    await expect(decryptChunk(key, 0, truncated, sealed[0]!)).rejects.toThrow('CHUNK_TAMPERED');
  });

  it('a flipped bit, another key or another file version fails', async () => {
    const key = await importFileKey(randomBytes(32));
    const header = chunkHeaderFor(20, 16);
    const [c0] = await sealAll(key, randomBytes(20), header);
    for (const index of [0, 8, c0!.length - 1]) {
      const flipped = c0!.slice();
      flipped[index]! ^= 0x01;
      await expect(decryptChunk(key, 0, header, flipped)).rejects.toThrow('CHUNK_TAMPERED');
    }
    await expect(decryptChunk(await importFileKey(randomBytes(32)), 0, header, c0!)).rejects.toThrow('CHUNK_TAMPERED');
    await expect(decryptChunk(key, 0, { size: 21, chunkSize: 16, chunkCount: 2 }, c0!)).rejects.toThrow('CHUNK_TAMPERED');
    await expect(decryptChunk(key, 0, header, c0!.subarray(0, 10))).rejects.toThrow('CHUNK_TAMPERED');
  });

  it('refuses a plaintext that does not match the header, a bad index or a bad key', async () => {
    const key = await importFileKey(randomBytes(32));
    const header = chunkHeaderFor(20, 16);
    await expect(encryptChunk(key, 1, header, randomBytes(5))).rejects.toThrow(RangeError);
    await expect(encryptChunk(key, 2, header, randomBytes(4))).rejects.toThrow(RangeError);
    await expect(encryptChunk(key, 0, { ...header, chunkCount: 3 }, randomBytes(16))).rejects.toThrow(TypeError);
    await expect(importFileKey(randomBytes(16))).rejects.toThrow(TypeError);
  });

  it('sha256Hex matches the FIPS 180-2 "abc" vector', async () => {
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
