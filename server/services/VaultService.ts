/** Reads of vaults: the caller's vault list and pulls of a vault's operation log. */
import { Operation, type SequencedOperation, VAULT_LIMITS, type VaultSummary } from '../../src/protocol/vaults';
import { requireAccess } from './vaultAccess';
import { type Db, toMembership, toVault } from './vaultRows';

export const PULL_PAGE_DEFAULT = 500;

export class VaultService {
  constructor(private readonly db: Db) {}

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
        'm.created_at as m_created_at',
        'm.updated_at as m_updated_at',
        'u.address as owner_address',
      ])
      .where('m.user_id', '=', userId)
      .orderBy('v.created_at', 'desc')
      .orderBy('v.id')
      .execute();
    return rows.map((row) => {
      const vault = toVault(row);
      const membership = toMembership({
        id: row.m_id,
        vault_id: row.m_vault_id,
        user_id: row.m_user_id,
        role: row.m_role,
        status: row.m_status,
        keys: row.m_keys,
        created_at: row.m_created_at,
        updated_at: row.m_updated_at,
      });
      return {
        vaultId: vault.id,
        isPublic: vault.isPublic,
        isCloud: vault.isCloud,
        status: vault.status,
        ownerAddress: row.owner_address,
        membership: { id: membership.id, role: membership.role, status: membership.status, keys: membership.keys },
        headSeq: vault.headSeq,
        size: vault.size,
        createdAt: vault.createdAt,
        updatedAt: vault.updatedAt,
      };
    });
  }

  /** The operations after `after`, in seq order: members only (404 for others, 403 when removed). */
  async pull(
    userId: string,
    vaultId: string,
    after: number,
    limit: number = PULL_PAGE_DEFAULT,
  ): Promise<{ ops: SequencedOperation[]; headSeq: number; hasMore: boolean }> {
    const { vault } = await requireAccess(this.db, vaultId, userId, 'read');
    const pageSize = Math.min(limit, VAULT_LIMITS.PULL_PAGE_MAX);
    const rows = await this.db
      .selectFrom('ops')
      .select(['seq', 'body', 'received_at'])
      .where('vault_id', '=', vaultId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(pageSize + 1)
      .execute();
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return {
      // Stored only after validation; parsed again so what is served is exactly the schema.
      ops: page.map((row) => ({ seq: Number(row.seq), receivedAt: Number(row.received_at), op: Operation.parse(JSON.parse(row.body)) })),
      // An operation may land between the two reads: never answer a head behind the page.
      headSeq: Math.max(vault.headSeq, last ? Number(last.seq) : 0),
      hasMore: rows.length > pageSize,
    };
  }
}
