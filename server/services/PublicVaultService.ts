/**
 * Signed-out reads of PUBLIC vaults (SYNC_SPEC R40, R53): the summary, the operation log by cursor
 * and committed blob chunks. Nothing here writes. A private vault, a deleted one and an unknown id
 * all throw the same `vaultNotFound()` (message included), so a private vault's id cannot be told
 * from a made-up one. Only what a viewer needs is served: the vault's own operations, those of
 * nodes shown now (ACTIVE, under ACTIVE folders up to the root) and those of memberships that may
 * write, for the viewer to judge authors (R67), never an e-mail address or an airdrop's name or
 * expiry; a blob must be committed, belong to the vault named in the path and to a file shown now.
 */
import type { Readable } from 'node:stream';
import { ApiError } from '../../src/protocol/errors';
import { VAULT_LIMITS } from '../../src/protocol/vaults';
import type { NftChainStates } from '../../src/protocol/nfts';
import { nftChainStates } from '../arweave/nftItems';
import { PUBLIC_OPERATION_SCOPE, type PublicVaultSummary } from '../../src/protocol/publicVaults';
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
      // Not `vault.size`: that counts hidden files and files in hidden folders too, whose sizes
      // a visitor must not learn (nor, by difference, that anything is hidden).
      size: await shownSize(this.db, vaultId),
      createdAt: vault.createdAt,
      updatedAt: vault.updatedAt,
    };
  }

  /**
   * The members' page (VaultService.pull) after `after`, for anyone, public vaults only, less the
   * operations the public may not see (R53). `nextAfter` is the last seq the page covered, so the
   * viewer moves past a page whose operations were all left out.
   */
  async pull(vaultId: string, after: number, limit: number = VAULT_LIMITS.PULL_PAGE_MAX): Promise<PublicPulledPage> {
    const vault = await this.publicVault(vaultId);
    const page = await readPulledPage(this.db, vaultId, vault.headSeq, after, limit);
    const nextAfter = page.ops.at(-1)?.seq ?? after;
    if (page.ops.length === 0) return { ...page, nextAfter };
    // The type and object are columns: no operation body is parsed to decide.
    const rows = await this.db
      .selectFrom('ops')
      .select(['seq', 'type', 'object_id'])
      .where('vault_id', '=', vaultId)
      .where('seq', '>', after)
      .where('seq', '<=', nextAfter)
      .execute();
    const scopes = rows.map((row) => ({ seq: Number(row.seq), objectId: row.object_id, scope: scopeOf(row.type) }));
    const shownNodes = await shownNodeIds(
      this.db,
      vaultId,
      scopes.flatMap((s) => (s.scope === 'node' ? [s.objectId] : [])),
    );
    const shownMembers = await shownMembershipIds(
      this.db,
      vaultId,
      scopes.flatMap((s) => (s.scope === 'member' ? [s.objectId] : [])),
    );
    const served = new Set(
      scopes
        .filter(
          (s) =>
            (s.scope === 'vault' && s.objectId === vaultId) ||
            s.scope === 'nft' ||
            (s.scope === 'node' && shownNodes.has(s.objectId)) ||
            (s.scope === 'member' && shownMembers.has(s.objectId)),
        )
        .map((s) => s.seq),
    );
    return { ...page, ops: page.ops.filter((o) => served.has(o.seq)), nextAfter };
  }

  /** R140: where the vault's NFTs and collections are on the network, for anyone. */
  async nftChain(vaultId: string): Promise<NftChainStates> {
    await this.publicVault(vaultId);
    return nftChainStates(this.db, vaultId);
  }

  /** A committed chunk of a public vault's blob (clear bytes: public versions carry no file key). */
  async readChunk(vaultId: string, blobId: string, index: number): Promise<{ stream: Readable; size: number }> {
    await this.publicVault(vaultId);
    const blob = await findBlob(this.db, blobId);
    if (!blob || blob.vaultId !== vaultId || blob.status !== 'committed' || !((await this.isShownFile(vaultId, blob.nodeId)) || (await this.isMinted(vaultId, blob.nodeId)))) {
      throw new ApiError('NOT_FOUND', 'Upload not found');
    }
    const chunk = (await listChunks(this.db, blob.id)).find((c) => c.index === index);
    const stream = chunk ? await this.store.get(chunkKey(blob.id, index, chunk.sha256)) : null;
    if (!chunk || !stream) throw new ApiError('NOT_FOUND', 'Chunk not found');
    return { stream, size: chunk.size };
  }

  /** Hidden files, and files in hidden folders, stay out of the public area: their bytes are not served. */
  private async isShownFile(vaultId: string, nodeId: string | null): Promise<boolean> {
    return nodeId !== null && (await shownNodeIds(this.db, vaultId, [nodeId])).has(nodeId);
  }

  /** An NFT's asset, or a collection's thumbnail or banner (R140): on the network for anyone already. */
  private async isMinted(vaultId: string, objectId: string | null): Promise<boolean> {
    if (objectId === null) return false;
    const op = await this.db
      .selectFrom('ops')
      .select('seq')
      .where('vault_id', '=', vaultId)
      .where('object_id', '=', objectId)
      .where('type', 'in', ['nft.mint', 'nft.collection'])
      .executeTakeFirst();
    return op !== undefined;
  }

  private async publicVault(vaultId: string): Promise<Vault> {
    const vault = await findVault(this.db, vaultId);
    if (!vault || !vault.isPublic || vault.status === 'DELETED') throw vaultNotFound();
    return vault;
  }
}

/** A public page: the members' page less what the public may not see, and where the next starts. */
export interface PublicPulledPage extends PulledPage {
  nextAfter: number;
}

