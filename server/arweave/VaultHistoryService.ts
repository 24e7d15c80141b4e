/**
 * GET /vaults/{vaultId}/history-items (SYNC_SPEC R84): a permanent vault's history runs on the
 * network, in seq order, for any member who may read the vault (the vault info drawer's contract
 * and transaction history). Non-members get the vault routes' 404, removed members their 403.
 */
import type { Kysely } from 'kysely';
import { StorageTxStatus, type VaultHistoryPage, type VaultHistoryQuery } from '../../src/protocol/arweave';
import type { Database } from '../db/Database';
import type { Clock } from '../services/Clock';
import { requireAccess } from '../services/vaultAccess';

export class VaultHistoryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async list(userId: string, vaultId: string, query: VaultHistoryQuery): Promise<VaultHistoryPage> {
    const { vault } = await requireAccess(this.db, vaultId, userId, 'read', this.clock.now());
    const { history_seq: historySeq } = await this.db.selectFrom('vaults').select('history_seq').where('id', '=', vaultId).executeTakeFirstOrThrow();
    const rows = await this.db
      .selectFrom('storage_transactions')
      .select(['seq_from', 'seq_to', 'status', 'data_item_id', 'tx_id', 'size', 'created_at', 'updated_at'])
      .where('vault_id', '=', vaultId)
      .where('kind', '=', 'history')
      .where('seq_from', '>', query.after)
      .orderBy('seq_from')
      .limit(query.limit + 1)
      .execute();
    const page = rows.slice(0, query.limit);
    return {
      items: page.map((row) => ({
        seqFrom: Number(row.seq_from),
        seqTo: Number(row.seq_to),
        status: StorageTxStatus.parse(row.status),
        dataItemId: row.data_item_id,
        txId: row.tx_id,
        size: Number(row.size),
        createdAt: new Date(Number(row.created_at)).toISOString(),
        updatedAt: new Date(Number(row.updated_at)).toISOString(),
      })),
      nextAfter: rows.length > query.limit ? Number(page.at(-1)!.seq_to) : null,
      isPermanent: !vault.isCloud,
      headSeq: vault.headSeq,
      historySeq: Number(historySeq),
    };
  }
}
