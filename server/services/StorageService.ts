/**
 * Storage allowances and use (spec 000 section 3, Storage). Use is counted from the blobs charged
 * to an account (the vault owner's), split by the vault's kind: committed blobs and reservations
 * that have not expired; and the operation logs of the vaults it owns, as cloud storage. The
 * people of an organisation draw on one allowance, its creator's, so their uses are counted
 * together (AllowanceService.poolOf, R126).
 */
import { operationRule } from '../../src/protocol/operationRules';
import { ApiError } from '../../src/protocol/errors';
import type { OperationType, StorageResponse } from '../../src/protocol/vaults';
import type { AllowanceService } from './AllowanceService';
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

/** NOT_ENOUGH_STORAGE for an operation: spec 000 section 8's text says "file", which this is not. */
export const OPERATION_STORAGE_MESSAGE =
  "This change exceeds the storage limit on the vault owner's account. The owner can top up or upgrade their subscription plan to add more storage.";

export class StorageService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly allowances: AllowanceService,
  ) {}

  /**
   * The account's allowance for a vault kind. A passwordless (airdrop) account has none of its
   * own: it uploads only into the vault of its link, charged to that vault's owner and capped by
   * the link's allowance (spec 001 section 4).
   */
  async allowanceOf(userId: string, isCloud: boolean, db: Db = this.db): Promise<number> {
    if (await isPasswordless(db, userId)) return 0;
    // The account's plan, its extras, or the operator's figure for it (AllowanceService, R100).
    const allowance = await this.allowances.allowanceOf(userId, db);
    return isCloud ? allowance.cloud : allowance.permanent;
  }

  /**
   * Bytes charged to `userId`, or to anyone of its organisation, who all draw on one allowance
   * (R126), read through `db` (a transaction when reserving).
   */
  async usedBy(userId: string, db: Db = this.db): Promise<{ cloud: number; permanent: number; cloudLog: number; permanentLog: number }> {
    const now = this.clock.now();
    const pool = await this.allowances.poolOf(userId, db);
    const rows = await db
      .selectFrom('blobs')
      .select((eb) => ['is_cloud', eb.fn.sum<number>('stored_size').as('bytes')])
      .where('charged_user_id', 'in', pool)
      .where((eb) => eb.or([eb('status', '=', 'committed'), eb('expires_at', '>', now)]))
      .groupBy('is_cloud')
      .execute();
    const used = { cloud: 0, permanent: 0, cloudLog: await this.operationBytesOf(pool, db), permanentLog: await this.historyBytesOf(pool, db) };
    for (const row of rows) {
      if (Number(row.is_cloud) === 1) used.cloud += Number(row.bytes);
      else used.permanent += Number(row.bytes);
    }
    used.cloud += used.cloudLog;
    used.permanent += used.permanentLog;
    return used;
  }

  /**
   * The history runs (SYNC_SPEC R84) of the permanent vaults the `pool`'s accounts own: their data
   * is stored on the network like a file version's, so it is permanent storage charged to the owner.
   */
  private async historyBytesOf(pool: string[], db: Db): Promise<number> {
    const row = await db
      .selectFrom('storage_transactions')
      .innerJoin('vaults', 'vaults.id', 'storage_transactions.vault_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('storage_transactions.size'), eb.lit(0)).as('bytes'))
      .where('vaults.owner_user_id', 'in', pool)
      .where('storage_transactions.kind', '=', 'history')
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  /**
   * The operation logs of every vault the `pool`'s accounts own, deleted ones included: the server keeps them
   * (docs/decisions.md, "Operation bytes"). Cloud storage, whatever the vault's kind. A running
   * total per vault (`vaults.op_bytes`), so this reads one row per vault, not the logs.
   */
  private async operationBytesOf(pool: string[], db: Db): Promise<number> {
    const row = await db
      .selectFrom('vaults')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('op_bytes'), eb.lit(0)).as('bytes'))
      .where('owner_user_id', 'in', pool)
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  /**
   * Inside an operation's transaction, before it is appended: refuses it with NOT_ENOUGH_STORAGE
   * when its `bodyBytes` do not fit the vault owner's cloud storage, unless it frees storage or
   * only takes access away (`isAlwaysStored` in OPERATION_RULES), which a full account must still be able
   * to do.
   */
  async assertRoomForOperation(db: Db, ownerUserId: string, type: OperationType, bodyBytes: number): Promise<void> {
    if (operationRule(type).isAlwaysStored) return;
    const used = await this.cloudUsedFromTotals(ownerUserId, db);
    if (bodyBytes > (await this.allowanceOf(ownerUserId, true, db)) - used) throw new ApiError('NOT_ENOUGH_STORAGE', OPERATION_STORAGE_MESSAGE);
  }

  /**
   * `usedBy(userId).cloud`, from running totals rather than a sum over every blob: each pushed
   * operation asks, and summing the blobs of an account holding 70,000 took 60 ms per operation.
   * Committed bytes are the owned cloud vaults' `size` (kept with each commit and free, and
   * uploads are charged to the vault owner); live reservations are few, read by index
   * (blobs_charged_status, migration 0007).
   */
  private async cloudUsedFromTotals(userId: string, db: Db): Promise<number> {
    const pool = await this.allowances.poolOf(userId, db);
    const vaults = await db
      .selectFrom('vaults')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('is_cloud', '=', 1).then(eb.ref('size')).else(0).end()), eb.lit(0)).as('committed'),
        eb.fn.coalesce(eb.fn.sum<number>('op_bytes'), eb.lit(0)).as('ops'),
      ])
      .where('owner_user_id', 'in', pool)
      .executeTakeFirstOrThrow();
    const reserved = await db
      .selectFrom('blobs')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('stored_size'), eb.lit(0)).as('bytes'))
      .where('charged_user_id', 'in', pool)
      .where('status', '=', 'reserved')
      .where('expires_at', '>', this.clock.now())
      .where('is_cloud', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(vaults.committed) + Number(vaults.ops) + Number(reserved.bytes);
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
      cloudLogUsed: used.cloudLog,
      permanentLogUsed: used.permanentLog,
    };
  }
}
