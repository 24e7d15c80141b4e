/**
 * What screens call to change vaults (spec 000 sections 4-6). Each action seals its fields
 * (private vaults; public ones carry clear fields), signs and queues an operation through the
 * outbox, which shows it at once as pending and pushes it when online. Nothing here waits for
 * the server: a refusal comes back as a `rejection` on the item (NodeRecord / VaultRecord).
 *
 * Role and state checks (OWNER only, archived vaults...) are the screens' job for display and
 * the server's for enforcement; these functions do not duplicate them.
 *
 * Every action needs sync to be started (src/sync/index.ts); otherwise it throws
 * Error('Cairn-js not initialized.').
 */
import type { FieldName, Field, OperationBody } from '../protocol/vaults';
import { VaultStorageResponse } from '../protocol/vaults';
import { ACTIVE_UPLOAD_STATES, isCancellable } from '../domain/uploadRules';
import { keepBothName } from '../domain/fileNaming';
import { findNameClash, isSameName, NAME_TEXTS, nodeNameError, type SiblingName, uploadSafeName } from '../domain/nodeNames';
import { ApiError } from '../protocol/errors';
import { getChildren } from '../storage/vaultStore';
import { requireSync } from './currentSync';
import { type DownloadableVersion, downloadFileVersion, downloadVersion, openFileVersionDownload, type DownloadProgress, type FileVersionDownload } from './downloadFile';
import { requireVault } from './members';
import { enqueueOperation, enqueueOperations } from './outbox';
import type { SyncContext } from './SyncContext';
import { type NewUpload, queueUploads } from './uploadQueue';
import { ensureVaultKeys } from './pull';

export { CHUNK_TAMPERED_MESSAGE, type DownloadableVersion, DownloadError, type FileVersionDownload, NOT_OFFLINE_MESSAGE } from './downloadFile';
export { NOT_ENOUGH_STORAGE_MESSAGE, UPLOAD_FAILED_MESSAGE } from './uploadQueue';

async function isPublicVault(ctx: SyncContext, vaultId: string): Promise<boolean> {
  return (await requireVault(ctx, vaultId)).isPublic;
}

/** Seals (private) or wraps in clear (public) each given field. */
export async function makeFields<K extends FieldName>(
  ctx: SyncContext,
  vaultId: string,
  objectId: string,
  isPublic: boolean,
  values: Record<K, string>,
): Promise<Record<K, Field>> {
  if (isPublic) {
    return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { clear: v as string }])) as Record<K, Field>;
  }
  await ensureVaultKeys(ctx, vaultId);
  const sealed = await ctx.crypto.sealFields(vaultId, objectId, values as Partial<Record<FieldName, string>>);
  for (const key of Object.keys(values)) if (!sealed[key as K]) throw new Error(`Field ${key} was not sealed`);
  return sealed as Record<K, Field>;
}

async function queue(ctx: SyncContext, vaultId: string, objectId: string, body: OperationBody, fields: Record<string, string> = {}) {
  return enqueueOperation(ctx, { vaultId, objectId, body, fields });
}

/**
 * One operation per node, in order, queued together (one transaction for a batch). A batch of
 * several shares one groupRef, so the timeline shows it as one action (SYNC_SPEC R28).
 */
async function queueEach(ctx: SyncContext, vaultId: string, nodeIds: readonly string[], body: (nodeId: string) => OperationBody) {
  const groupRef = nodeIds.length > 1 ? ctx.newId() : undefined;
  return enqueueOperations(
    ctx,
    nodeIds.map((nodeId) => ({ vaultId, objectId: nodeId, body: body(nodeId), fields: {}, ...(groupRef ? { groupRef } : {}) })),
  );
}

// --- vaults ------------------------------------------------------------------------------------

export interface CreateVaultInput {
  title: string;
  description: string;
  tags: string[];
  /** Terms of access (plain text for now); '' for none. */
  terms: string;
  isPublic: boolean;
  isCloud: boolean;
}

/** Creates a vault (shown at once as '(Creating...)'); answers its id. */
export async function createVault(input: CreateVaultInput): Promise<string> {
  return (await startVaultCreation(input)).vaultId;
}

