/**
 * ANS-104 data items and bundles built from streams (docs/decisions.md, "The permanent relay in
 * flat memory"). arbundles' createData and bundleAndSignData take each version's bytes whole, and
 * its file variants still read a whole bundle back into one buffer to make the transaction; here
 * a data item is its small header (signature type, signature, owner, tags) kept in memory and its
 * data read again from the blob store each time the bundle is streamed:
 *
 * - signing reads the data once: the ANS-104 deep hash needs only its length and SHA-384;
 * - the bundle (32-byte item count, a 32-byte size and 32-byte id per item, then the items) is a
 *   stream that checks each item's data against the SHA-384 that was signed, so bytes that
 *   changed between two reads stop the stream instead of reaching the network.
 */
import crypto from 'node:crypto';
import { type ArweaveSigner, createData } from 'arbundles';

export interface SignedItem {
  /** base64url of SHA-256(signature), as gateways name the item. */
  id: string;
  rawId: Buffer;
  /** Everything before the data: its length plus `dataSize` is the item's size. */
  header: Buffer;
  dataSize: number;
  /** SHA-384 of the data the signature covers. */
  dataSha384: Buffer;
}

/** The item's data did not match what was signed when it was read again. */
export class ItemDataChangedError extends Error {}

/**
 * Signs a data item with `signer` over `data` (read here once, to its end). The header is
 * arbundles' own (createData over no data), so its layout and tag encoding are the library's.
 */
export async function signDataItem(signer: ArweaveSigner, tags: { name: string; value: string }[], data: AsyncIterable<Uint8Array>): Promise<SignedItem> {
  const { dataSize, dataSha384 } = await measure(data);
  const unsigned = createData(new Uint8Array(0), signer, { tags });
  const message = deepHashList([
    Buffer.from('dataitem'),
    Buffer.from('1'),
    Buffer.from(String(unsigned.signatureType)),
    unsigned.rawOwner,
    unsigned.rawTarget,
    unsigned.rawAnchor,
    unsigned.rawTags,
    blobHashOf(dataSize, dataSha384),
  ]);
  const signature = Buffer.from(await signer.sign(message));
  await unsigned.setSignature(signature);
  const rawId = crypto.createHash('sha256').update(signature).digest();
  return { id: rawId.toString('base64url'), rawId, header: Buffer.from(unsigned.getRaw()), dataSize, dataSha384 };
}

/** The size of the bundle `bundleStream` makes of `items`. */
export function bundleSize(items: readonly SignedItem[]): number {
  return 32 + 64 * items.length + items.reduce((sum, item) => sum + item.header.length + item.dataSize, 0);
}

/**
 * The ANS-104 bundle of `items`, each item's data from `dataOf(index)` (a fresh read each time).
 * Throws ItemDataChangedError, before the end of the item, when the data is not what was signed.
 */
export async function* bundleStream(items: readonly SignedItem[], dataOf: (index: number) => AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  const table = Buffer.alloc(32 + 64 * items.length);
  writeLong32(table, 0, items.length);
  for (const [index, item] of items.entries()) {
    writeLong32(table, 32 + 64 * index, item.header.length + item.dataSize);
    item.rawId.copy(table, 64 + 64 * index);
  }
  yield table;
  for (const [index, item] of items.entries()) {
    yield item.header;
    const hash = crypto.createHash('sha384');
    let size = 0;
    for await (const piece of dataOf(index)) {
      size += piece.length;
      if (size > item.dataSize) throw new ItemDataChangedError(`Data item ${item.id} grew`);
      hash.update(piece);
      // The last piece is held back until the whole item is checked.
      if (size === item.dataSize) {
        if (!hash.digest().equals(item.dataSha384)) throw new ItemDataChangedError(`Data item ${item.id} changed`);
      }
      yield Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    }
    if (size !== item.dataSize) throw new ItemDataChangedError(`Data item ${item.id} shrank`);
  }
}

async function measure(data: AsyncIterable<Uint8Array>): Promise<{ dataSize: number; dataSha384: Buffer }> {
  const hash = crypto.createHash('sha384');
  let dataSize = 0;
  for await (const piece of data) {
    dataSize += piece.length;
    hash.update(piece);
  }
  return { dataSize, dataSha384: hash.digest() };
}

const sha384 = (...parts: Uint8Array[]): Buffer => {
  const hash = crypto.createHash('sha384');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** The ANS-104 (and arweave-js) deep hash of a blob, from its size and SHA-384. */
function blobHashOf(size: number, dataSha384: Buffer): Buffer {
  return sha384(sha384(Buffer.from(`blob${size}`)), dataSha384);
}

/** The deep hash of a list whose last element is already a blob hash (the data's). */
function deepHashList(parts: Buffer[]): Buffer {
  const last = parts[parts.length - 1]!;
  let acc = sha384(Buffer.from(`list${parts.length}`));
  for (const part of parts.slice(0, -1)) acc = sha384(acc, blobHashOf(part.length, sha384(part)));
  return sha384(acc, last);
}

/** ANS-104's 32-byte little-endian integer (sizes stay below 2^48). */
function writeLong32(target: Buffer, offset: number, value: number): void {
  target.writeUIntLE(value, offset, 6);
}
