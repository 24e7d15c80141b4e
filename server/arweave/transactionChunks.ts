/**
 * Arweave's chunking of a transaction's data (data_root, chunks and their proofs) computed from a
 * stream, so a 1 GiB bundle is never whole in memory. arweave-js `generateTransactionChunks` takes
 * the data as one buffer; this follows its rules exactly (arweave/node/lib/merkle.js, after the
 * node's ar_merkle.erl), which transactionChunks.test.ts checks against it byte for byte:
 *
 * - chunks of MAX_CHUNK_SIZE (256 KiB), except that when the bytes left after a full chunk would
 *   be fewer than MIN_CHUNK_SIZE (32 KiB) but not zero, the last two chunks split what is left,
 *   the first taking ceil(rest / 2);
 * - data whose size is a multiple of 256 KiB ends with an empty chunk: its leaf counts in the tree
 *   (so in data_root), but it has no proof and is never uploaded;
 * - leaf id = H(H(dataHash) || H(note(end))), branch id = H(H(left) || H(right) || H(note(left end))),
 *   H = SHA-256, note = the offset as a 32-byte big-endian integer; an odd node at the end of a
 *   layer goes up unchanged;
 * - a chunk's proof (data_path) lists, from the root down, each branch's left id, right id and
 *   note, then the leaf's dataHash and note; its offset is the chunk's last byte.
 *
 * What stays in memory is the tree's hashes: about 100 bytes per 256 KiB chunk (400 KiB for 1 GiB).
 */
import crypto from 'node:crypto';

export const MAX_CHUNK_SIZE = 256 * 1024;
export const MIN_CHUNK_SIZE = 32 * 1024;
const NOTE_SIZE = 32;

export interface ChunkRange {
  /** SHA-256 of the chunk's bytes. */
  dataHash: Buffer;
  minByteRange: number;
  maxByteRange: number;
}

interface TreeNode {
  id: Buffer;
  maxByteRange: number;
}

/** A transaction's data_root and what it takes to prove each of its chunks. */
export class ChunkTree {
  /** layers[0] are the leaves (the empty trailing chunk's included), the last layer the root. */
  private constructor(
    readonly chunks: readonly ChunkRange[],
    private readonly layers: readonly (readonly TreeNode[])[],
    readonly dataSize: number,
  ) {}

  /** Reads `source` once; `source` may yield pieces of any size. */
  static async fromStream(source: AsyncIterable<Uint8Array>): Promise<ChunkTree> {
    const chunks: ChunkRange[] = [];
    let dataSize = 0;
    for await (const chunk of chunkStream(source)) {
      chunks.push({ dataHash: sha256(chunk.bytes), minByteRange: chunk.minByteRange, maxByteRange: chunk.maxByteRange });
      dataSize = chunk.maxByteRange;
    }
    const leaves = chunks.map((c) => ({ id: sha256(sha256(c.dataHash), sha256(note(c.maxByteRange))), maxByteRange: c.maxByteRange }));
    const layers: TreeNode[][] = [leaves];
    while (layers[layers.length - 1]!.length > 1) {
      const below = layers[layers.length - 1]!;
      const layer: TreeNode[] = [];
      for (let i = 0; i < below.length; i += 2) {
        const left = below[i]!;
        const right = below[i + 1];
        layer.push(right ? { id: sha256(sha256(left.id), sha256(right.id), sha256(note(left.maxByteRange))), maxByteRange: right.maxByteRange } : left);
      }
      layers.push(layer);
    }
    return new ChunkTree(chunks, layers, dataSize);
  }

  get dataRoot(): Buffer {
    return this.layers[this.layers.length - 1]![0]!.id;
  }

  /** The chunks that are uploaded: all but a trailing empty one. */
  get uploadCount(): number {
    const last = this.chunks[this.chunks.length - 1];
    return last && last.maxByteRange === last.minByteRange ? this.chunks.length - 1 : this.chunks.length;
  }

