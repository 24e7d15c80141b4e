import type { Operation } from '../../../src/protocol/vaults';
import { chunkKey } from '../../blobs/BlobStore';
import { inBatches } from '../../db/inBatches';
import type { Db, Vault } from '../vaultRows';

/** What an operation rule works with, inside the operation's transaction. */
export interface OpContext {
  trx: Db;
  op: Operation;
  userId: string;
  now: number;
  /** Blob store keys to delete once the transaction has committed. */
  freedKeys: string[];
  /** Notifications written or grown in the transaction, delivered after the commit (SYNC_SPEC R31). */
  notified?: NotifiedRow[];
  /**
   * Set while a vault's history is imported (SYNC_SPEC R92): the operation happened elsewhere
   * already, so it notifies nobody, schedules nothing for the network, and its versions' bytes
   * come after it (R93).
   */
  importing?: boolean;
}

/** A notification row an operation wrote (`isNew`) or grew (a coalesced run, SYNC_SPEC R30). */
export interface NotifiedRow {
  id: string;
  userId: string;
  isNew: boolean;
}

/** An operation on an existing vault, after role and state checks. */
export interface VaultOpContext extends OpContext {
  vault: Vault;
}

/**
 * Deletes blobs (and their chunk rows) and subtracts their committed bytes from the vault's
 * size. The chunk files are only queued in `ctx.freedKeys`: they go after the commit, so a
 * rolled-back operation never loses bytes (a crash in between leaves orphan files, never rows
 * without bytes).
 */
export async function freeBlobs(ctx: OpContext, vaultId: string, blobIds: string[]): Promise<void> {
  let bytes = 0;
  // A vault may hold tens of thousands of blobs: bound each `in` list (server/db/inBatches.ts).
  for (const batch of inBatches(blobIds)) {
    const chunks = await ctx.trx.selectFrom('blob_chunks').select(['blob_id', 'idx', 'sha256']).where('blob_id', 'in', batch).execute();
    for (const chunk of chunks) ctx.freedKeys.push(chunkKey(chunk.blob_id, Number(chunk.idx), chunk.sha256));
    const committed = await ctx.trx
      .selectFrom('blobs')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('stored_size'), eb.lit(0)).as('bytes'))
      .where('id', 'in', batch)
      .where('status', '=', 'committed')
      .executeTakeFirstOrThrow();
    await ctx.trx.deleteFrom('blob_chunks').where('blob_id', 'in', batch).execute();
    await ctx.trx.deleteFrom('blobs').where('id', 'in', batch).execute();
    bytes += Number(committed.bytes);
  }
  if (bytes > 0) {
    await ctx.trx
      .updateTable('vaults')
      .set((eb) => ({ size: eb('size', '-', bytes) }))
      .where('id', '=', vaultId)
      .execute();
  }
}
