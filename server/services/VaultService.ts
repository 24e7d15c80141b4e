/** Reads of vaults: the caller's vault list and pulls of a vault's operation log. */
import { Readable } from 'node:stream';
import { VAULT_LIMITS, type VaultSummary } from '../../src/protocol/vaults';
import type { Clock } from './Clock';
import { requireAccess } from './vaultAccess';
import { type Db, isRemoved, toMembership, toVault } from './vaultRows';

export const PULL_PAGE_DEFAULT = 500;

export class VaultService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Every vault the user has a membership in, any status, newest first. */
  async list(userId: string): Promise<VaultSummary[]> {
    const rows = await this.db
      .selectFrom('memberships as m')
      .innerJoin('vaults as v', 'v.id', 'm.vault_id')
      .innerJoin('users as u', 'u.id', 'v.owner_user_id')
      .selectAll('v')
      .select([
        'm.id as m_id',
        'm.vault_id as m_vault_id',
        'm.user_id as m_user_id',
        'm.role as m_role',
        'm.status as m_status',
        'm.keys as m_keys',
        'm.invited_by_user_id as m_invited_by_user_id',
        'm.expires_at as m_expires_at',
        'm.storage_allowance as m_storage_allowance',
        'm.created_at as m_created_at',
        'm.updated_at as m_updated_at',
        'u.address as owner_address',
      ])
      .where('m.user_id', '=', userId)
      .orderBy('v.created_at', 'desc')
      .orderBy('v.id')
      .execute();
    const airdrops = await this.organisationAirdropsOf(
      userId,
      rows.filter((row) => row.m_status === 'PENDING' && row.m_role === 'OWNER').map((row) => row.m_invited_by_user_id),
    );
    return rows.map((row) => {
      const vault = toVault(row);
      const membership = toMembership({
        id: row.m_id,
        vault_id: row.m_vault_id,
        user_id: row.m_user_id,
        role: row.m_role,
        status: row.m_status,
        keys: row.m_keys,
        invited_by_user_id: row.m_invited_by_user_id,
        expires_at: row.m_expires_at,
        storage_allowance: row.m_storage_allowance,
        created_at: row.m_created_at,
        updated_at: row.m_updated_at,
      });
      return {
        vaultId: vault.id,
        isPublic: vault.isPublic,
        isCloud: vault.isCloud,
        status: vault.status,
        ownerAddress: row.owner_address,
        membership: {
          id: membership.id,
          role: membership.role,
          status: membership.status,
          // An ended membership never carries a ring, whatever an older row kept.
          keys: isRemoved(membership) ? null : membership.keys,
          expiresAt: membership.expiresAt,
          storageAllowance: membership.storageAllowance,
          organisationAirdrop: membership.status === 'PENDING' && membership.role === 'OWNER' && membership.invitedByUserId !== null && airdrops.has(membership.invitedByUserId),
        },
        keyCount: vault.keyCount,
        needsKeyRotation: vault.needsRotation,
        headSeq: vault.headSeq,
        size: vault.size,
        createdAt: vault.createdAt,
        updatedAt: vault.updatedAt,
      };
    });
  }

  /**
   * Of `inviterIds`, those whose OWNER invitations to `userId` are organisation airdrops (R127):
   * `userId` is an admin of an organisation the inviter belongs to. Both airdrops of spec 001
   * section 6 are such: a new admin into the inviter's vaults, the admins into a vault someone of
   * the organisation made. A plain member is never airdropped, so never accepts by itself.
   */
  private async organisationAirdropsOf(userId: string, inviterIds: (string | null)[]): Promise<Set<string>> {
    const inviters = [...new Set(inviterIds.filter((id): id is string => id !== null))];
    if (inviters.length === 0) return new Set();
    const own = await this.db.selectFrom('organisation_members').select(['organisation_id', 'role']).where('user_id', '=', userId).executeTakeFirst();
    if (own?.role !== 'OWNER') return new Set();
    const rows = await this.db
      .selectFrom('organisation_members')
      .select('user_id')
      .where('organisation_id', '=', own.organisation_id)
      .where('user_id', 'in', inviters)
      .execute();
    return new Set(rows.map((row) => row.user_id));
  }

  /**
   * The operations after `after`, in seq order: members only (404 for others, 403 when removed).
   * Each operation is answered as the text stored at push time (`canonicalJson` of the operation
   * after it passed the `Operation` schema and its signature check), not parsed and serialised
   * again: for a first sync of thousands of operations, that parse and serialise was most of the
   * server's time per page. `pullResponseStream` sends the texts as they are.
   */
  async pull(userId: string, vaultId: string, after: number, limit: number = PULL_PAGE_DEFAULT): Promise<PulledPage> {
    const { vault } = await requireAccess(this.db, vaultId, userId, 'read', this.clock.now());
    return readPulledPage(this.db, vaultId, vault.headSeq, after, limit);
  }
}