/** createVault, answering its operation's id too (to wait for the server's answer: pushAndConfirm). */
export async function startVaultCreation(input: CreateVaultInput): Promise<{ vaultId: string; opId: string }> {
  const { ctx } = requireSync();
  const vaultId = ctx.newId();
  const values: Record<'name' | 'description' | 'tags' | 'terms', string> = {
    name: input.title.trim(),
    description: input.description,
    tags: JSON.stringify(input.tags),
    terms: input.terms,
  };
  let ownerKeys: string | undefined;
  if (!input.isPublic) ownerKeys = (await ctx.crypto.createVaultKeys(vaultId)).sealedKeys;
  const fields = await makeFields(ctx, vaultId, vaultId, input.isPublic, values);
  const record = await queue(
    ctx,
    vaultId,
    vaultId,
    {
      type: 'vault.create',
      isPublic: input.isPublic,
      isCloud: input.isCloud,
      name: fields.name,
      description: fields.description,
      tags: fields.tags,
      ...(input.terms ? { terms: fields.terms } : {}),
      ...(ownerKeys ? { ownerKeys } : {}),
    },
    input.terms ? values : { name: values.name, description: values.description, tags: values.tags },
  );
  return { vaultId, opId: record.opId };
}

/** What the server said of a queued operation after a push: accepted, refused (R9), or not yet. */
export type PushAnswer = { status: 'accepted' } | { status: 'rejected'; code: string; message: string } | { status: 'waiting' };

/**
 * Pushes now and answers what became of operation `opId`: accepted, refused with the server's
 * code (the record stays in the outbox, shown until dismissed: R9), or still waiting when the
 * server could not be reached (local first: it is pushed later, R10). Lets a screen open the
 * spec's dialog for a refusal it is waiting for (VAULT_LIMIT: the upgrade prompt, R101).
 */
export async function pushAndConfirm(opId: string): Promise<PushAnswer> {
  const { client, ctx } = requireSync();
  await client.syncAndConfirm();
  const record = await ctx.db.outbox.get([ctx.accountId, opId]);
  if (!record) return { status: 'accepted' };
  if (record.status === 'rejected' && record.error) return { status: 'rejected', code: record.error.code, message: record.error.message };
  return { status: 'waiting' };
}

export async function renameVault(vaultId: string, name: string): Promise<void> {
  const { ctx } = requireSync();
  const fields = await makeFields(ctx, vaultId, vaultId, await isPublicVault(ctx, vaultId), { name: name.trim() });
  await queue(ctx, vaultId, vaultId, { type: 'vault.rename', name: fields.name }, { name: name.trim() });
}

export async function updateVaultMetadata(vaultId: string, description: string, tags: string[]): Promise<void> {
  const { ctx } = requireSync();
  const values = { description, tags: JSON.stringify(tags) };
  const fields = await makeFields(ctx, vaultId, vaultId, await isPublicVault(ctx, vaultId), values);
  await queue(ctx, vaultId, vaultId, { type: 'vault.updateMetadata', description: fields.description, tags: fields.tags }, values);
}

export async function archiveVault(vaultId: string): Promise<void> {
  const { ctx } = requireSync();
  await queue(ctx, vaultId, vaultId, { type: 'vault.archive' });
}

export async function restoreVault(vaultId: string): Promise<void> {
  const { ctx } = requireSync();
  await queue(ctx, vaultId, vaultId, { type: 'vault.restore' });
}

/** Removes an archived vault. */
export async function deleteVault(vaultId: string): Promise<void> {
  const { ctx } = requireSync();
  await queue(ctx, vaultId, vaultId, { type: 'vault.delete' });
}

// --- folders and files -------------------------------------------------------------------------

async function createFolderIn(ctx: SyncContext, vaultId: string, parentId: string | null, name: string, isPublic: boolean): Promise<string> {
  const folderId = ctx.newId();
  const fields = await makeFields(ctx, vaultId, folderId, isPublic, { name });
  await queue(ctx, vaultId, folderId, { type: 'folder.create', parentId, name: fields.name }, { name });
  return folderId;
}

/** A name refusal (SYNC_SPEC R73): VALIDATION_FAILED on the field `name`, with the text to show there. */
export function nameRefusal(message: string): ApiError {
  return new ApiError('VALIDATION_FAILED', message, [{ path: 'name', message }]);
}