  /** The proof (data_path) and offset of chunk `index`, as generateTransactionChunks makes them. */
  proof(index: number): { offset: number; proof: Buffer } {
    const chunk = this.chunks[index];
    if (!chunk) throw new RangeError(`No chunk ${index}`);
    const steps: Buffer[] = [];
    let position = index;
    for (let level = 0; level < this.layers.length - 1; level += 1) {
      const layer = this.layers[level]!;
      const pairStart = position - (position % 2);
      const right = layer[pairStart + 1];
      // A node without a partner went up unchanged: no branch on this level.
      if (right) steps.push(Buffer.concat([layer[pairStart]!.id, right.id, note(layer[pairStart]!.maxByteRange)]));
      position = Math.floor(position / 2);
    }
    steps.reverse();
    steps.push(chunk.dataHash, note(chunk.maxByteRange));
    return { offset: chunk.maxByteRange - 1, proof: Buffer.concat(steps) };
  }
}

/**
 * `source` cut into Arweave's chunks, each yielded with its byte range. Holds at most
 * MAX_CHUNK_SIZE + MIN_CHUNK_SIZE bytes plus one piece of `source`. Ends with an empty chunk when
 * the size is a multiple of MAX_CHUNK_SIZE (or zero), as arweave-js does.
 */
export async function* chunkStream(source: AsyncIterable<Uint8Array>): AsyncGenerator<{ bytes: Buffer; minByteRange: number; maxByteRange: number }> {
  let pending: Buffer[] = [];
  let pendingSize = 0;
  let cursor = 0;
  const take = (size: number): Buffer => {
    const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingSize);
    const bytes = all.subarray(0, size);
    const rest = all.subarray(size);
    pending = rest.length > 0 ? [rest] : [];
    pendingSize = rest.length;
    return Buffer.from(bytes);
  };
  for await (const piece of source) {
    if (piece.length === 0) continue;
    pending.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    pendingSize += piece.length;
    // With MIN_CHUNK_SIZE more to come after it, a full chunk can never be one of a last two.
    while (pendingSize >= MAX_CHUNK_SIZE + MIN_CHUNK_SIZE) {
      const bytes = take(MAX_CHUNK_SIZE);
      yield { bytes, minByteRange: cursor, maxByteRange: cursor + bytes.length };
      cursor += bytes.length;
    }
  }
  // The end: arweave-js's own loop on what is left.
  while (pendingSize >= MAX_CHUNK_SIZE) {
    const next = pendingSize - MAX_CHUNK_SIZE;
    const size = next > 0 && next < MIN_CHUNK_SIZE ? Math.ceil(pendingSize / 2) : MAX_CHUNK_SIZE;
    const bytes = take(size);
    yield { bytes, minByteRange: cursor, maxByteRange: cursor + bytes.length };
    cursor += bytes.length;
  }
  const bytes = take(pendingSize);
  yield { bytes, minByteRange: cursor, maxByteRange: cursor + bytes.length };
}

/**
 * How many chunks data of `dataSize` bytes is uploaded in (ChunkTree.uploadCount, from the size
 * alone): the same cuts as chunkStream, the trailing empty chunk not counted.
 */
export function uploadChunkCount(dataSize: number): number {
  let rest = dataSize;
  let count = 0;
  while (rest >= MAX_CHUNK_SIZE) {
    const next = rest - MAX_CHUNK_SIZE;
    rest -= next > 0 && next < MIN_CHUNK_SIZE ? Math.ceil(rest / 2) : MAX_CHUNK_SIZE;
    count += 1;
  }
  return rest > 0 ? count + 1 : count;
}

function sha256(...parts: Uint8Array[]): Buffer {
  const hash = crypto.createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** An offset as arweave's 32-byte big-endian note. */
function note(value: number): Buffer {
  const buffer = Buffer.alloc(NOTE_SIZE);
  let rest = value;
  for (let i = NOTE_SIZE - 1; i >= 0 && rest > 0; i -= 1) {
    buffer[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  return buffer;
}