/**
 * Up to `limit` operations of `vaultId` after seq `after`, in seq order. Served by the primary
 * key (vault_id, seq) on SQLite and PostgreSQL: a range scan starting at `after` (in order; or,
 * on PostgreSQL when most of the range is wanted, a bitmap scan that then sorts at most a page),
 * so a page costs the same at the start and the end of a long log (VaultService.test.ts checks
 * both query plans).
 */
export function selectOpsPage(db: Db, vaultId: string, after: number, limit: number) {
  return db
    .selectFrom('ops')
    .select(['seq', 'body', 'received_at'])
    .where('vault_id', '=', vaultId)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit);
}

/**
 * Most bytes of operation bodies in one pull page, whatever `limit` allows (SYNC_SPEC R61). A page
 * is read, held and sent whole: 1,000 note drafts of 700,000 characters made a 700 MB page, and
 * 40 of them a 28 MB one that held the event loop for half a second. A page always carries at
 * least one operation, however large, so a device always reaches the head.
 */
export const PULL_PAGE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The sizes of up to `limit` operations after `after`, from the covering index ops_sizes
 * (migration 0007): the page is cut by bytes before any body is read.
 */
export function selectOpSizesPage(db: Db, vaultId: string, after: number, limit: number) {
  return db.selectFrom('ops').select(['seq', 'body_bytes']).where('vault_id', '=', vaultId).where('seq', '>', after).orderBy('seq').limit(limit);
}

/**
 * The page of `vaultId`'s log after `after` (at most PULL_PAGE_MAX operations and
 * PULL_PAGE_MAX_BYTES of bodies, but never empty while the log goes on), for a caller that has
 * already been let read the vault, whose head it read as `headSeq`.
 */
export async function readPulledPage(
  db: Db,
  vaultId: string,
  headSeq: number,
  after: number,
  limit: number,
  maxBytes: number = PULL_PAGE_MAX_BYTES,
): Promise<PulledPage> {
  const pageSize = Math.min(limit, VAULT_LIMITS.PULL_PAGE_MAX);
  const sizes = await selectOpSizesPage(db, vaultId, after, pageSize + 1).execute();
  let count = 0;
  let bytes = 0;
  for (const row of sizes.slice(0, pageSize)) {
    const size = Number(row.body_bytes);
    if (count > 0 && bytes + size > maxBytes) break;
    bytes += size;
    count += 1;
  }
  // The first `count` operations after `after`: the same rows, since a log only grows at its end.
  const page = count === 0 ? [] : await selectOpsPage(db, vaultId, after, count).execute();
  const last = page.at(-1);
  return {
    ops: page.map((row) => ({ seq: Number(row.seq), receivedAt: Number(row.received_at), opJson: row.body })),
    // An operation may land between the reads: never answer a head behind the page.
    headSeq: Math.max(headSeq, last ? Number(last.seq) : 0),
    hasMore: sizes.length > page.length,
  };
}

/** A page of a vault's log, each operation still as its stored JSON text. */
export interface PulledPage {
  ops: Array<{ seq: number; receivedAt: number; opJson: string }>;
  headSeq: number;
  hasMore: boolean;
}

/**
 * The `PullResponse` JSON of `page` as a stream of its pieces, so the page's operations are sent as
 * they are held and never copied into one more string of the page's size. `nextAfter` is added for
 * the public area's pages (`PublicPullResponse`, R53).
 */
export function pullResponseStream(page: PulledPage & { nextAfter?: number }): Readable {
  function* pieces(): Generator<Buffer> {
    yield Buffer.from('{"ops":[');
    for (const [index, o] of page.ops.entries()) {
      yield Buffer.from(`${index === 0 ? '' : ','}{"seq":${o.seq},"receivedAt":${o.receivedAt},"op":`);
      yield Buffer.from(o.opJson);
      yield Buffer.from('}');
    }
    const nextAfter = page.nextAfter === undefined ? '' : `,"nextAfter":${page.nextAfter}`;
    yield Buffer.from(`],"headSeq":${page.headSeq},"hasMore":${page.hasMore}${nextAfter}}`);
  }
  return Readable.from(pieces(), { objectMode: false });
}

