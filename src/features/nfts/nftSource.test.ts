/**
 * [R141] A member's NFTs are read from the vault's cached pages: only verified nft operations of
 * that vault and account, whatever the page they sit in; a refused mint is never listed.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { nftsOfVault } from '../../domain/nftsOfVault';
import { DEFAULT_UDL } from '../../protocol/nfts';
import { OperationBody } from '../../protocol/vaults';
import { CairnDb } from '../../storage/db';
import type { CachedOp } from '../../storage/vaultRecords';
import { readNftLog } from './nftSource';

const OWNER = 'o'.repeat(43);

function cached(seq: number, objectId: string, body: unknown, isVerified = true): CachedOp {
  return {
    seq,
    receivedAt: seq * 10,
    op: { id: `op-${seq}`, vaultId: 'vault', objectId, author: 'a'.repeat(64), createdAt: 1, body: OperationBody.parse(body), signature: 'x'.repeat(86) },
    isVerified,
    fields: {},
  };
}

function mint(seq: number, id: string, isVerified = true): CachedOp {
  const version = { versionId: `v-${id}`, blobId: `b-${id}`, size: 1, storedSize: 1, chunkSize: 4_194_304, chunkCount: 1, chunkHashes: ['0'.repeat(64)], mimeType: { clear: 'image/png' }, lastModified: 1 };
  return cached(seq, id, { type: 'nft.mint', collectionId: null, metadata: { name: id, description: '', topics: [], types: ['image'], owner: OWNER, creator: OWNER, fractionParts: null }, udl: DEFAULT_UDL, ucm: false, version }, isVerified);
}

describe('readNftLog', () => {
  it('[R141] reads verified nft operations of the vault from every cached page; refused ones and other vaults are left out', async () => {
    const db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
    await db.opPages.bulkPut([
      { accountId: 'acc', vaultId: 'vault', firstSeq: 1, ops: [cached(1, 'f1', { type: 'folder.create', parentId: null, name: { clear: 'Docs' } }), mint(2, 'n1')] },
      { accountId: 'acc', vaultId: 'vault', firstSeq: 3, ops: [mint(3, 'forged', false), mint(4, 'n2')] },
      { accountId: 'acc', vaultId: 'other', firstSeq: 1, ops: [mint(1, 'elsewhere')] },
      { accountId: 'someone', vaultId: 'vault', firstSeq: 1, ops: [mint(1, 'theirs')] },
    ]);
    const log = await readNftLog(db, 'acc', 'vault');
    expect(log.map((entry) => [entry.seq, entry.op.objectId, entry.time])).toEqual([
      [2, 'n1', 20],
      [4, 'n2', 40],
    ]);
    expect(nftsOfVault(log).listed.map((item) => item.id)).toEqual(['n2', 'n1']);
    db.close();
  });
});