function scopeOf(type: string): 'vault' | 'node' | 'member' | 'nft' | null {
  // An unknown type (none is stored today) is not served.
  return Object.hasOwn(PUBLIC_OPERATION_SCOPE, type) ? PUBLIC_OPERATION_SCOPE[type as keyof typeof PUBLIC_OPERATION_SCOPE] : null;
}

/** What a membership's stored operations say of it, as far as the public area cares. */
interface MembershipTrail {
  isAirdrop: boolean;
  isInvited: boolean;
  hasEmail: boolean;
  mayHaveWritten: boolean;
}

/**
 * Which of `membershipIds` the public area serves the operations of (SYNC_SPEC R67): those a
 * signed-out viewer needs to judge authors, and nothing that names a person. Served: the
 * creator's (no invitation names it) and every membership an invitation or a role change made
 * OWNER or CONTRIBUTOR. Not served: a VIEWER's (it never writes, so its absence refuses nothing
 * a viewer must see, and who watches a public vault is nobody's business), an airdrop's (its
 * `name` stands for the person, with the link's expiry and allowance) and one whose invitation
 * carries an e-mail (signed before R55). All of a membership's operations or none: a revoke or
 * role change served without the invitation it follows would name a membership the viewer does
 * not know, which its judge takes for the creator's.
 */
async function shownMembershipIds(db: Db, vaultId: string, membershipIds: readonly string[]): Promise<Set<string>> {
  const wanted = [...new Set(membershipIds)];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .selectFrom('ops')
    .select(['object_id', 'type', 'body'])
    .where('vault_id', '=', vaultId)
    .where('object_id', 'in', wanted)
    .where('type', 'in', ['member.invite', 'member.airdrop', 'member.changeRole'])
    .execute();
  const trails = new Map<string, MembershipTrail>(wanted.map((id) => [id, { isAirdrop: false, isInvited: false, hasEmail: false, mayHaveWritten: false }]));
  for (const row of rows) {
    const trail = trails.get(row.object_id)!;
    if (row.type === 'member.airdrop') {
      trail.isAirdrop = true;
      continue;
    }
    // Stored operations were validated when pushed; only these two members of the body are read.
    const body = (JSON.parse(row.body) as { body: { role?: unknown; email?: unknown } }).body;
    if (row.type === 'member.invite') {
      trail.isInvited = true;
      if (body.email !== undefined) trail.hasEmail = true;
    }
    if (body.role === 'OWNER' || body.role === 'CONTRIBUTOR') trail.mayHaveWritten = true;
  }
  return new Set(
    [...trails].filter(([, t]) => !t.isAirdrop && !t.hasEmail && (t.mayHaveWritten || !t.isInvited)).map(([id]) => id),
  );
}

/**
 * Stored bytes of the files a signed-out viewer sees (every version, like `vaults.size`): the
 * files reached from the root through ACTIVE folders only, as `shownNodeIds` decides for one node.
 * One recursive query down the tree by (vault_id, parent_id); `union` (not `union all`) drops
 * repeated rows, so even a cycle (impossible, R11) ends.
 */
export async function shownSize(db: Db, vaultId: string): Promise<number> {
  const row = await db
    .withRecursive('shown(id, kind, size)', (qb) =>
      qb
        .selectFrom('nodes')
        .select(['id', 'kind', 'size'])
        .where('vault_id', '=', vaultId)
        .where('parent_id', 'is', null)
        .where('status', '=', 'ACTIVE')
        .union(
          qb
            .selectFrom('nodes as child')
            .innerJoin('shown', 'shown.id', 'child.parent_id')
            .select(['child.id', 'child.kind', 'child.size'])
            .where('child.vault_id', '=', vaultId)
            .where('child.status', '=', 'ACTIVE')
            .where('shown.kind', '=', 'folder'),
        ),
    )
    .selectFrom('shown')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes'))
    .where('kind', '=', 'file')
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/**
 * Which of `nodeIds` a signed-out viewer may see now: the node and every folder above it up to
 * the vault root are ACTIVE (a hidden or deleted folder hides everything under it, as the app
 * shows it). One query per level of depth, each for the parents not read yet; `nodeIds` is at
 * most a page, so the `in` lists stay bounded.
 */
export async function shownNodeIds(db: Db, vaultId: string, nodeIds: readonly string[]): Promise<Set<string>> {
  const nodes = new Map<string, { parentId: string | null; status: string }>();
  let wanted = [...new Set(nodeIds)];
  while (wanted.length > 0) {
    const rows = await db.selectFrom('nodes').select(['id', 'parent_id', 'status']).where('vault_id', '=', vaultId).where('id', 'in', wanted).execute();
    for (const row of rows) nodes.set(row.id, { parentId: row.parent_id, status: row.status });
    // Only ACTIVE nodes' parents matter: a node that is not ACTIVE is not shown, whatever is above it.
    wanted = [...new Set(rows.flatMap((row) => (row.status === 'ACTIVE' && row.parent_id !== null && !nodes.has(row.parent_id) ? [row.parent_id] : [])))];
  }
  const verdicts = new Map<string, boolean>();
  const isShown = (id: string): boolean => {
    const known = verdicts.get(id);
    if (known !== undefined) return known;
    // A cycle (impossible: moves into oneself are refused, R11) shows nothing rather than looping.
    verdicts.set(id, false);
    const node = nodes.get(id);
    const shown = node !== undefined && node.status === 'ACTIVE' && (node.parentId === null || isShown(node.parentId));
    verdicts.set(id, shown);
    return shown;
  };
  return new Set(nodeIds.filter(isShown));
}
