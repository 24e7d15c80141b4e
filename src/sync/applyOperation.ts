/**
 * Maps one opened operation onto a vault's projection (vault, node and version records). Pure:
 * no I/O, no clock, no randomness; it mutates only the in-memory `VaultState` it is given and
 * marks what changed, so the same operations in the same order always give the same records
 * (rebuild.ts relies on that). Applying an operation twice gives the same result as once: a
 * pulled copy of an operation already applied optimistically from the outbox changes nothing.
 */
import type { OpenedFields } from '../../workers/crypto/CryptoApi';
import type { FileVersion, Operation, UnsignedOperation } from '../protocol/vaults';
import { setVersion, versionsOfFile, type VaultState } from '../storage/vaultProjection';
import type { NodeRecord, VersionRecord } from '../storage/vaultRecords';
import { applyMemoOperation, clearMemoPending } from './applyMemoOperation';

/** An operation to project: pulled (verified, with its server time) or pending in the outbox. */
export interface ProjectedOperation {
  op: Operation | UnsignedOperation;
  fields: OpenedFields;
  /** Server time for pulled operations, the author's clock for pending ones. */
  time: number;
  /** Still in the outbox: marks the touched node (and a created vault) as pending. */
  isPending: boolean;
  /** The server's seq, for pulled operations (chat order, R22). */
  seq?: number;
}

function text(value: string | null | undefined, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function parseTags(value: string | null | undefined, fallback: string[]): string[] {
  if (typeof value !== 'string') return fallback;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : fallback;
  } catch {
    return fallback;
  }
}

function touchNode(state: VaultState, node: NodeRecord, entry: ProjectedOperation): void {
  if (entry.isPending && !node.pendingOpIds.includes(entry.op.id)) node.pendingOpIds = [...node.pendingOpIds, entry.op.id];
  node.updatedAt = Math.max(node.updatedAt, entry.time);
  state.dirtyNodes.add(node.id);
}

function newNode(state: VaultState, id: string, kind: NodeRecord['kind'], parentId: string | null, time: number): NodeRecord {
  return {
    accountId: state.accountId,
    vaultId: state.vault.vaultId,
    id,
    kind,
    parentId,
    parentKey: parentId ?? '',
    name: '',
    status: 'ACTIVE',
    size: 0,
    mimeType: '',
    versionCount: 0,
    latestVersionId: null,
    createdAt: time,
    updatedAt: time,
    pendingOpIds: [],
    rejection: null,
  };
}

function setParent(node: NodeRecord, parentId: string | null): void {
  node.parentId = parentId;
  node.parentKey = parentId ?? '';
}

/** Recomputes a file node's version-derived fields from the versions held in `state`. */
function refreshFileVersions(state: VaultState, file: NodeRecord): void {
  const versions = versionsOfFile(state, file.id);
  versions.sort((a, b) => a.number - b.number);
  const latest = versions.at(-1);
  file.versionCount = versions.length;
  file.latestVersionId = latest?.versionId ?? null;
  file.size = latest?.size ?? 0;
  file.mimeType = latest?.mimeTypeText ?? '';
}

function addVersion(state: VaultState, file: NodeRecord, entry: ProjectedOperation, version: FileVersion): void {
  const existing = state.versions.get(version.versionId);
  const number =
    existing?.number ??
    1 + versionsOfFile(state, file.id).reduce((max, v) => Math.max(max, v.number), 0);
  const record: VersionRecord = {
    ...version,
    accountId: state.accountId,
    vaultId: state.vault.vaultId,
    fileId: file.id,
    mimeTypeText: text(entry.fields.mimeType, existing?.mimeTypeText ?? 'application/octet-stream'),
    authorKey: entry.op.author,
    createdAt: entry.isPending ? (existing?.createdAt ?? entry.time) : entry.time,
    number,
  };
  setVersion(state, record);
  state.dirtyVersions.add(version.versionId);
  refreshFileVersions(state, file);
}

