/**
 * Streamed ANS-104 items and bundles, checked by arbundles itself (the library gateways and
 * bundlers use): signatures verify, ids, tags and data read back, and bytes that change between
 * the read that was signed and the read into the bundle never make a complete item.
 */
import crypto from 'node:crypto';
import { ArweaveSigner, Bundle, createData, DataItem } from 'arbundles';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JWKInterface } from './arweaveClient';
import { bundleSize, bundleStream, ItemDataChangedError, signDataItem } from './dataItems';

let signer: ArweaveSigner;

beforeAll(() => {
  const jwk = crypto.generateKeyPairSync('rsa', { modulusLength: 4096, publicExponent: 65537 }).privateKey.export({ format: 'jwk' });
  signer = new ArweaveSigner(jwk as unknown as JWKInterface);
});

async function* inPieces(data: Buffer, pieceSize: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.length; at += pieceSize) yield data.subarray(at, at + pieceSize);
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

describe('streamed data items', () => {
  it('a bundle streamed from pieces verifies with arbundles, with each item’s id, tags and data', async () => {
    const datas = [crypto.randomBytes(1), crypto.randomBytes(300_000), crypto.randomBytes(70_001)];
    const tags = [[{ name: 'App-Name', value: 'Cairn' }], [{ name: 'App-Name', value: 'Cairn' }, { name: 'File-Name', value: 'é <b>.txt' }], []];
    const items = [];
    for (const [index, data] of datas.entries()) items.push(await signDataItem(signer, tags[index]!, inPieces(data, 4_096)));

    const raw = await collect(bundleStream(items, (index) => inPieces(datas[index]!, 65_536)));
    expect(raw.length).toBe(bundleSize(items));
    const bundle = new Bundle(raw);
    expect(await bundle.verify()).toBe(true);
    expect(bundle.getIds()).toEqual(items.map((item) => item.id));
    for (const [index, data] of datas.entries()) {
      const item = bundle.get(index);
      expect(Buffer.from(item.rawData).equals(data)).toBe(true);
      expect(item.tags).toEqual(tags[index]);
      expect(await DataItem.verify(item.getRaw())).toBe(true);
    }
  });

  it('the header is the one arbundles’ createData writes for the same signer and tags', async () => {
    const data = crypto.randomBytes(5_000);
    const tags = [{ name: 'App-Name', value: 'Cairn' }, { name: 'Content-Type', value: 'text/plain' }];
    const item = await signDataItem(signer, tags, inPieces(data, 1_000));
    const theirs = createData(data, signer, { tags });
    const signatureEnd = 2 + signer.signatureLength;
    // Everything but the (randomised, RSA-PSS) signature is byte for byte the library's.
    expect(item.header.subarray(0, 2).equals(theirs.getRaw().subarray(0, 2))).toBe(true);
    expect(item.header.subarray(signatureEnd).equals(theirs.getRaw().subarray(signatureEnd, item.header.length))).toBe(true);
    expect(item.header.length + data.length).toBe(theirs.getRaw().length);
  });

  it('data that changed since it was signed stops the bundle before that item is complete', async () => {
    const data = crypto.randomBytes(10_000);
    const item = await signDataItem(signer, [], inPieces(data, 1_000));
    const changed = Buffer.from(data);
    changed[9_999] = changed[9_999]! ^ 1;
    const written: Buffer[] = [];
    await expect(
      (async () => {
        for await (const part of bundleStream([item], () => inPieces(changed, 1_000))) written.push(part);
      })(),
    ).rejects.toThrow(ItemDataChangedError);
    expect(Buffer.concat(written).length).toBeLessThan(bundleSize([item]));
    // Longer or shorter data is refused as well.
    await expect(collect(bundleStream([item], () => inPieces(Buffer.concat([data, Buffer.from([0])]), 1_000)))).rejects.toThrow(ItemDataChangedError);
    await expect(collect(bundleStream([item], () => inPieces(data.subarray(1), 1_000)))).rejects.toThrow(ItemDataChangedError);
  });
});
