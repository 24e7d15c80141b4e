/**
 * docs/SYNC_SPEC.md R34: a file version committed in a permanent vault is scheduled for Arweave in
 * the same transaction as the commit, so a version is never committed without its row nor a row
 * left for a version that was rolled back. Public vaults' names are clear in their ops already;
 * the row keeps the one the File-Name tag needs. Private vaults' rows carry no name or type.
 */
import type { Insertable } from 'kysely';
import type { FileVersion, Operation } from '../../../src/protocol/vaults';
import { scheduledRow } from '../../arweave/storageTransactionRows';
import type { StorageTransactionsTable } from '../../db/Database';
import { randomId } from '../tokens';
import type { Blob } from '../vaultRows';
import type { VaultOpContext } from './OpContext';

/**
 * `row`: columns to set besides a version's (an NFT's row: its id, kind and plan, R137). Answers
 * the row's id, or null in a cloud vault (nothing scheduled).
 */
export async function scheduleStorage(
  ctx: VaultOpContext,
  blob: Blob,
  nodeId: string,
  version: FileVersion,
  row: Partial<Insertable<StorageTransactionsTable>> = {},
): Promise<string | null> {
  const { trx, vault, now, op } = ctx;
  if (vault.isCloud) return null;
  const id = row.id ?? randomId();
  const contentType = vault.isPublic && 'clear' in version.mimeType ? version.mimeType.clear : null;
  const publicName = vault.isPublic ? await currentPublicName(ctx, op, nodeId) : null;
  await trx
    .insertInto('storage_transactions')
    .values(
      scheduledRow({
        vault_id: vault.id,
        file_id: nodeId,
        version_id: version.versionId,
        blob_id: blob.id,
        uploader_user_id: ctx.userId,
        size: blob.storedSize,
        public_name: publicName,
        content_type: contentType,
        created_at: now,
        ...row,
        id,
      }),
    )
    .execute();
  return id;
}

/** The file's name now: from this file.create, or the newest file.create / node.rename of the node. */
async function currentPublicName(ctx: VaultOpContext, op: Operation, nodeId: string): Promise<string | null> {
  if (op.body.type === 'nft.mint' || op.body.type === 'nft.collection') return null;
  if (op.body.type === 'file.create') return 'clear' in op.body.name ? op.body.name.clear : null;
  const row = await ctx.trx
    .selectFrom('ops')
    .select('body')
    .where('vault_id', '=', ctx.vault.id)
    .where('object_id', '=', nodeId)
    .where('type', 'in', ['file.create', 'node.rename'])
    .orderBy('seq', 'desc')
    .executeTakeFirst();
  if (!row) return null;
  const body = (JSON.parse(row.body) as Operation).body;
  return 'name' in body && body.name && 'clear' in body.name ? body.name.clear : null;
}
