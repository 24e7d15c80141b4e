/**
 * Atomic NFTs on a real arlocal gateway (docs/SYNC_SPEC.md R137-R140): a single fractional NFT
 * with a custom UDL and the marketplace index, and a collection of three with the default UDL, a
 * thumbnail and a banner, relayed to confirmation and read back from the gateway: every tag of
 * every item (GraphQL), the items' data (the asset's bytes; the collection's JSON listing its
 * NFTs' item ids in order), the statuses (REGISTERED) and the chain route.
 */
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import {
  collectionItemTags,
  DEFAULT_UDL,
  type NftCollectionMetadata,
  NftChainStates,
  nftItemTags,
  type NftMetadata,
  UDL_LICENSE_ID,
  type Udl,
} from '../../src/protocol/nfts';
import { fileItemTags } from '../../src/protocol/vaultHistory';
import type { FileVersion } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { suiteGateway } from '../testing/arlocal';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { clear, expectAccepted, makeFile, newId, type StoredFile, VaultActor } from '../testing/vaults';

/** History runs (R84) stay out of these bundles: a settle time no test reaches. */
const NO_HISTORY_RUNS = 3_600_000;
const OWNER = 'O'.repeat(43);
const CREATOR = 'C'.repeat(43);
const PAYEE = 'P'.repeat(43);
/** U millionths per MiB a confirmed upload earns its uploader (R107): REGISTERED counts as confirmed. */
const RATE = 500_000;
const MIB = 1024 * 1024;

const CUSTOM_UDL: Udl = {
  licenseFee: { type: 'One-Time', value: 5 },
  derivation: { type: 'Allowed-With-Credit' },
  commercialUse: { type: 'Allowed-With-RevenueShare', value: 25 },
  dataModelTraining: { type: 'Allowed-With-Fee', fee: { type: 'Monthly', value: 3 } },
  unknownUsageRights: 'Excluded',
  currency: 'AR',
  expires: 10,
  paymentAddress: PAYEE,
  paymentMode: 'Global-Distribution',
};

type Tag = { name: string; value: string };