/** Applies `entry` to `state` in place. Operations on unknown nodes are ignored. */
export function applyOperation(state: VaultState, entry: ProjectedOperation): void {
  const { op, fields, time } = entry;
  const body = op.body;
  const vault = state.vault;
  const markVault = () => {
    vault.updatedAt = Math.max(vault.updatedAt, time);
    state.isVaultDirty = true;
  };

  switch (body.type) {
    case 'vault.create':
      vault.name = text(fields.name, vault.name);
      vault.description = text(fields.description, vault.description);
      vault.tags = parseTags(fields.tags, vault.tags);
      vault.terms = text(fields.terms, vault.terms);
      vault.isPublic = body.isPublic;
      vault.isCloud = body.isCloud;
      if (!vault.createdAt) vault.createdAt = time;
      vault.isPending = entry.isPending;
      markVault();
      return;
    case 'vault.rename':
      vault.name = text(fields.name, vault.name);
      markVault();
      return;
    case 'vault.updateMetadata':
      vault.description = text(fields.description, vault.description);
      vault.tags = parseTags(fields.tags, vault.tags);
      markVault();
      return;
    case 'vault.archive':
      vault.status = 'ARCHIVED';
      markVault();
      return;
    case 'vault.restore':
      vault.status = 'ACTIVE';
      markVault();
      return;
    case 'vault.delete':
      vault.status = 'DELETED';
      markVault();
      return;
    // Membership changes: who belongs to the vault, and the signed-in user's own role and status,
    // are the server's answer (GET /vaults, GET /vaults/{id}/members), fetched after a pull that
    // brings these; the projection of content does not change.
    case 'member.invite':
    case 'member.confirm':
    case 'member.accept':
    case 'member.reject':
    case 'member.changeRole':
    case 'member.revoke':
    case 'member.leave':
    case 'member.airdrop':
    case 'vault.rotateKeys':
      return;
    case 'memo.create':
    case 'memo.react':
      applyMemoOperation(state, entry, body);
      return;
    // A note's draft is not part of the file tree: its updates are kept by the pull
    // (src/storage/noteDraftStore.ts) and applied by the note editor (SYNC_SPEC R26).
    case 'note.draft':
      return;
    case 'folder.create':
    case 'file.create': {
      const kind = body.type === 'folder.create' ? 'folder' : 'file';
      let node = state.nodes.get(op.objectId);
      if (!node) {
        node = newNode(state, op.objectId, kind, body.parentId, time);
        state.nodes.set(node.id, node);
      }
      node.name = text(fields.name, node.name);
      setParent(node, body.parentId);
      // The server's time replaces the optimistic one, so pulls and rebuilds agree.
      if (!entry.isPending) node.createdAt = time;
      if (body.type === 'file.create') addVersion(state, node, entry, body.version);
      touchNode(state, node, entry);
      return;
    }
    default: {
      const node = state.nodes.get(op.objectId);
      if (!node) return;
      switch (body.type) {
        case 'file.addVersion':
          if (node.kind === 'file') addVersion(state, node, entry, body.version);
          break;
        case 'node.rename':
          node.name = text(fields.name, node.name);
          break;
        case 'node.move':
          setParent(node, body.parentId);
          break;
        case 'node.hide':
          node.status = 'REVOKED';
          break;
        case 'node.restore':
          node.status = 'ACTIVE';
          if (body.parentId !== undefined) setParent(node, body.parentId);
          break;
        case 'node.delete':
          node.status = 'DELETED';
          break;
      }
      touchNode(state, node, entry);
    }
  }
}

/**
 * Sets every folder's `size` to the total of the ACTIVE files below it through ACTIVE folders
 * (what the folder info drawer shows). Run once after a batch of operations.
 */
export function computeFolderSizes(state: VaultState): void {
  const totals = new Map<string, number>();
  for (const node of state.nodes.values()) {
    if (node.kind !== 'file' || node.status !== 'ACTIVE') continue;
    const seen = new Set<string>();
    let parentId = node.parentId;
    while (parentId && !seen.has(parentId)) {
      seen.add(parentId);
      const parent = state.nodes.get(parentId);
      if (!parent || parent.status !== 'ACTIVE') break;
      totals.set(parentId, (totals.get(parentId) ?? 0) + node.size);
      parentId = parent.parentId;
    }
  }
  for (const node of state.nodes.values()) {
    if (node.kind !== 'folder') continue;
    const size = totals.get(node.id) ?? 0;
    if (node.size !== size) {
      node.size = size;
      state.dirtyNodes.add(node.id);
    }
  }
}

/** Drops `opId` from pending marks once the server accepted it. */
export function clearPending(state: VaultState, opId: string, isVaultCreate: boolean): void {
  for (const node of state.nodes.values()) {
    if (node.pendingOpIds.includes(opId)) {
      node.pendingOpIds = node.pendingOpIds.filter((id) => id !== opId);
      state.dirtyNodes.add(node.id);
    }
  }
  clearMemoPending(state, opId);
  if (isVaultCreate && state.vault.isPending) {
    state.vault.isPending = false;
    state.isVaultDirty = true;
  }
}
