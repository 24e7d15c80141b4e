/**
 * One vault's projection held in memory while src/sync applies operations to it, and the Dexie
 * reads and writes around it. Loading the whole vault keeps folder sizes and version numbers
 * simple to derive; writing back touches only what changed. Call both inside one Dexie
 * transaction over `vaults`, `nodes`, `versions` and `memos` so a page of operations lands atomically.
 *
 * Every write of a projection stamps the vault record with a fresh `projectionStamp`. A pull that
 * applies many pages keeps its state in memory between them (`reuseHeldVaultState`): as long as
 * the stored stamp is the one it wrote last, nobody else (the outbox, a rebuild, a pull in another
 * tab) has touched the vault's nodes or versions, so reading the whole vault again would give
 * exactly what it holds.
 */
import type { CairnDb } from './db';
import type { MemoRecord, NodeRecord, VaultRecord, VersionRecord } from './vaultRecords';

export interface VaultState {
  accountId: string;
  vault: VaultRecord;
  /** By node id. */
  nodes: Map<string, NodeRecord>;
  /** By version id. */
  versions: Map<string, VersionRecord>;
  /**
   * Version ids by file id: an index of `versions` (kept in step by `setVersion`), so adding a
   * version to one file does not scan every version of the vault.
   */
  versionsByFile: Map<string, Set<string>>;
  /** Chat messages by memo id (private vaults). */
  memos: Map<string, MemoRecord>;
  dirtyNodes: Set<string>;
  dirtyVersions: Set<string>;
  dirtyMemos: Set<string>;
  isVaultDirty: boolean;
}

/** A vault record before anything is known of it but its id. */
export function emptyVaultRecord(accountId: string, vaultId: string): VaultRecord {
  return {
    accountId,
    vaultId,
    name: '',
    description: '',
    tags: [],
    terms: '',
    isPublic: false,
    isCloud: true,
    status: 'ACTIVE',
    role: 'OWNER',
    membershipStatus: 'ACCEPTED',
    ownerAddress: '',
    size: 0,
    createdAt: 0,
    updatedAt: 0,
    cursor: 0,
    headSeq: 0,
    isPending: false,
  };
}

export function newVaultState(vault: VaultRecord, nodes: NodeRecord[] = [], versions: VersionRecord[] = [], memos: MemoRecord[] = []): VaultState {
  const state: VaultState = {
    accountId: vault.accountId,
    vault,
    nodes: new Map(nodes.map((n) => [n.id, n])),
    versions: new Map(),
    versionsByFile: new Map(),
    memos: new Map(memos.map((m) => [m.memoId, m])),
    dirtyNodes: new Set(),
    dirtyVersions: new Set(),
    dirtyMemos: new Set(),
    isVaultDirty: false,
  };
  for (const version of versions) setVersion(state, version);
  return state;
}

/** Stores `version` in `state` (not marking it dirty), keeping the by-file index in step. */
export function setVersion(state: VaultState, version: VersionRecord): void {
  const previous = state.versions.get(version.versionId);
  if (previous && previous.fileId !== version.fileId) state.versionsByFile.get(previous.fileId)?.delete(version.versionId);
  state.versions.set(version.versionId, version);
  let ids = state.versionsByFile.get(version.fileId);
  if (!ids) {
    ids = new Set();
    state.versionsByFile.set(version.fileId, ids);
  }
  ids.add(version.versionId);
}

/** The versions of file `fileId` held in `state`, in no particular order. */
export function versionsOfFile(state: VaultState, fileId: string): VersionRecord[] {
  return [...(state.versionsByFile.get(fileId) ?? [])].map((id) => state.versions.get(id)!);
}

/**
 * A stamp that no other write of the projection will repeat. Not a secret; Math.random rather
 * than crypto.randomUUID, which pages served over plain http (a self-hosted LAN address) lack.
 */
function newProjectionStamp(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}

