import { StorageTransaction } from '../../src/protocol/arweave';
import type { Selectable } from 'kysely';
import type { StorageTransactionsTable } from '../db/Database';

/** The API shape of a row: no uploader, no name, no retry bookkeeping. */
export function toStorageTransaction(row: Selectable<StorageTransactionsTable>): StorageTransaction {
  return StorageTransaction.parse({
    id: row.id,
    vaultId: row.vault_id,
    fileId: row.file_id,
    versionId: row.version_id,
    dataItemId: row.data_item_id,
    txId: row.tx_id,
    size: Number(row.size),
    reward: row.reward,
    status: row.status,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
  });
}
