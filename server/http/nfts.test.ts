/**
 * Atomic NFTs on the server (spec 002 sections 6-9; docs/SYNC_SPEC.md R136, R137, R140): who may
 * mint and where, the schema's limits at the edge, a collection's rules, object ids used once,
 * the storage rows a mint schedules, and the chain and chunk routes. Every refusal changes
 * nothing. Roles against every actor are in vaultRoles.test.ts; the items on the gateway in
 * server/arweave/nfts.relay.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collectionItemDataSize, type NftCollectionMetadata, type NftMetadata, NftChainStates, nftItemTags, type Udl } from '../../src/protocol/nfts';
import { type FileVersion, type OperationBody, PullResponse } from '../../src/protocol/vaults';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { clear, countVaultRows, expectAccepted, expectRejected, insertMembership, makeFile, newId, sealed, VaultActor } from '../testing/vaults';

const OWNER_ADDRESS = 'o'.repeat(43);

export function nftMetadata(patch: Partial<NftMetadata> = {}): NftMetadata {
  return { name: 'Sunrise', description: 'A photo', topics: ['sky'], types: ['image'], owner: OWNER_ADDRESS, creator: OWNER_ADDRESS, fractionParts: null, ...patch };
}

function collectionMetadata(patch: Partial<NftCollectionMetadata> = {}): NftCollectionMetadata {
  return { name: 'Skies', description: 'Three skies', topics: [], types: ['image'], owner: OWNER_ADDRESS, creator: OWNER_ADDRESS, ...patch };
}

function mintBody(version: FileVersion, options: { collectionId?: string | null; metadata?: NftMetadata; udl?: Udl | null } = {}): OperationBody {
  return { type: 'nft.mint', collectionId: options.collectionId ?? null, metadata: options.metadata ?? nftMetadata(), udl: options.udl ?? null, ucm: false, version };
}

function collectionBody(nftIds: string[], thumbnail: FileVersion | null = null): OperationBody {
  return { type: 'nft.collection', metadata: collectionMetadata(), udl: null, ucm: true, nftIds, thumbnail, banner: null };
}

describeEachDatabase('nfts', (env) => {
  let api: ApiClient;
  let owner: VaultActor;
  let contributor: VaultActor;
  let viewer: VaultActor;

  beforeAll(async () => {
    api = new ApiClient(await env.buildApp());
    owner = await VaultActor.create(env, api);
    contributor = await VaultActor.create(env, api);
    viewer = await VaultActor.create(env, api);
  });

  /** A public permanent vault of the owner, with the contributor and the viewer as members. */
  async function nftVault(options: { isPublic?: boolean; isCloud?: boolean } = {}): Promise<string> {
    const vaultId = await owner.createVault({ isPublic: options.isPublic ?? true, isCloud: options.isCloud ?? false });
    await insertMembership(env.db, vaultId, contributor.userId, 'CONTRIBUTOR');
    await insertMembership(env.db, vaultId, viewer.userId, 'VIEWER');
    return vaultId;
  }

  function upload(by: VaultActor, vaultId: string, size = 200, isPublic = true): Promise<FileVersion> {
    return by.upload(vaultId, makeFile(size, { isPublic }), { isPublic });
  }

  async function mint(by: VaultActor, vaultId: string, collectionId: string | null = null): Promise<string> {
    const nftId = newId();
    expectAccepted(await by.apply(vaultId, nftId, mintBody(await upload(by, vaultId), { collectionId })));
    return nftId;
  }

  /** The refusal leaves every vault table as it was. */
  async function expectNothingStored(attempt: () => Promise<void>): Promise<void> {
    const before = await countVaultRows(env.db);
    await attempt();
    expect(await countVaultRows(env.db)).toEqual(before);
  }

  async function nftRows(vaultId: string) {
    return env.db.selectFrom('storage_transactions').selectAll().where('vault_id', '=', vaultId).orderBy('created_at').orderBy('id').execute();
  }

  describe('who mints, and where (R136)', () => {
    it('the owner and a contributor mint; each mint schedules an nft row with its item tags', async () => {
      const vaultId = await nftVault();
      const version = await upload(owner, vaultId, 300);
      const nftId = newId();
      expectAccepted(await owner.apply(vaultId, nftId, mintBody(version)));
      const contributorNft = await mint(contributor, vaultId);
      const rows = await nftRows(vaultId);
      expect(rows.map((r) => [r.kind, r.file_id, r.status])).toEqual([
        ['nft', nftId, 'SCHEDULED'],
        ['nft', contributorNft, 'SCHEDULED'],
      ]);
      const [row] = rows;
      expect(row!.blob_id).toBe(version.blobId);
      expect(Number(row!.size)).toBe(300);
      expect(JSON.parse(row!.nft_plan!)).toEqual({
        kind: 'nft',
        tags: nftItemTags({ nftId, collectionId: null, metadata: nftMetadata(), udl: null, ucm: false, contentType: 'text/plain' }),
      });
      // Committed and counted like a file version: the vault's size grew by the asset's bytes.
      const blob = await env.db.selectFrom('blobs').select(['status', 'node_id']).where('id', '=', version.blobId).executeTakeFirstOrThrow();
      expect(blob).toEqual({ status: 'committed', node_id: nftId });
    });

    it('a viewer is refused and nothing is stored', async () => {
      const vaultId = await nftVault();
      const version = await upload(owner, vaultId);
      await expectNothingStored(async () => expectRejected(await viewer.apply(vaultId, newId(), mintBody(version)), 'FORBIDDEN'));
    });

    it('an archived vault refuses a mint', async () => {
      const vaultId = await nftVault();
      const version = await upload(owner, vaultId);
      expectAccepted(await owner.apply(vaultId, vaultId, { type: 'vault.archive' }));
      await expectNothingStored(async () => expectRejected(await owner.apply(vaultId, newId(), mintBody(version)), 'VAULT_ARCHIVED'));
    });

    it('a public cloud vault refuses a mint', async () => {
      const vaultId = await nftVault({ isCloud: true });
      const version = await upload(owner, vaultId);
      await expectNothingStored(async () => expectRejected(await owner.apply(vaultId, newId(), mintBody(version)), 'INVALID_OPERATION'));
    });

    it('a private vault refuses a mint, sealed or clear', async () => {
      const vaultId = await nftVault({ isPublic: false });
      const sealedVersion = await upload(owner, vaultId, 200, false);
      await expectNothingStored(async () => {
        // A private vault mints nothing (R136), and a clear version is refused there as for any file.
        expectRejected(await owner.apply(vaultId, newId(), mintBody(sealedVersion)), 'INVALID_OPERATION');
        expectRejected(await owner.apply(vaultId, newId(), mintBody({ ...sealedVersion, fileKey: undefined, mimeType: clear('image/png') })), 'VALIDATION_FAILED');
      });
    });

    it('a version with a file key or a sealed MIME type is refused', async () => {
      const vaultId = await nftVault();
      const version = await upload(owner, vaultId);
      await expectNothingStored(async () => {
        expectRejected(await owner.apply(vaultId, newId(), mintBody({ ...version, fileKey: sealed() })), 'VALIDATION_FAILED');
        expectRejected(await owner.apply(vaultId, newId(), mintBody({ ...version, mimeType: sealed() })), 'VALIDATION_FAILED');
      });
    });

    it('an object id is used once: not a node, the vault, another NFT or a collection', async () => {
      const vaultId = await nftVault();
      const nftId = await mint(owner, vaultId);
      const folderId = newId();
      expectAccepted(await owner.apply(vaultId, folderId, { type: 'folder.create', parentId: null, name: clear('Folder') }));
      for (const used of [nftId, folderId, vaultId]) {
        const version = await upload(owner, vaultId);
        await expectNothingStored(async () => expectRejected(await owner.apply(vaultId, used, mintBody(version)), 'INVALID_OPERATION'));
      }
      const collectionId = newId();
      const inCollection = await mint(owner, vaultId, collectionId);
      expectAccepted(await owner.apply(vaultId, collectionId, collectionBody([inCollection])));
      const version = await upload(owner, vaultId);
      await expectNothingStored(async () => {
        expectRejected(await owner.apply(vaultId, collectionId, mintBody(version)), 'INVALID_OPERATION');
        // A mint into a collection already closed.
        expectRejected(await owner.apply(vaultId, newId(), mintBody(version, { collectionId })), 'INVALID_OPERATION');
      });
    });
  });

  describe('schema limits at the edge', () => {
    const cases: [string, (version: FileVersion) => OperationBody][] = [
      ['a name of 151 characters', (v) => mintBody(v, { metadata: nftMetadata({ name: 'n'.repeat(151) }) })],
      ['a description of 301 characters', (v) => mintBody(v, { metadata: nftMetadata({ description: 'd'.repeat(301) }) })],
      ['a fraction of 1', (v) => mintBody(v, { metadata: nftMetadata({ fractionParts: 1 }) })],
      ['a fraction of 101', (v) => mintBody(v, { metadata: nftMetadata({ fractionParts: 101 }) })],
      ['a bad owner address', (v) => mintBody(v, { metadata: nftMetadata({ owner: 'not-an-address' }) })],
      [
        'an access fee of 0',
        (v) =>
          mintBody(v, {
            udl: {
              licenseFee: { type: 'One-Time', value: 0 },
              derivation: { type: 'None' },
              commercialUse: { type: 'None' },
              dataModelTraining: { type: 'None' },
              unknownUsageRights: 'Included',
              currency: 'U',
              expires: null,
              paymentAddress: null,
              paymentMode: null,
            },
          }),
      ],
    ];
    for (const [what, body] of cases) {
      it(`${what}: 400 and nothing stored`, async () => {
        const vaultId = await nftVault();
        const version = await upload(owner, vaultId);
        const op = await owner.sign(vaultId, newId(), body(version));
        await expectNothingStored(async () => expectStatus(await owner.pushRaw([op]), 400));
      });
    }

    it('the limits themselves are accepted: 150 and 300 characters, fractions of 2 and 100', async () => {
      const vaultId = await nftVault();
      for (const metadata of [nftMetadata({ name: 'n'.repeat(150), description: 'd'.repeat(300), fractionParts: 2 }), nftMetadata({ fractionParts: 100 })]) {
        expectAccepted(await owner.apply(vaultId, newId(), mintBody(await upload(owner, vaultId), { metadata })));
      }
    });
  });

  describe('collections (R136, R137)', () => {
    it('a collection over its NFTs schedules its thumbnail row and a collection row naming them in order', async () => {
      const vaultId = await nftVault();
      const collectionId = newId();
      const first = await mint(owner, vaultId, collectionId);
      const second = await mint(contributor, vaultId, collectionId);
      const thumbnail = await upload(owner, vaultId, 90);
      expectAccepted(await owner.apply(vaultId, collectionId, collectionBody([second, first], thumbnail)));
      const rows = await nftRows(vaultId);
      const byFile = (fileId: string, kind: string) => rows.find((r) => r.file_id === fileId && r.kind === kind)!;
      const collectionRow = byFile(collectionId, 'collection');
      const thumbnailRow = byFile(collectionId, 'version');
      expect(thumbnailRow.blob_id).toBe(thumbnail.blobId);
      expect(collectionRow.blob_id).toBe('');
      expect(Number(collectionRow.size)).toBe(collectionItemDataSize(2));
      expect(JSON.parse(collectionRow.nft_plan!)).toMatchObject({
        kind: 'collection',
        collectionId,
        nftRowIds: [byFile(second, 'nft').id, byFile(first, 'nft').id],
        thumbnailRowId: thumbnailRow.id,
        bannerRowId: null,
      });
    });

    it('refuses an unknown NFT, an NFT of another collection, a missing NFT and one listed twice', async () => {
      const vaultId = await nftVault();
      const collectionId = newId();
      const otherCollection = newId();
      const a = await mint(owner, vaultId, collectionId);
      const b = await mint(owner, vaultId, collectionId);
      const other = await mint(owner, vaultId, otherCollection);
      const single = await mint(owner, vaultId);
      await expectNothingStored(async () => {
        for (const nftIds of [[a, b, newId()], [a, b, other], [a, b, single], [a], [a, b, a]]) {
          expectRejected(await owner.apply(vaultId, collectionId, collectionBody(nftIds)), 'INVALID_OPERATION');
        }
      });
      expectAccepted(await owner.apply(vaultId, collectionId, collectionBody([a, b])));
    });

    it('a viewer cannot close a collection', async () => {
      const vaultId = await nftVault();
      const collectionId = newId();
      const a = await mint(owner, vaultId, collectionId);
      await expectNothingStored(async () => expectRejected(await viewer.apply(vaultId, collectionId, collectionBody([a])), 'FORBIDDEN'));
    });
  });

  describe('routes (R140)', () => {
    it('the chain routes list the NFT and collection rows for members and for anyone; a private vault is not found', async () => {
      const vaultId = await nftVault();
      const collectionId = newId();
      const single = await mint(owner, vaultId);
      const inCollection = await mint(owner, vaultId, collectionId);
      expectAccepted(await owner.apply(vaultId, collectionId, collectionBody([inCollection])));
      const expected = {
        items: [
          { objectId: single, kind: 'nft', dataItemId: null, txId: null, status: 'SCHEDULED' },
          { objectId: inCollection, kind: 'nft', dataItemId: null, txId: null, status: 'SCHEDULED' },
          { objectId: collectionId, kind: 'collection', dataItemId: null, txId: null, status: 'SCHEDULED' },
        ],
      };
      const member = await api.get(`/api/vaults/${vaultId}/nfts/chain`, { token: viewer.token });
      expectStatus(member, 200);
      expect(NftChainStates.parse(member.body)).toEqual(expected);
      const open = await api.get(`/api/public/vaults/${vaultId}/nfts/chain`);
      expectStatus(open, 200);
      expect(NftChainStates.parse(open.body)).toEqual(expected);

      const stranger = await VaultActor.create(env, api);
      expectStatus(await api.get(`/api/vaults/${vaultId}/nfts/chain`, { token: stranger.token }), 404);
      const privateVault = await owner.createVault({ isCloud: false });
      expectStatus(await api.get(`/api/public/vaults/${privateVault}/nfts/chain`), 404);
      expectStatus(await api.get(`/api/public/vaults/${newId()}/nfts/chain`), 404);
      expectStatus(await api.get('/api/public/vaults/not.an.id/nfts/chain'), 400);
    });

    it('the public routes serve an NFT operation and its asset bytes, and a collection thumbnail', async () => {
      const vaultId = await nftVault();
      const file = makeFile(120, { isPublic: true });
      const version = await owner.upload(vaultId, file, { isPublic: true });
      const collectionId = newId();
      const nftId = newId();
      expectAccepted(await owner.apply(vaultId, nftId, mintBody(version, { collectionId })));
      const thumbnailFile = makeFile(40, { isPublic: true });
      const thumbnail = await owner.upload(vaultId, thumbnailFile, { isPublic: true });
      expectAccepted(await owner.apply(vaultId, collectionId, collectionBody([nftId], thumbnail)));

      const ops = await api.get(`/api/public/vaults/${vaultId}/ops?after=0`);
      expectStatus(ops, 200);
      expect(PullResponse.parse(ops.body).ops.map((o) => [o.op.body.type, o.op.objectId])).toEqual([
        ['vault.create', vaultId],
        ['nft.mint', nftId],
        ['nft.collection', collectionId],
      ]);
      for (const [blobId, bytes] of [
        [version.blobId, file.chunks[0]!],
        [thumbnail.blobId, thumbnailFile.chunks[0]!],
      ] as const) {
        const chunk = await api.app.inject({ method: 'GET', url: `/api/public/vaults/${vaultId}/blobs/${blobId}/chunks/0` });
        expect(chunk.statusCode).toBe(200);
        expect(Buffer.from(chunk.rawPayload).equals(bytes)).toBe(true);
      }
    });
  });
});
