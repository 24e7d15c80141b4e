/**
 * Signed-out reads of PUBLIC vaults (SYNC_SPEC R40): the summary, the operation log by cursor and
 * committed blob chunks. Nothing here writes. A private vault, a deleted one and an unknown id all
 * throw the same `vaultNotFound()` (message included), so a private vault's id cannot be told
 * from a made-up one; a blob must be committed, belong to the vault named in the path and to a
 * file that is not hidden.
 */
import type { Readable } from 'node:stream';
import { ApiError } from '../../src/protocol/errors';
import { VAULT_LIMITS } from '../../src/protocol/vaults';
import type { PublicVaultSummary } from '../../src/protocol/publicVaults';
import { type BlobStore, chunkKey } from '../blobs/BlobStore';
import type { PulledPage } from './VaultService';
import { readPulledPage } from './VaultService';
import { vaultNotFound } from './vaultAccess';
import { type Db, findBlob, findVault, listChunks, type Vault } from './vaultRows';

export class PublicVaultService {
  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
  ) {}

  async summary(vaultId: string): Promise<PublicVaultSummary> {
    const vault = await this.publicVault(vaultId);
    const owner = await this.db.selectFrom('users').select('address').where('id', '=', vault.ownerUserId).executeTakeFirst();
    return {
      vaultId: vault.id,
      status: vault.status === 'ARCHIVED' ? 'ARCHIVED' : 'ACTIVE',
      isCloud: vault.isCloud,
      ownerAddress: owner?.address ?? '',
      headSeq: vault.headSeq,
      size: vault.size,
      createdAt: vault.createdAt,
      updatedAt: vault.updatedAt,
    };
  }

  /** Like the members' pull (VaultService.pull), for anyone, public vaults only. */
  async pull(vaultId: string, after: number, limit: number = VAULT_LIMITS.PULL_PAGE_MAX): Promise<PulledPage> {
    const vault = await this.publicVault(vaultId);
    return readPulledPage(this.db, vaultId, vault.headSeq, after, limit);
  }

  /** A committed chunk of a public vault's blob (clear bytes: public versions carry no file key). */
  async readChunk(vaultId: string, blobId: string, index: number): Promise<{ stream: Readable; size: number }> {
    await this.publicVault(vaultId);
    const blob = await findBlob(this.db, blobId);
    if (!blob || blob.vaultId !== vaultId || blob.status !== 'committed' || !(await this.isShownFile(blob.nodeId))) {
      throw new ApiError('NOT_FOUND', 'Upload not found');
    }
    const chunk = (await listChunks(this.db, blob.id)).find((c) => c.index === index);
    const stream = chunk ? await this.store.get(chunkKey(blob.id, index, chunk.sha256)) : null;
    if (!chunk || !stream) throw new ApiError('NOT_FOUND', 'Chunk not found');
    return { stream, size: chunk.size };
  }

  /** Hidden files stay out of the public area: the viewer does not list them, nor are their bytes served. */
  private async isShownFile(nodeId: string | null): Promise<boolean> {
    if (!nodeId) return false;
    const node = await this.db.selectFrom('nodes').select('status').where('id', '=', nodeId).executeTakeFirst();
    return node?.status === 'ACTIVE';
  }

  private async publicVault(vaultId: string): Promise<Vault> {
    const vault = await findVault(this.db, vaultId);
    if (!vault || !vault.isPublic || vault.status === 'DELETED') throw vaultNotFound();
    return vault;
  }
}
