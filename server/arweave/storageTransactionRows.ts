import { StorageTransaction } from '../../src/protocol/arweave';
import type { Insertable, Selectable } from 'kysely';
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

type NewRow = Insertable<StorageTransactionsTable>;

/**
 * A row as it is first written: SCHEDULED, nothing signed or posted, no retries yet (the relay
 * fills the rest in). `row` says what it is; it may set any other column too.
 */
export function scheduledRow(
  row: Pick<NewRow, 'id' | 'vault_id' | 'file_id' | 'version_id' | 'blob_id' | 'uploader_user_id' | 'size' | 'created_at'> & Partial<NewRow>,
): NewRow {
  return {
    status: 'SCHEDULED',
    data_item_id: null,
    tx_id: null,
    reward: null,
    public_name: null,
    content_type: null,
    attempts: 0,
    next_attempt_at: 0,
    updated_at: row.created_at,
    ...row,
  };
}
