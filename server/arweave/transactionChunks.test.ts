/**
 * The streamed chunker against arweave-js's own generateTransactionChunks (known answers computed
 * by the library the network's tools use): same data_root, same chunk ranges and hashes, same
 * proofs and offsets, for sizes around every edge of arweave's rules, and whatever the pieces the
 * stream arrives in. Each proof also passes arweave-js's validatePath.
 */
import crypto from 'node:crypto';
import { generateTransactionChunks, validatePath } from 'arweave/node/lib/merkle';
import { describe, expect, it } from 'vitest';
import { ChunkTree, MAX_CHUNK_SIZE, MIN_CHUNK_SIZE, uploadChunkCount } from './transactionChunks';

const KIB = 1024;
const SIZES = [
  1,
  MIN_CHUNK_SIZE - 1,
  MAX_CHUNK_SIZE - 1,
  MAX_CHUNK_SIZE,
  MAX_CHUNK_SIZE + 1,
  MAX_CHUNK_SIZE + MIN_CHUNK_SIZE - 1,
  MAX_CHUNK_SIZE + MIN_CHUNK_SIZE,
  2 * MAX_CHUNK_SIZE,
  2 * MAX_CHUNK_SIZE + 5,
  3 * MAX_CHUNK_SIZE + MIN_CHUNK_SIZE + 7,
  5 * MAX_CHUNK_SIZE + 100 * KIB,
  7 * MAX_CHUNK_SIZE,
];

async function* inPieces(data: Buffer, pieceSize: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.length; at += pieceSize) yield data.subarray(at, at + pieceSize);
}

describe('streamed transaction chunks', () => {
  for (const size of SIZES) {
    it(`${size} bytes: the same data_root, chunks and proofs as arweave-js`, async () => {
      const data = crypto.randomBytes(size);
      const expected = await generateTransactionChunks(new Uint8Array(data));
      // Pieces smaller than a chunk, not aligned with it, and larger than two.
      for (const pieceSize of [4_099, 64 * KIB, 700 * KIB]) {
        const tree = await ChunkTree.fromStream(inPieces(data, pieceSize));
        expect(tree.dataRoot.equals(Buffer.from(expected.data_root))).toBe(true);
        expect(tree.dataSize).toBe(size);
        // arweave-js drops the trailing empty chunk from its list (after counting it in data_root).
        expect(tree.chunks.slice(0, tree.uploadCount).map((c) => [c.minByteRange, c.maxByteRange, c.dataHash.toString('hex')])).toEqual(
          expected.chunks.map((c) => [c.minByteRange, c.maxByteRange, Buffer.from(c.dataHash).toString('hex')]),
        );
        expect(tree.uploadCount).toBe(expected.proofs.length);
        // R66a: what the relay compares the acknowledged chunks with, from data_size alone.
        expect(uploadChunkCount(size)).toBe(expected.proofs.length);
        for (let index = 0; index < tree.uploadCount; index += 1) {
          const proof = tree.proof(index);
          expect(proof.offset).toBe(expected.proofs[index]!.offset);
          expect(proof.proof.equals(Buffer.from(expected.proofs[index]!.proof))).toBe(true);
          expect(await validatePath(new Uint8Array(tree.dataRoot), proof.offset, 0, size, new Uint8Array(proof.proof))).not.toBe(false);
        }
      }
    });
  }
});
