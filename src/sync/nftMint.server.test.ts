/**
 * The mint action against the real server, a real arlocal gateway and the real device path
 * (crypto and transfer APIs, the upload queue): a single NFT and a collection are uploaded, their
 * operations queued in order and accepted, listed by R140 and relayed with the asset's bytes; a
 * cancel during the uploads signs nothing (docs/SYNC_SPEC.md R136, R137, R140, R141).
 */
import { describe, expect, it } from 'vitest';
import { collectionMetadataOf, EMPTY_METADATA_FORM, metadataOf, nameWithoutExtension, setFractional } from '../domain/nftMintRules';
import { DEFAULT_UDL, NftChainStates } from '../protocol/nfts';
import { MintCancelled, mintNfts, type MintProgress } from './nftMint';
import { gatewayServerSuite } from './testing/gatewayServer';
import * as actions from './vaultActions';

const server = gatewayServerSuite('mint');
const { device } = server;

function formFor(name: string) {
  return { ...EMPTY_METADATA_FORM, name, description: 'Taken at the ridge', owner: server.user.address, creator: server.user.address, types: ['image' as const], topics: ['cairns'] };
}

/** Relay passes and mined blocks until every NFT row of the vault is REGISTERED (R139). */
async function registered(vaultId: string): Promise<NftChainStates['items']> {
  for (let round = 0; round < 12; round += 1) {
    await server.app.arweaveRelay!.runOnce();
    const { items } = await server.api().get(`/vaults/${vaultId}/nfts/chain`, NftChainStates);
    if (items.length > 0 && items.every((item) => item.status === 'REGISTERED')) return items;
    await server.gateway.mine();
  }
  throw new Error('The NFTs never reached the network');
}

describe('[R136][R141] minting from the app', () => {
  let vaultId = '';

  it('a cancel during the uploads aborts the mint and signs nothing', async () => {
    const { db } = await device();
    vaultId = await actions.createVault({ title: 'Ridge prints', description: '', tags: [], terms: '', isPublic: true, isCloud: false });
    const controller = new AbortController();
    const big = new File([new Uint8Array(3 * 1024 * 1024)], 'panorama.tif', { type: 'image/tiff', lastModified: 3 });
    const minting = mintNfts(
      { vaultId, assets: [{ file: big, metadata: metadataOf(formFor('Panorama'))! }], udl: DEFAULT_UDL, ucm: false },
      { pollMs: 5, signal: controller.signal, onProgress: () => controller.abort() },
    );
    await expect(minting).rejects.toBeInstanceOf(MintCancelled);
    // Nothing signed or queued, the upload is cancelled (its reservation released), and no file appeared.
    expect(await db.outbox.filter((record) => record.vaultId === vaultId).count()).toBe(0);
    expect((await db.uploads.toArray()).map((upload) => upload.state)).toEqual(['cancelled']);
    expect(await db.nodes.filter((n) => n.vaultId === vaultId && n.kind === 'file').count()).toBe(0);
  }, 60_000);

  it('mints a single NFT: the blob goes up, the signed nft.mint is accepted, and the gateway serves the asset', async () => {
    const { db } = await device();
    const bytes = Buffer.from('PNG-ish bytes of a sunset over the ridge\n'.repeat(300));
    const metadata = metadataOf(setFractional(formFor('Sunset'), true))!;
    const progress: MintProgress[] = [];
    const result = await mintNfts(
      { vaultId, assets: [{ file: new File([bytes], 'sunset.png', { type: 'image/png', lastModified: 1 }), metadata }], udl: DEFAULT_UDL, ucm: true },
      { onProgress: (p) => progress.push(p), pollMs: 20 },
    );
    expect(result.collectionId).toBeNull();
    expect(result.nftIds).toHaveLength(1);
    expect(progress.at(-1)).toEqual({ percent: 100, phase: 'finalising' });
    expect(progress.filter((p) => p.phase === 'uploading').every((p) => p.percent < 100)).toBe(true);
    // Accepted: nothing of the mint is left in the outbox, and no file appeared in the vault's tree.
    expect(await db.outbox.count()).toBe(0);
    expect(await db.nodes.where('accountId').equals(server.userId).filter((n) => n.vaultId === vaultId && n.kind === 'file').count()).toBe(0);

    const [item] = await registered(vaultId);
    expect(item).toMatchObject({ objectId: result.nftIds[0], kind: 'nft', status: 'REGISTERED' });
    const served = await fetch(`${server.gateway.url}/${item!.dataItemId}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  }, 180_000);

  it('mints a collection: each NFT named after its file, then the collection over them in order', async () => {
    const files = ['north cairn.jpg', 'south cairn.jpg'].map((name, i) => new File([Buffer.from(`${name}\n`.repeat(200 + i))], name, { type: 'image/jpeg', lastModified: 2 }));
    const thumbnail = new File([Buffer.from('thumb'.repeat(50))], 'thumb.png', { type: 'image/png', lastModified: 2 });
    const form = formFor('Cairns of the ridge');
    const result = await mintNfts(
      {
        vaultId,
        assets: files.map((file) => ({ file, metadata: metadataOf(form, nameWithoutExtension(file.name))! })),
        udl: null,
        ucm: false,
        collection: { metadata: collectionMetadataOf(form)!, thumbnail, banner: null },
      },
      { pollMs: 20 },
    );
    expect(result.collectionId).not.toBeNull();
    expect(result.nftIds).toHaveLength(2);
    const items = await registered(vaultId);
    expect(items.filter((item) => item.kind === 'nft').map((item) => item.objectId)).toEqual(expect.arrayContaining(result.nftIds));
    expect(items.find((item) => item.kind === 'collection')?.objectId).toBe(result.collectionId);
  }, 180_000);

});