/** The text of a name refusal (nameRefusal), or null for any other error. */
export function nameRefusalText(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_FAILED') return null;
  return error.details?.find((d) => d.path === 'name')?.message ?? null;
}

/**
 * Refuses a name the folder cannot take (SYNC_SPEC R73), checked against the active items this
 * device has of that folder: the server cannot read sealed names, so this is the only check.
 */
export async function assertNameFits(ctx: SyncContext, vaultId: string, parentId: string | null, name: string, selfId?: string): Promise<void> {
  const error = nodeNameError(name, await siblingNames(ctx, vaultId, parentId), selfId);
  if (error) throw nameRefusal(error);
}

/** The names a folder holds for R73: its active items and the new files still uploading into it. */
async function siblingNames(ctx: SyncContext, vaultId: string, parentId: string | null): Promise<SiblingName[]> {
  const children: SiblingName[] = await getChildren(ctx.db, ctx.accountId, vaultId, parentId);
  const uploads = await ctx.db.uploads.where('accountId').equals(ctx.accountId).toArray();
  const present = new Set(children.map((n) => n.id));
  for (const u of uploads) {
    if (u.vaultId === vaultId && u.parentId === parentId && u.isNewFile && u.purpose !== 'nft' && ACTIVE_UPLOAD_STATES.has(u.state) && !present.has(u.fileId)) {
      children.push({ id: u.fileId, name: u.name });
    }
  }
  return children;
}

/** Creates a folder (root when parentId is null); answers its id. Throws nameRefusal for a name it cannot take. */
export async function createFolder(vaultId: string, parentId: string | null, name: string): Promise<string> {
  const { ctx } = requireSync();
  await assertNameFits(ctx, vaultId, parentId, name.trim());
  return createFolderIn(ctx, vaultId, parentId, name.trim(), await isPublicVault(ctx, vaultId));
}

/** Renames a file or folder. Throws nameRefusal for a name its folder cannot take. */
export async function renameNode(vaultId: string, nodeId: string, name: string): Promise<void> {
  const { ctx } = requireSync();
  const node = await ctx.db.nodes.get([ctx.accountId, nodeId]);
  if (node) await assertNameFits(ctx, vaultId, node.parentId, name.trim(), nodeId);
  const fields = await makeFields(ctx, vaultId, nodeId, await isPublicVault(ctx, vaultId), { name: name.trim() });
  await queue(ctx, vaultId, nodeId, { type: 'node.rename', name: fields.name }, { name: name.trim() });
}

/**
 * Moves files and folders to `parentId` (null: root), one operation each, in order. Throws
 * nameRefusal, moving nothing, when one of them would repeat a name there (SYNC_SPEC R73).
 */
export async function moveNodes(vaultId: string, nodeIds: string[], parentId: string | null): Promise<void> {
  const { ctx } = requireSync();
  await assertMoveNamesFit(ctx, vaultId, nodeIds, parentId);
  await queueEach(ctx, vaultId, nodeIds, () => ({ type: 'node.move', parentId }));
}

async function assertMoveNamesFit(ctx: SyncContext, vaultId: string, nodeIds: readonly string[], parentId: string | null): Promise<void> {
  // The items moved in must not repeat a name there, nor each other's.
  const present = await siblingNames(ctx, vaultId, parentId);
  for (const nodeId of nodeIds) {
    const node = await ctx.db.nodes.get([ctx.accountId, nodeId]);
    if (!node || node.parentId === parentId) continue;
    if (findNameClash(node.name, present, node.id)) throw nameRefusal(NAME_TEXTS.takenByMove(node.name));
    present.push(node);
  }
}

/** 'Hide' (revoke): the nodes move to revoked-files. */
export async function hideNodes(vaultId: string, nodeIds: string[]): Promise<void> {
  const { ctx } = requireSync();
  await queueEach(ctx, vaultId, nodeIds, () => ({ type: 'node.hide' }));
}

/**
 * Restores hidden nodes. A node whose parent is gone or still hidden is restored to the root
 * (spec 000 section 4: 'restore (with a move when a parent exists)').
 */
