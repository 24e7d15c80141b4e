/**
 * Storage allowances and use (spec 000 section 3, Storage). Use is counted from the blobs charged
 * to an account (the vault owner's), split by the vault's kind: committed blobs and reservations
 * that have not expired.
 */
import { type StorageResponse, VAULT_LIMITS } from '../../src/protocol/vaults';
import type { Clock } from './Clock';
import { isPasswordless } from './ops/passwordlessRules';
import { requireAccess } from './vaultAccess';
import type { Db, Membership, Vault } from './vaultRows';

/** What one member's uploads into one vault may still reserve, in bytes (negative: over). */
export interface UploadRoom {
  /** The vault owner's remaining allowance for the vault's kind (uploads are charged to them). */
  owner: number;
  /** What is left of an airdrop member's allowance in this vault; null: no cap of their own. */
  member: number | null;
}

export interface StorageAllowances {
  cloud: number;
  permanent: number;
}

/** Every account's allowance until plans and top-ups exist (a later issue). */
export const DEFAULT_ALLOWANCES: StorageAllowances = {
  cloud: VAULT_LIMITS.FREE_CLOUD_BYTES,
  permanent: VAULT_LIMITS.FREE_PERMANENT_BYTES,
};

export class StorageService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly allowances: StorageAllowances = DEFAULT_ALLOWANCES,
  ) {}

  /**
   * The account's allowance for a vault kind. A passwordless (airdrop) account has none of its
   * own: it uploads only into the vault of its link, charged to that vault's owner and capped by
   * the link's allowance (spec 001 section 4).
   */
  async allowanceOf(userId: string, isCloud: boolean, db: Db = this.db): Promise<number> {
    if (await isPasswordless(db, userId)) return 0;
    return isCloud ? this.allowances.cloud : this.allowances.permanent;
  }

  /** Bytes charged to `userId`, read through `db` (a transaction when reserving). */
  async usedBy(userId: string, db: Db = this.db): Promise<{ cloud: number; permanent: number }> {
    const now = this.clock.now();
    const rows = await db
      .selectFrom('blobs')
      .select((eb) => ['is_cloud', eb.fn.sum<number>('stored_size').as('bytes')])
      .where('charged_user_id', '=', userId)
      .where((eb) => eb.or([eb('status', '=', 'committed'), eb('expires_at', '>', now)]))
      .groupBy('is_cloud')
      .execute();
    const used = { cloud: 0, permanent: 0 };
    for (const row of rows) {
      if (Number(row.is_cloud) === 1) used.cloud += Number(row.bytes);
      else used.permanent += Number(row.bytes);
    }
    return used;
  }

  /**
   * Bytes `userId` holds in one vault: their committed uploads and their live reservations. An
   * airdrop member's uploads count against their membership's allowance (BlobService.announce).
   */
  async uploadedBy(userId: string, vaultId: string, db: Db = this.db): Promise<number> {
    const now = this.clock.now();
    const row = await db
      .selectFrom('blobs')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('stored_size'), eb.lit(0)).as('bytes'))
      .where('uploader_user_id', '=', userId)
      .where('vault_id', '=', vaultId)
      .where((eb) => eb.or([eb('status', '=', 'committed'), eb('expires_at', '>', now)]))
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  /**
   * Room for `membership`'s uploads into `vault`, read through `db` (the announcing transaction,
   * so the check and the reservation see the same rows).
   */
  async roomFor(vault: Vault, membership: Membership, db: Db = this.db): Promise<UploadRoom> {
    const used = await this.usedBy(vault.ownerUserId, db);
    const owner = (await this.allowanceOf(vault.ownerUserId, vault.isCloud, db)) - (vault.isCloud ? used.cloud : used.permanent);
    if (membership.storageAllowance === null) return { owner, member: null };
    return { owner, member: membership.storageAllowance - (await this.uploadedBy(membership.userId, vault.id, db)) };
  }

  /**
   * GET /vaults/{id}/storage: what an upload by `userId` into the vault may still reserve, the
   * smaller of the owner's room and the member's own. Only those who may upload ask (write
   * access); whether the vault is open is the upload's own check (VAULT_ARCHIVED).
   */
  async availableIn(userId: string, vaultId: string): Promise<number> {
    const { vault, membership } = await requireAccess(this.db, vaultId, userId, 'write', this.clock.now());
    const room = await this.roomFor(vault, membership);
    return Math.max(0, Math.min(room.owner, room.member ?? room.owner));
  }

  async summary(userId: string): Promise<StorageResponse> {
    const used = await this.usedBy(userId);
    return {
      cloudTotal: await this.allowanceOf(userId, true),
      cloudUsed: used.cloud,
      permanentTotal: await this.allowanceOf(userId, false),
      permanentUsed: used.permanent,
    };
  }
}