describeEachDatabase('atomic NFTs on the gateway', (env) => {
  let app: FastifyInstance;
  let api: ApiClient;

  const suite = suiteGateway('cairn-nft-arlocal-', async () => {
    app = await env.buildApp({
      config: { tokenRewardPerMiB: RATE },
      arweave: { gatewayUrl: suite.gateway.url, wallet: suite.wallet, startRelay: false, relayOptions: { historySettleMs: NO_HISTORY_RUNS, intervalMs: 1, backoffBaseMs: 1, backoffMaxMs: 5 } },
    });
    api = new ApiClient(app);
  });

  async function rowsOf(vaultId: string) {
    return env.db.selectFrom('storage_transactions').selectAll().where('vault_id', '=', vaultId).orderBy('created_at').orderBy('id').execute();
  }

  /** Passes and mined blocks until every row of the vault is final. */
  async function settle(vaultId: string): Promise<void> {
    const relay = app.arweaveRelay;
    if (!relay) throw new Error('No relay');
    for (let round = 0; round < 15; round += 1) {
      await relay.runOnce();
      if ((await rowsOf(vaultId)).every((r) => ['COMMITTED', 'REGISTERED', 'REJECTED', 'BLOCKED'].includes(r.status))) return;
      await suite.gateway.mine();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`Not settled: ${JSON.stringify((await rowsOf(vaultId)).map((r) => [r.kind, r.status]))}`);
  }

  /** Every tag of an item, in order, as the gateway's GraphQL lists them. */
  async function gatewayTags(id: string): Promise<Tag[]> {
    const response = await fetch(`${suite.gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ transaction(id: "${id}") { tags { name value } } }` }),
    });
    const body = (await response.json()) as { data: { transaction: { tags: Tag[] } | null } };
    return body.data.transaction?.tags ?? [];
  }

  async function gatewayData(id: string): Promise<Buffer> {
    const response = await fetch(`${suite.gateway.url}/${id}`);
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  function tagValue(tags: Tag[], name: string): string | undefined {
    return tags.find((t) => t.name === name)?.value;
  }

  async function upload(owner: VaultActor, vaultId: string, file: StoredFile, mimeType: string): Promise<FileVersion> {
    const version = await owner.upload(vaultId, file, { isPublic: true });
    return { ...version, mimeType: clear(mimeType) };
  }

  it('[R137-R140] a fractional NFT with a custom UDL and a collection of three with the default UDL are REGISTERED on the gateway with their tags and data', async () => {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isPublic: true, isCloud: false });

    // A single NFT: fractional (5 parts), custom UDL, indexed by the marketplace.
    const singleFile = makeFile(2_000, { isPublic: true });
    const singleVersion = await upload(owner, vaultId, singleFile, 'image/png');
    const singleId = newId();
    const singleMetadata: NftMetadata = {
      name: 'Dawn over the bay',
      description: 'First light',
      topics: ['sea', 'morning'],
      types: ['image', 'meme'],
      owner: OWNER,
      creator: CREATOR,
      fractionParts: 5,
    };
    expectAccepted(await owner.apply(vaultId, singleId, { type: 'nft.mint', collectionId: null, metadata: singleMetadata, udl: CUSTOM_UDL, ucm: true, version: singleVersion }));

    // A collection of three, the default UDL, a thumbnail and a banner.
    const collectionId = newId();
    const members: { id: string; file: StoredFile; version: FileVersion; metadata: NftMetadata }[] = [];
    for (const index of [1, 2, 3]) {
      const file = makeFile(500 + index * 100, { isPublic: true });
      const version = await upload(owner, vaultId, file, 'text/plain');
      const metadata: NftMetadata = { name: `Poem ${index}`, description: '', topics: [], types: ['document'], owner: OWNER, creator: OWNER, fractionParts: null };
      const id = newId();
      expectAccepted(await owner.apply(vaultId, id, { type: 'nft.mint', collectionId, metadata, udl: DEFAULT_UDL, ucm: false, version }));
      members.push({ id, file, version, metadata });
    }
    const thumbnail = await upload(owner, vaultId, makeFile(64, { isPublic: true }), 'image/png');
    const banner = await upload(owner, vaultId, makeFile(128, { isPublic: true }), 'image/png');
    const collectionMetadata: NftCollectionMetadata = { name: 'Poems', description: 'Three poems', topics: ['verse'], types: ['document'], owner: OWNER, creator: OWNER };
    // Listed in another order than minted: the collection's data follows `nftIds`.
    const order = [members[2]!, members[0]!, members[1]!];
    expectAccepted(
      await owner.apply(vaultId, collectionId, {
        type: 'nft.collection',
        metadata: collectionMetadata,
        udl: DEFAULT_UDL,
        ucm: false,
        nftIds: order.map((m) => m.id),
        thumbnail,
        banner,
      }),
    );

    await settle(vaultId);
    const rows = await rowsOf(vaultId);
    const rowOf = (fileId: string, kind: string) => {
      const found = rows.find((r) => r.file_id === fileId && r.kind === kind);
      if (!found) throw new Error(`No ${kind} row of ${fileId}`);
      return found;
    };
    // R139: NFTs and the collection end REGISTERED; the thumbnail and banner are versions, COMMITTED.
    expect(rows.map((r) => [r.kind, r.status]).sort()).toEqual(
      [...Array.from({ length: 4 }, () => ['nft', 'REGISTERED']), ['collection', 'REGISTERED'], ['version', 'COMMITTED'], ['version', 'COMMITTED']].sort(),
    );

    // The single NFT: the asset's bytes, the atomic asset tags then the Cairn item tags.
    const single = rowOf(singleId, 'nft');
    expect((await gatewayData(single.data_item_id!)).equals(Buffer.concat(singleFile.chunks))).toBe(true);
    const singleTags = await gatewayTags(single.data_item_id!);
    expect(singleTags).toEqual([
      ...nftItemTags({ nftId: singleId, collectionId: null, metadata: singleMetadata, udl: CUSTOM_UDL, ucm: true, contentType: 'image/png' }),
      ...fileItemTags(vaultId, singleVersion.blobId),
    ]);
    // What a marketplace reads, spelled out (not only through the builder the server uses).
    expect(singleTags.slice(0, 4)).toEqual([
      { name: 'Content-Type', value: 'image/png' },
      { name: 'App-Name', value: 'SmartWeaveContract' },
      { name: 'App-Version', value: '0.3.0' },
      { name: 'Contract-Src', value: 'Of9pi--Gj7hCTawhgxOwbuWnFI1h24TTgO5pw8ENJNQ' },
    ]);
    expect(JSON.parse(tagValue(singleTags, 'Init-State')!)).toEqual({
      ticker: 'ATOMIC',
      name: 'Dawn over the bay',
      description: 'First light',
      owner: OWNER,
      creator: CREATOR,
      balances: { [OWNER]: 5 },
      claimable: [],
    });
    expect(singleTags.filter((t) => t.name === 'Type').map((t) => t.value)).toEqual(['image', 'meme']);
    expect(tagValue(singleTags, 'Topic:sea')).toBe('sea');
    expect(tagValue(singleTags, 'Title')).toBe('Dawn over the bay');
    expect(singleTags.filter((t) => ['License', 'Access-Fee', 'Derivation', 'Commercial-Use', 'Data-Model-Training', 'Unknown-Usage-Rights', 'Currency', 'Expires', 'Payment-Address', 'Payment-Mode'].includes(t.name))).toEqual([
      { name: 'License', value: UDL_LICENSE_ID },
      { name: 'Access-Fee', value: 'One-Time-5' },
      { name: 'Derivation', value: 'Allowed-With-Credit' },
      { name: 'Commercial-Use', value: 'Allowed-With-RevenueShare-25%' },
      { name: 'Data-Model-Training', value: 'Allowed-With-Fee-Monthly-3' },
      { name: 'Unknown-Usage-Rights', value: 'Excluded' },
      { name: 'Currency', value: 'AR' },
      { name: 'Expires', value: '10' },
      { name: 'Payment-Address', value: PAYEE },
      { name: 'Payment-Mode', value: 'Global-Distribution' },
    ]);
    expect(tagValue(singleTags, 'Indexed-By')).toBe('ucm');
    // R107 with R139: a REGISTERED mint is a confirmed upload: its minter is rewarded as for a version.
    const rewards = await env.db.selectFrom('ledger_entries').selectAll().where('reason', '=', single.id).execute();
    expect(rewards).toHaveLength(1);
    expect(rewards[0]).toMatchObject({ kind: 'reward', to_address: owner.user.address, amount: String((2_000n * BigInt(RATE)) / BigInt(MIB)) });

    // The collection's NFTs: their bytes, one token each, the default UDL (License alone), no index.
    for (const member of members) {
      const row = rowOf(member.id, 'nft');
      expect((await gatewayData(row.data_item_id!)).equals(Buffer.concat(member.file.chunks))).toBe(true);
      const tags = await gatewayTags(row.data_item_id!);
      expect(tags).toEqual([
        ...nftItemTags({ nftId: member.id, collectionId, metadata: member.metadata, udl: DEFAULT_UDL, ucm: false, contentType: 'text/plain' }),
        ...fileItemTags(vaultId, member.version.blobId),
      ]);
      expect(JSON.parse(tagValue(tags, 'Init-State')!)).toMatchObject({ collection: collectionId, balances: { [OWNER]: 1 } });
      expect(tagValue(tags, 'Collection-Code')).toBe(collectionId);
      expect(tags.filter((t) => t.name === 'License' || t.name === 'Access-Fee' || t.name === 'Derivation')).toEqual([{ name: 'License', value: UDL_LICENSE_ID }]);
      expect(tagValue(tags, 'Indexed-By')).toBeUndefined();
    }

    // The collection: its JSON lists the NFTs' item ids in `nftIds` order; thumbnail and banner by item id.
    const collection = rowOf(collectionId, 'collection');
    // Signed only once its NFTs had item ids, which they get when their bundle is made: a later bundle.
    expect(order.map((m) => rowOf(m.id, 'nft').tx_id)).not.toContain(collection.tx_id);
    const itemIds = order.map((m) => rowOf(m.id, 'nft').data_item_id!);
    expect(JSON.parse((await gatewayData(collection.data_item_id!)).toString('utf8'))).toEqual({ type: 'Collection', items: itemIds });
    const thumbnailItem = rows.find((r) => r.blob_id === thumbnail.blobId)!.data_item_id!;
    const bannerItem = rows.find((r) => r.blob_id === banner.blobId)!.data_item_id!;
    const collectionTags = await gatewayTags(collection.data_item_id!);
    expect(collectionTags).toEqual(
      collectionItemTags({ collectionId, metadata: collectionMetadata, udl: DEFAULT_UDL, ucm: false, thumbnailItemId: thumbnailItem, bannerItemId: bannerItem }),
    );
    expect(tagValue(collectionTags, 'Data-Protocol')).toBe('Collection');
    expect(tagValue(collectionTags, 'Content-Type')).toBe('application/json');
    expect(collectionTags.filter((t) => t.name === 'Type').map((t) => t.value)).toEqual(['Document']);
    expect(tagValue(collectionTags, 'Thumbnail')).toBe(thumbnailItem);
    expect(tagValue(collectionTags, 'Banner')).toBe(bannerItem);
    expect(tagValue(collectionTags, 'License')).toBe(UDL_LICENSE_ID);
    expect((await gatewayData(thumbnailItem)).length).toBe(64);

    // R140: the chain route, for members and the public alike.
    const expected = {
      items: [singleId, ...members.map((m) => m.id), collectionId].map((objectId) => {
        const row = rows.find((r) => r.file_id === objectId && (r.kind === 'nft' || r.kind === 'collection'))!;
        return { objectId, kind: row.kind, dataItemId: row.data_item_id, txId: row.tx_id, status: 'REGISTERED' };
      }),
    };
    const member = await api.get(`/api/vaults/${vaultId}/nfts/chain`, { token: owner.token });
    expectStatus(member, 200);
    expect(NftChainStates.parse(member.body)).toEqual(expected);
    const open = await api.get(`/api/public/vaults/${vaultId}/nfts/chain`);
    expectStatus(open, 200);
    expect(NftChainStates.parse(open.body)).toEqual(expected);
  });

  /** A collection of `count` NFTs minted by a new owner; answers the vault and the ids. */
  async function mintedCollection(count: number): Promise<{ vaultId: string; collectionId: string; nftIds: string[] }> {
    const owner = await VaultActor.create(env, api);
    const vaultId = await owner.createVault({ isPublic: true, isCloud: false });
    const collectionId = newId();
    const nftIds: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const version = await upload(owner, vaultId, makeFile(300, { isPublic: true }), 'text/plain');
      const metadata: NftMetadata = { name: `Item ${index}`, description: '', topics: [], types: ['other'], owner: OWNER, creator: OWNER, fractionParts: null };
      const id = newId();
      expectAccepted(await owner.apply(vaultId, id, { type: 'nft.mint', collectionId, metadata, udl: null, ucm: false, version }));
      nftIds.push(id);
    }
    const metadata: NftCollectionMetadata = { name: 'Items', description: '', topics: [], types: ['other'], owner: OWNER, creator: OWNER };
    expectAccepted(await owner.apply(vaultId, collectionId, { type: 'nft.collection', metadata, udl: null, ucm: false, nftIds, thumbnail: null, banner: null }));
    return { vaultId, collectionId, nftIds };
  }

  it('[R137] a collection waits, SCHEDULED, until its NFTs have item ids, then is bundled after them', async () => {
    const { vaultId, collectionId } = await mintedCollection(2);
    const relay = app.arweaveRelay!;
    await relay.runOnce(['bundle']);
    const first = await rowsOf(vaultId);
    expect(first.filter((r) => r.kind === 'nft').map((r) => r.status)).toEqual(['BUNDLED', 'BUNDLED']);
    expect(first.find((r) => r.file_id === collectionId)).toMatchObject({ kind: 'collection', status: 'SCHEDULED', data_item_id: null, attempts: 0 });
    await relay.runOnce(['bundle']);
    const second = (await rowsOf(vaultId)).find((r) => r.file_id === collectionId)!;
    expect(second.status).toBe('BUNDLED');
    expect(first.filter((r) => r.kind === 'nft').map((r) => r.tx_id)).not.toContain(second.tx_id);
  });

  it('[R137] a collection one of whose NFTs can never be stored is BLOCKED rather than left waiting', async () => {
    const { vaultId, collectionId, nftIds } = await mintedCollection(2);
    // Its bytes gone (the relay found a chunk missing): BLOCKED, never an item id.
    await env.db.updateTable('storage_transactions').set({ status: 'BLOCKED' }).where('vault_id', '=', vaultId).where('file_id', '=', nftIds[1]!).execute();
    await app.arweaveRelay!.runOnce(['bundle']);
    expect((await rowsOf(vaultId)).find((r) => r.file_id === collectionId)).toMatchObject({ status: 'BLOCKED', data_item_id: null });
  });
});
