/**
 * Vault-side rows as the services see them. Only this module maps `vaults`, `memberships`, `nodes`
 * and `blobs` rows to domain objects; services load through these functions, inside or outside
 * a transaction (a Transaction is a Kysely).
 */
import type { Kysely, Selectable } from 'kysely';
import { NodeKind, NodeStatus, Role, VaultStatus } from '../../src/protocol/vaults';
import type { BlobsTable, Database, MembershipsTable, NodesTable, VaultsTable } from '../db/Database';
import { fromDbBool } from '../db/dbBool';

export type Db = Kysely<Database>;

export const MembershipStatus = ['ACCEPTED', 'PENDING', 'INVITED', 'REJECTED', 'REVOKED'] as const;
export type MembershipStatus = (typeof MembershipStatus)[number];

/** Statuses of a membership that has ended: no reads, no pokes, no key ring. */
export const REMOVED_STATUSES = ['REVOKED', 'REJECTED'] as const satisfies readonly MembershipStatus[];

/** Whether the membership has ended (revoked, left or rejected). */
export function isRemoved(membership: Pick<Membership, 'role' | 'status'>): boolean {
  return membership.role === 'REVOKED' || membership.status === 'REVOKED' || membership.status === 'REJECTED';
}

export interface Vault {
  id: string;
  ownerUserId: string;
  isPublic: boolean;
  isCloud: boolean;
  status: VaultStatus;
  headSeq: number;
  size: number;
  /** Keys in the ring (0 for public vaults); sealed fields must use the newest, `keyCount - 1`. */
  keyCount: number;
  /** A member left and the key has not been rotated yet. */
  needsRotation: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface Membership {
  id: string;
  vaultId: string;
  userId: string;
  role: Role;
  status: MembershipStatus;
  keys: string | null;
  invitedByUserId: string | null;
  /** Airdrop memberships end then (ms). */
  expiresAt: number | null;
  storageAllowance: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface VaultNode {
  id: string;
  vaultId: string;
  kind: NodeKind;
  parentId: string | null;
  status: NodeStatus;
  size: number;
  versionCount: number;
  latestVersionId: string | null;
}

export type BlobStatus = 'reserved' | 'committed';

export interface Blob {
  id: string;
  vaultId: string;
  uploaderUserId: string;
  chargedUserId: string;
  isCloud: boolean;
  storedSize: number;
  chunkCount: number;
  status: BlobStatus;
  nodeId: string | null;
  versionId: string | null;
  createdAt: number;
  expiresAt: number;
  /** An imported version's signed chunk hashes while its bytes may still be uploaded (SYNC_SPEC R93), else null. */
  importHashes: string[] | null;
}

export function toVault(row: Selectable<VaultsTable>): Vault {
  return {
    id: row.id,
    ownerUserId: row.owner_user_id,
    isPublic: fromDbBool(row.is_public),
    isCloud: fromDbBool(row.is_cloud),
    status: VaultStatus.parse(row.status),
    headSeq: Number(row.head_seq),
    size: Number(row.size),
    keyCount: Number(row.key_count),
    needsRotation: fromDbBool(row.needs_rotation),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function toMembership(row: Selectable<MembershipsTable>): Membership {
  return {
    id: row.id,
    vaultId: row.vault_id,
    userId: row.user_id,
    role: Role.parse(row.role),
    status: parseMembershipStatus(row.status),
    keys: row.keys,
    invitedByUserId: row.invited_by_user_id,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    storageAllowance: row.storage_allowance === null ? null : Number(row.storage_allowance),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function toNode(row: Selectable<NodesTable>): VaultNode {
  return {
    id: row.id,
    vaultId: row.vault_id,
    kind: NodeKind.parse(row.kind),
    parentId: row.parent_id,
    status: NodeStatus.parse(row.status),
    size: Number(row.size),
    versionCount: Number(row.version_count),
    latestVersionId: row.latest_version_id,
  };
}

export function toBlob(row: Selectable<BlobsTable>): Blob {
  return {
    id: row.id,
    vaultId: row.vault_id,
    uploaderUserId: row.uploader_user_id,
    chargedUserId: row.charged_user_id,
    isCloud: fromDbBool(row.is_cloud),
    storedSize: Number(row.stored_size),
    chunkCount: Number(row.chunk_count),
    status: row.status === 'committed' ? 'committed' : 'reserved',
    nodeId: row.node_id,
    versionId: row.version_id,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    importHashes: row.import_hashes ? (JSON.parse(row.import_hashes) as string[]) : null,
  };
}

function parseMembershipStatus(value: string): MembershipStatus {
  const found = MembershipStatus.find((s) => s === value);
  if (!found) throw new Error(`Unknown membership status ${value}`);
  return found;
}

export async function findVault(db: Db, vaultId: string): Promise<Vault | null> {
  const row = await db.selectFrom('vaults').selectAll().where('id', '=', vaultId).executeTakeFirst();
  return row ? toVault(row) : null;
}

export async function findMembership(db: Db, vaultId: string, userId: string): Promise<Membership | null> {
  const row = await db
    .selectFrom('memberships')
    .selectAll()
    .where('vault_id', '=', vaultId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? toMembership(row) : null;
}

export async function findMembershipById(db: Db, vaultId: string, membershipId: string): Promise<Membership | null> {
  const row = await db.selectFrom('memberships').selectAll().where('id', '=', membershipId).where('vault_id', '=', vaultId).executeTakeFirst();
  return row ? toMembership(row) : null;
}

export async function findNode(db: Db, vaultId: string, nodeId: string): Promise<VaultNode | null> {
  const row = await db.selectFrom('nodes').selectAll().where('id', '=', nodeId).where('vault_id', '=', vaultId).executeTakeFirst();
  return row ? toNode(row) : null;
}

export async function findBlob(db: Db, blobId: string): Promise<Blob | null> {
  const row = await db.selectFrom('blobs').selectAll().where('id', '=', blobId).executeTakeFirst();
  return row ? toBlob(row) : null;
}

/** The stored chunks of a blob, ascending by index. */
export async function listChunks(db: Db, blobId: string): Promise<{ index: number; size: number; sha256: string }[]> {
  const rows = await db.selectFrom('blob_chunks').selectAll().where('blob_id', '=', blobId).orderBy('idx').execute();
  return rows.map((r) => ({ index: Number(r.idx), size: Number(r.size), sha256: r.sha256 }));
}