/** Reads a vault's projection; a vault not yet stored starts empty. */
export async function loadVaultState(db: CairnDb, accountId: string, vaultId: string): Promise<VaultState> {
  const [vault, nodes, versions, memos] = await Promise.all([
    db.vaults.get([accountId, vaultId]),
    db.nodes.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray(),
    db.versions.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray(),
    db.memos.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray(),
  ]);
  const state = newVaultState(vault ?? emptyVaultRecord(accountId, vaultId), nodes, versions, memos);
  state.isVaultDirty = !vault;
  return state;
}

/**
 * `held` (this vault's state as its holder last saved it), brought up to date with `stored`, the
 * vault record just read in the current transaction; or null when it cannot be trusted and the
 * projection must be read again with `loadVaultState`. It can be trusted while the stored stamp is
 * the one `held` wrote: nobody (the outbox, a rebuild, a pull in another tab) wrote the vault's
 * nodes or versions since. The stored record replaces `held.vault`, since GET /vaults may have
 * refreshed its server fields (role, size, head).
 *
 * Synchronous on purpose: inside a Dexie transaction, every extra level of native async functions
 * between Dexie calls risks losing the transaction's zone (a PrematureCommitError).
 */
export function reuseHeldVaultState(held: VaultState | null, stored: VaultRecord | undefined): VaultState | null {
  const isCurrent =
    held !== null &&
    stored !== undefined &&
    held.accountId === stored.accountId &&
    held.vault.vaultId === stored.vaultId &&
    stored.projectionStamp !== undefined &&
    stored.projectionStamp === held.vault.projectionStamp &&
    !held.isVaultDirty &&
    held.dirtyNodes.size === 0 &&
    held.dirtyVersions.size === 0 &&
    held.dirtyMemos.size === 0;
  if (!isCurrent) return null;
  held.vault = stored;
  return held;
}

/**
 * Writes back what applying operations changed, then clears the dirty marks. Anything written
 * also writes the vault record with a new `projectionStamp`.
 */
export async function saveVaultState(db: CairnDb, state: VaultState): Promise<void> {
  if (!state.isVaultDirty && !state.dirtyNodes.size && !state.dirtyVersions.size && !state.dirtyMemos.size) return;
  state.vault.projectionStamp = newProjectionStamp();
  await db.vaults.put(state.vault);
  if (state.dirtyNodes.size) await db.nodes.bulkPut([...state.dirtyNodes].map((id) => state.nodes.get(id)!));
  if (state.dirtyVersions.size) await db.versions.bulkPut([...state.dirtyVersions].map((id) => state.versions.get(id)!));
  if (state.dirtyMemos.size) await db.memos.bulkPut([...state.dirtyMemos].map((id) => state.memos.get(id)!));
  state.dirtyNodes.clear();
  state.dirtyVersions.clear();
  state.dirtyMemos.clear();
  state.isVaultDirty = false;
}

/** Replaces a vault's nodes, versions and memos wholesale (rebuilds). Keeps the vault record's server fields. */
export async function replaceVaultState(db: CairnDb, state: VaultState): Promise<void> {
  const key = [state.accountId, state.vault.vaultId];
  await db.nodes.where('[accountId+vaultId]').equals(key).delete();
  await db.versions.where('[accountId+vaultId]').equals(key).delete();
  await db.memos.where('[accountId+vaultId]').equals(key).delete();
  state.vault.projectionStamp = newProjectionStamp();
  await db.vaults.put(state.vault);
  await db.nodes.bulkPut([...state.nodes.values()]);
  await db.versions.bulkPut([...state.versions.values()]);
  await db.memos.bulkPut([...state.memos.values()]);
  state.dirtyNodes.clear();
  state.dirtyVersions.clear();
  state.dirtyMemos.clear();
  state.isVaultDirty = false;
}

/** The tables a projection transaction needs. */
export function projectionTables(db: CairnDb) {
  return [db.vaults, db.nodes, db.versions, db.memos, db.opPages, db.outbox, db.uploads];
}
