/**
 * One vault's projection held in memory while src/sync applies operations to it, and the Dexie
 * reads and writes around it. Loading the whole vault keeps folder sizes and version numbers
 * simple to derive; writing back touches only what changed. Call both inside one Dexie
 * transaction over `vaults`, `nodes` and `versions` so a page of operations lands atomically.
 */
import type { CairnDb } from './db';
import type { NodeRecord, VaultRecord, VersionRecord } from './vaultRecords';

export interface VaultState {
  accountId: string;
  vault: VaultRecord;
  /** By node id. */
  nodes: Map<string, NodeRecord>;
  /** By version id. */
  versions: Map<string, VersionRecord>;
  dirtyNodes: Set<string>;
  dirtyVersions: Set<string>;
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

export function newVaultState(vault: VaultRecord, nodes: NodeRecord[] = [], versions: VersionRecord[] = []): VaultState {
  return {
    accountId: vault.accountId,
    vault,
    nodes: new Map(nodes.map((n) => [n.id, n])),
    versions: new Map(versions.map((v) => [v.versionId, v])),
    dirtyNodes: new Set(),
    dirtyVersions: new Set(),
    isVaultDirty: false,
  };
}

/** Reads a vault's projection; a vault not yet stored starts empty. */
export async function loadVaultState(db: CairnDb, accountId: string, vaultId: string): Promise<VaultState> {
  const [vault, nodes, versions] = await Promise.all([
    db.vaults.get([accountId, vaultId]),
    db.nodes.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray(),
    db.versions.where('[accountId+vaultId]').equals([accountId, vaultId]).toArray(),
  ]);
  const state = newVaultState(vault ?? emptyVaultRecord(accountId, vaultId), nodes, versions);
  state.isVaultDirty = !vault;
  return state;
}

/** Writes back what applying operations changed, then clears the dirty marks. */
export async function saveVaultState(db: CairnDb, state: VaultState): Promise<void> {
  if (state.isVaultDirty) await db.vaults.put(state.vault);
  if (state.dirtyNodes.size) await db.nodes.bulkPut([...state.dirtyNodes].map((id) => state.nodes.get(id)!));
  if (state.dirtyVersions.size) await db.versions.bulkPut([...state.dirtyVersions].map((id) => state.versions.get(id)!));
  state.dirtyNodes.clear();
  state.dirtyVersions.clear();
  state.isVaultDirty = false;
}

/** Replaces a vault's nodes and versions wholesale (rebuilds). Keeps the vault record's server fields. */
export async function replaceVaultState(db: CairnDb, state: VaultState): Promise<void> {
  const key = [state.accountId, state.vault.vaultId];
  await db.nodes.where('[accountId+vaultId]').equals(key).delete();
  await db.versions.where('[accountId+vaultId]').equals(key).delete();
  await db.vaults.put(state.vault);
  await db.nodes.bulkPut([...state.nodes.values()]);
  await db.versions.bulkPut([...state.versions.values()]);
  state.dirtyNodes.clear();
  state.dirtyVersions.clear();
  state.isVaultDirty = false;
}

/** The tables a projection transaction needs. */
export function projectionTables(db: CairnDb) {
  return [db.vaults, db.nodes, db.versions, db.ops, db.outbox, db.uploads];
}