export async function restoreNodes(vaultId: string, nodeIds: string[]): Promise<void> {
  const { ctx } = requireSync();
  const restoring = new Set(nodeIds);
  const bodies = new Map<string, OperationBody>();
  for (const nodeId of nodeIds) {
    const node = await ctx.db.nodes.get([ctx.accountId, nodeId]);
    const parent = node?.parentId ? await ctx.db.nodes.get([ctx.accountId, node.parentId]) : undefined;
    const isParentUsable = !node?.parentId || (parent && (parent.status === 'ACTIVE' || restoring.has(parent.id)));
    bodies.set(nodeId, isParentUsable ? { type: 'node.restore' } : { type: 'node.restore', parentId: null });
  }
  await queueEach(ctx, vaultId, nodeIds, (nodeId) => bodies.get(nodeId)!);
}

/** Deletes hidden nodes ('Delete' in cloud vaults, 'Clear' in permanent ones). */
export async function deleteNodes(vaultId: string, nodeIds: string[]): Promise<void> {
  const { ctx } = requireSync();
  await queueEach(ctx, vaultId, nodeIds, () => ({ type: 'node.delete' }));
}

/** Drops a rejected operation (after the user read its error) and rebuilds its vault. */
export async function dismissRejection(opId: string): Promise<void> {
  const { client } = requireSync();
  await client.dismissRejection(opId);
}

// --- uploads and downloads ---------------------------------------------------------------------

export interface UploadItem {
  file: File;
  /** Folder names from a folder pick, outermost first (relative to `parentId`). */
  path?: string[];
  /** Adds a version to this file instead of creating one. */
  replaceFileId?: string;
  /** Name override, e.g. 'report copy.pdf' for 'Keep both'. */
  name?: string;
}

/** .DS_Store and other dot entries are skipped in folder uploads (spec 000 section 5). */
function isSkipped(item: UploadItem): boolean {
  const name = item.name ?? item.file.name;
  return name.startsWith('.') || (item.path ?? []).some((segment) => segment.startsWith('.'));
}

/**
 * Queues uploads: creates the folders a folder pick needs and `emptyFolders` (reusing active
 * folders of the same name), then one UploadRecord per file. Answers the batch id that groups them in useUploads(),
 * and, once the copies are written, the names of the files this device could not keep a copy of
 * (see queueUploads).
 */
export async function uploadFiles(
  vaultId: string,
  parentId: string | null,
  items: UploadItem[],
  /** Folders to create even though no file goes in them (an unpacked zip's empty folders). */
  emptyFolders: readonly (readonly string[])[] = [],
): Promise<{ batchId: string; notKept: Promise<string[]> }> {
  const { ctx } = requireSync();
  const isPublic = await isPublicVault(ctx, vaultId);
  const batchId = ctx.newId();
  const folderIds = new Map<string, string | null>([['', parentId]]);

  const ensureFolder = async (path: readonly string[]): Promise<string | null> => {
    let parent = parentId;
    for (let depth = 1; depth <= path.length; depth++) {
      const key = JSON.stringify(path.slice(0, depth));
      const known = folderIds.get(key);
      if (known !== undefined) {
        parent = known;
        continue;
      }
      const name = uploadSafeName(path[depth - 1]!);
      const children = await namesIn(parent);
      // An active folder of the same name (R73: case aside) takes the pick's files; a file of that name makes way for 'name copy'.
      const existing = (await getChildren(ctx.db, ctx.accountId, vaultId, parent)).find((n) => n.kind === 'folder' && isSameName(n.name, name));
      if (existing) parent = existing.id;
      else {
        const free = findNameClash(name, children) ? keepBothName(name, children.map((n) => n.name)) : name;
        parent = await createFolderIn(ctx, vaultId, parent, free, isPublic);
        children.push({ id: parent, name: free });
      }
      folderIds.set(key, parent);
    }
    return parent;
  };
  // Names per destination folder, loaded once and grown as this batch adds to it.
  const namesByFolder = new Map<string | null, SiblingName[]>();
  const namesIn = async (folder: string | null): Promise<SiblingName[]> => {
    let names = namesByFolder.get(folder);
    if (!names) {
      names = await siblingNames(ctx, vaultId, folder);
      namesByFolder.set(folder, names);
    }
    return names;
  };

  const uploads: NewUpload[] = [];
  for (const item of items) {
    if (isSkipped(item)) continue;
    const folderId = item.path?.length ? await ensureFolder(item.path) : parentId;
    let name = item.name ?? item.file.name;
    if (!item.replaceFileId) {
      // The last guard of R73, whatever the dialogs decided: a new file never repeats a name of its
      // folder (a folder pick merging into an existing folder, two picks racing) nor carries
      // characters a download could not save.
      const names = await namesIn(folderId);
      name = uploadSafeName(name);
      if (findNameClash(name, names)) name = keepBothName(name, names.map((n) => n.name));
      names.push({ id: '', name });
    }
    uploads.push({
      vaultId,
      parentId: folderId,
      file: item.file,
      name,
      ...(item.replaceFileId ? { replaceFileId: item.replaceFileId } : {}),
      batchId,
    });
  }
  for (const path of emptyFolders) if (!path.some((segment) => segment.startsWith('.'))) await ensureFolder(path);
  const { notKept } = await queueUploads(ctx, uploads);
  ctx.requestUploads();
  return { batchId, notKept: notKept.then((records) => records.map((record) => record.name)) };
}

