/**
 * folder.*, file.* and node.* operations (spec 000 section 4, Files, folders and notes):
 * ACTIVE -> hidden (REVOKED) -> ACTIVE again, or -> DELETED. Structure is checked here: a parent
 * is an ACTIVE folder of the same vault, new ids are new, and a move never makes a cycle.
 */
import { nameFormatError } from '../../../src/domain/nodeNames';
import { ApiError } from '../../../src/protocol/errors';
import type { Field, OperationBody } from '../../../src/protocol/vaults';
import { inBatches } from '../../db/inBatches';
import { findNode, type VaultNode } from '../vaultRows';
import { freeBlobs, type VaultOpContext } from './OpContext';
import { checkThumbnailBlob, commitThumbnail } from './thumbnailRules';
import { checkVersionBlob, commitVersion } from './versionRules';

function invalid(message: string): ApiError {
  return new ApiError('INVALID_OPERATION', message);
}

export async function applyNodeOp(ctx: VaultOpContext, body: OperationBody): Promise<void> {
  const { trx, op, vault, now } = ctx;
  switch (body.type) {
    case 'folder.create':
    case 'file.create': {
      assertSavableName(body.name);
      await assertNewId(ctx, op.objectId);
      await assertParent(ctx, body.parentId);
      const blob = body.type === 'file.create' ? await checkVersionBlob(ctx, body.version) : null;
      const thumbnail = body.type === 'file.create' ? await checkThumbnailBlob(ctx, body.version) : null;
      await trx
        .insertInto('nodes')
        .values({
          id: op.objectId,
          vault_id: vault.id,
          kind: body.type === 'file.create' ? 'file' : 'folder',
          parent_id: body.parentId,
          status: 'ACTIVE',
          size: 0,
          version_count: 0,
          latest_version_id: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      if (blob && body.type === 'file.create') await commitVersion(ctx, blob, op.objectId, body.version);
      await commitThumbnail(ctx, thumbnail, op.objectId);
      return;
    }
    case 'file.addVersion': {
      const node = await requireNode(ctx, 'ACTIVE');
      if (node.kind !== 'file') throw invalid('Only a file has versions');
      const blob = await checkVersionBlob(ctx, body.version);
      const thumbnail = await checkThumbnailBlob(ctx, body.version);
      await commitVersion(ctx, blob, node.id, body.version);
      await commitThumbnail(ctx, thumbnail, node.id);
      return;
    }
    case 'node.rename':
      assertSavableName(body.name);
      await requireNode(ctx, 'ACTIVE');
      return touch(ctx, {});
    case 'node.move': {
      const node = await requireNode(ctx, 'ACTIVE');
      await assertParent(ctx, body.parentId);
      await assertNoCycle(ctx, node, body.parentId);
      return touch(ctx, { parent_id: body.parentId });
    }
    case 'node.hide':
      await requireNode(ctx, 'ACTIVE');
      return touch(ctx, { status: 'REVOKED' });
    case 'node.restore': {
      const node = await requireNode(ctx, 'REVOKED');
      if (body.parentId !== undefined) {
        await assertParent(ctx, body.parentId);
        await assertNoCycle(ctx, node, body.parentId);
        return touch(ctx, { status: 'ACTIVE', parent_id: body.parentId });
      }
      if (node.parentId !== null) {
        const parent = await findNode(trx, vault.id, node.parentId);
        if (!parent || parent.status !== 'ACTIVE') throw invalid('The folder it was in is gone or hidden: restore it into another folder');
      }
      return touch(ctx, { status: 'ACTIVE' });
    }
    case 'node.delete':
      return deleteNode(ctx, await requireNode(ctx, 'REVOKED'));
    default:
      throw new Error(`Not a node operation: ${body.type}`);
  }
}

/**
 * A public vault's names are in clear: the server refuses one no common file system can save
 * (SYNC_SPEC R73), as the writing device should have. A sealed name is the device's to check.
 */
function assertSavableName(name: Field): void {
  if (!('clear' in name)) return;
  const error = nameFormatError(name.clear);
  if (error) throw invalid(error);
}

async function requireNode(ctx: VaultOpContext, status: 'ACTIVE' | 'REVOKED'): Promise<VaultNode> {
  const node = await findNode(ctx.trx, ctx.vault.id, ctx.op.objectId);
  if (!node || node.status === 'DELETED') throw invalid('The folder or file does not exist');
  if (node.status !== status) {
    throw invalid(status === 'REVOKED' ? 'Only a hidden folder or file can be restored or deleted' : 'The folder or file is hidden');
  }
  return node;
}

async function touch(ctx: VaultOpContext, patch: { status?: string; parent_id?: string | null }): Promise<void> {
  await ctx.trx
    .updateTable('nodes')
    .set({ ...patch, updated_at: ctx.now })
    .where('id', '=', ctx.op.objectId)
    .execute();
}

/** Object ids are global: a create never reuses a node (of any vault) or a vault id. */
async function assertNewId(ctx: VaultOpContext, id: string): Promise<void> {
  const node = await ctx.trx.selectFrom('nodes').select('id').where('id', '=', id).executeTakeFirst();
  const vault = await ctx.trx.selectFrom('vaults').select('id').where('id', '=', id).executeTakeFirst();
  if (node || vault) throw invalid('The object id is already used');
}

async function assertParent(ctx: VaultOpContext, parentId: string | null): Promise<void> {
  if (parentId === null) return;
  const parent = await findNode(ctx.trx, ctx.vault.id, parentId);
  if (!parent || parent.kind !== 'folder' || parent.status !== 'ACTIVE') throw invalid('The destination folder does not exist');
}

/** A folder cannot move into itself or one of its descendants. */
async function assertNoCycle(ctx: VaultOpContext, node: VaultNode, parentId: string | null): Promise<void> {
  if (node.kind !== 'folder') return;
  const seen = new Set<string>();
  let current = parentId;
  while (current !== null && !seen.has(current)) {
    if (current === node.id) throw invalid('A folder cannot move into itself or one of its folders');
    seen.add(current);
    const ancestor = await findNode(ctx.trx, ctx.vault.id, current);
    current = ancestor?.parentId ?? null;
  }
}

/**
 * Hidden -> DELETED, with everything under a folder. Cloud vaults free the bytes of every version
 * of every file deleted; permanent vaults ('Clear') keep them for the network.
 */
async function deleteNode(ctx: VaultOpContext, node: VaultNode): Promise<void> {
  const { trx, vault, now } = ctx;
  const ids = [node.id];
  let frontier = [node.id];
  while (frontier.length > 0) {
    // A folder may hold tens of thousands of folders: bound each `in` list (server/db/inBatches.ts).
    const next: string[] = [];
    for (const parents of inBatches(frontier)) {
      const children = await trx
        .selectFrom('nodes')
        .select('id')
        .where('vault_id', '=', vault.id)
        .where('parent_id', 'in', parents)
        .where('status', '!=', 'DELETED')
        .execute();
      for (const child of children) next.push(child.id);
    }
    frontier = next;
    for (const id of next) ids.push(id);
  }
  for (const batch of inBatches(ids)) {
    if (vault.isCloud) {
      const blobs = await trx.selectFrom('blobs').select('id').where('vault_id', '=', vault.id).where('node_id', 'in', batch).execute();
      await freeBlobs(ctx, vault.id, blobs.map((b) => b.id));
    }
    await trx
      .updateTable('nodes')
      .set({ status: 'DELETED', updated_at: now, ...(vault.isCloud ? { size: 0 } : {}) })
      .where('id', 'in', batch)
      .execute();
  }
}