/**
 * Cancels an upload that is not finished (queued, uploading, paused or resuming; a finalising
 * one is as good as done). The queue stops sending it and releases its reservation on the server
 * as soon as the server can be reached (see uploadQueue.ts).
 */
export async function cancelUpload(uploadId: string): Promise<void> {
  const { ctx } = requireSync();
  await ctx.db.uploads.where('[accountId+uploadId]').equals([ctx.accountId, uploadId]).modify((r) => {
    if (!isCancellable(r.state)) return;
    r.state = 'cancelled';
    r.isReleased = false;
  });
  ctx.requestUploads();
}

/** Queues a failed or cancelled upload again; it resumes from the chunks the server has. */
export async function retryUpload(uploadId: string): Promise<void> {
  const { ctx } = requireSync();
  await ctx.db.uploads.where('[accountId+uploadId]').equals([ctx.accountId, uploadId]).modify((r) => {
    if (r.state === 'failed' || r.state === 'cancelled') {
      r.state = 'queued';
      r.error = null;
    }
  });
  ctx.requestUploads();
}

/**
 * Downloads a file version (the latest by default) as one Blob, every chunk checked against the
 * signed chunk hashes. A tampered chunk rejects with DownloadError code 'CHUNK_TAMPERED' and
 * CHUNK_TAMPERED_MESSAGE. For previews: a file saved to disk goes through `openDownload`.
 */
export async function downloadFile(vaultId: string, fileId: string, versionId?: string, onProgress?: DownloadProgress): Promise<Blob> {
  const { ctx } = requireSync();
  return downloadFileVersion(ctx, vaultId, fileId, versionId, onProgress);
}

/**
 * Downloads a version named by a verified operation rather than a file (an NFT's asset, R140),
 * every chunk checked against its signed hash as a file's are.
 */
export async function downloadOpVersion(vaultId: string, version: DownloadableVersion): Promise<Blob> {
  const { ctx } = requireSync();
  return downloadVersion(ctx, vaultId, version);
}

/**
 * Opens a file version (the latest by default) for a streamed download: its size and type, and a
 * `pump` that hands its verified plaintext on chunk by chunk, in order, with backpressure.
 */
export async function openDownload(vaultId: string, fileId: string, versionId?: string): Promise<FileVersionDownload> {
  const { ctx } = requireSync();
  return openFileVersionDownload(ctx, vaultId, fileId, versionId);
}

/**
 * GET /vaults/{id}/storage: the bytes an upload by this user into the vault may still reserve.
 * Uploads are charged to the vault's owner and capped by an airdrop link's allowance, so this,
 * not the user's own figures, is what an upload into someone else's vault must fit.
 */
export async function getVaultUploadRoom(vaultId: string): Promise<number> {
  const { ctx } = requireSync();
  return (await ctx.api.get(`/vaults/${vaultId}/storage`, VaultStorageResponse)).available;
}
