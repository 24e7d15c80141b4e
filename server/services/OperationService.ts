/**
 * Pushes: each operation is checked (author, signature, idempotency) and then applied in its own
 * transaction: role and state checks, the structural change, and the append to the vault's log
 * with seq = head_seq + 1. A rejected operation changes nothing and does not stop the others.
 */
import type { FastifyBaseLogger } from 'fastify';
import { canonicalJson } from '../../src/protocol/canonical';
import { ApiError } from '../../src/protocol/errors';
import { OPERATION_RULES } from '../../src/protocol/operationRules';
import { type Operation, operationSigningPayload, type PushResult } from '../../src/protocol/vaults';
import type { BlobStore } from '../blobs/BlobStore';
import type { PokeBus } from '../realtime/PokeBus';
import { isTransientDbError } from '../db/isTransientDbError';
import { isUniqueViolation } from '../db/isUniqueViolation';
import type { Clock } from './Clock';
import { assertFieldsMatchVault, assertSealedUnderNewestKey } from './ops/fieldRules';
import { applyMemberOp, isMemberOp } from './ops/memberOps';
import { applyMemoOp, isMemoOp } from './ops/memoOps';
import { applyNftOp, isNftOp } from './ops/nftOps';
import { applyNodeOp } from './ops/nodeOps';
import { applyNoteOp, isNoteOp } from './ops/noteOps';
import { notifyVaultActivity } from './ops/activityNotifications';
import type { NotificationService } from './NotificationService';
import type { StorageService } from './StorageService';
import type { NotifiedRow, OpContext } from './ops/OpContext';
import { applyVaultOp, createVault } from './ops/vaultOps';
import { assertMemberLimit, assertVaultLimit, type LimitsPort } from './ops/planLimits';
import { verifySignedPayload } from './signatures';
import { assertRole, vaultNotFound } from './vaultAccess';
import { type Db, findMembership, findVault } from './vaultRows';

export interface Author {
  id: string;
  publicSigningKey: string;
}

export interface OperationServiceOptions {
  /** Where an operation that failed unexpectedly is logged, with its stack. */
  log?: Pick<FastifyBaseLogger, 'error'>;
  /** Charges each operation's bytes to the vault owner's cloud storage (docs/decisions.md, "Operation bytes"). */
  storage?: Pick<StorageService, 'assertRoomForOperation'>;
  /** The plans' vault and member limits (AllowanceService; SYNC_SPEC R101, R102); unset: none. */
  limits?: LimitsPort;
  /** After a push: the operations it applied (not repeats), in order, for the webhooks' events (issue 24). */
  onAccepted?: (authorId: string, accepted: { op: Operation; seq: number }[]) => Promise<void>;
}

/** The rejection of an operation whose apply failed unexpectedly: nothing about the cause leaks. */
export const INTERNAL_REJECTION = { code: 'INTERNAL', message: 'The server could not apply this change.' } as const;

export class OperationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly blobStore: BlobStore,
    private readonly pokes?: Pick<PokeBus, 'publish'>,
    private readonly notifications?: Pick<NotificationService, 'deliver'>,
    private readonly options: OperationServiceOptions = {},
  ) {}

  /**
   * `invitations`: set only by POST /vaults/{vaultId}/invitations (MemberService.invite), which
   * checks the member limit and e-mails each invitee. Through the general push a member.invite is
   * refused, so neither can be skipped.
   */
  async push(author: Author, ops: Operation[], { invitations = false }: { invitations?: boolean } = {}): Promise<PushResult[]> {
    const results: PushResult[] = [];
    // One poke per vault per push, with its newest seq (docs/SYNC_SPEC.md R3).
    const newest = new Map<string, number>();
    const notified: NotifiedRow[] = [];
    const accepted: { op: Operation; seq: number }[] = [];
    try {
      for (const op of ops) {
        if (op.body.type === 'member.invite' && !invitations) {
          const message = 'Invitations are sent with POST /vaults/{vaultId}/invitations';
          results.push({ id: op.id, status: 'rejected', error: { code: 'INVALID_OPERATION', message } });
          continue;
        }
        const { result, isNew, notified: rows } = await this.pushOne(author, op);
        results.push(result);
        notified.push(...rows);
        if (result.status === 'accepted' && isNew) {
          newest.set(result.vaultId, Math.max(result.seq, newest.get(result.vaultId) ?? 0));
          accepted.push({ op, seq: result.seq });
        }
      }
    } finally {
      // Pokes first: every member's device pulls at once, while the notifications (one row per
      // member, often e-mail too) are read back and sent after.
      for (const [vaultId, seq] of newest) this.pokes?.publish({ vaultId, seq });
      await this.notifications?.deliver(notified);
      if (accepted.length > 0) await this.options.onAccepted?.(author.id, accepted);
    }
    return results;
  }

  /** The result, and whether this push applied the operation (not a repeat). */
  private async pushOne(author: Author, op: Operation): Promise<{ result: PushResult; isNew: boolean; notified: NotifiedRow[] }> {
    try {
      if (op.author !== author.publicSigningKey) throw new ApiError('FORBIDDEN', 'The operation is not authored by this account');
      const { signature, ...unsigned } = op;
      if (!verifySignedPayload(author.publicSigningKey, operationSigningPayload(unsigned), signature)) {
        throw new ApiError('INVALID_SIGNATURE', 'The operation signature does not verify');
      }
      const body = canonicalJson(op);
      const known = await this.findApplied(op.id, body);
      if (known) return { result: known, isNew: false, notified: [] };
      try {
        const { seq, freedKeys, notified } = await this.db.transaction().execute((trx) => this.apply(trx, author.id, op, body));
        // After the commit: a rolled-back operation must never lose bytes, nor notify anyone.
        await this.deleteFreed(op, freedKeys);
        return { result: { id: op.id, status: 'accepted', vaultId: op.vaultId, seq }, isNew: true, notified };
      } catch (error) {
        // The same id pushed concurrently: the other push won; answer as a repeat.
        if (isUniqueViolation(error)) {
          const repeated = await this.findApplied(op.id, body);
          if (repeated) return { result: repeated, isNew: false, notified: [] };
          throw new ApiError('INVALID_OPERATION', 'The object id is already used');
        }
        throw error;
      }
    } catch (error) {
      if (error instanceof ApiError) return { result: { id: op.id, status: 'rejected', error: { code: error.code, message: error.message } }, isNew: false, notified: [] };
      // The database was down, busy or lost a deadlock: nothing is wrong with the operation, so
      // the push answers 5xx and the device pushes it again later (R10); repeats are idempotent.
      if (isTransientDbError(error)) throw error;
      // Anything else is the server's fault (a database limit, a bug). Its transaction rolled back,
      // so refusing this one operation is true; throwing would answer the whole push 500 and the
      // device would push the same batch again forever, stalling every change queued behind it.
      this.options.log?.error({ err: error, opId: op.id, vaultId: op.vaultId, type: op.body.type }, 'operation failed unexpectedly');
      return { result: { id: op.id, status: 'rejected', error: { ...INTERNAL_REJECTION } }, isNew: false, notified: [] };
    }
  }

  /** Chunk files freed by a committed operation. A failure leaves orphan files, logged; the operation stands. */
  private async deleteFreed(op: Operation, keys: string[]): Promise<void> {
    for (const key of keys) {
      try {
        await this.blobStore.delete(key);
      } catch (error) {
        this.options.log?.error({ err: error, opId: op.id, key }, 'freed chunk not deleted');
      }
    }
  }

  /** An already-applied id answers with its original seq; the same id with other content is a conflict. */
  private async findApplied(opId: string, body: string): Promise<PushResult | null> {
    const row = await this.db.selectFrom('ops').select(['vault_id', 'seq', 'body']).where('op_id', '=', opId).executeTakeFirst();
    if (!row) return null;
    if (row.body !== body) throw new ApiError('CONFLICT', 'Another operation with this id was already applied');
    return { id: opId, status: 'accepted', vaultId: row.vault_id, seq: Number(row.seq) };
  }

  /**
   * Applies one operation of an imported history (SYNC_SPEC R92) inside the import's transaction,
   * by the same rules as a push, at the time it was first received and without telling anyone.
   * The caller has verified the signature and resolved the author's account. Answers its seq.
   */
  async applyImported(trx: Db, userId: string, op: Operation, receivedAt: number): Promise<number> {
    const { seq } = await this.apply(trx, userId, op, canonicalJson(op), receivedAt);
    return seq;
  }

  private async apply(
    trx: Db,
    userId: string,
    op: Operation,
    body: string,
    importedAt?: number,
  ): Promise<{ seq: number; freedKeys: string[]; notified: NotifiedRow[] }> {
    const importing = importedAt !== undefined;
    const now = importedAt ?? this.clock.now();
    const notified: NotifiedRow[] = [];
    const ctx: OpContext = { trx, op, userId, now, freedKeys: [], notified, importing };
    // The vault owner's account pays for the log; a new vault's owner is its author.
    let ownerUserId = userId;
    if (op.body.type === 'vault.create') {
      assertFieldsMatchVault(op.body, op.body.isPublic);
      assertSealedUnderNewestKey(op.body, { keyCount: op.body.isPublic ? 0 : 1, needsRotation: false });
      await createVault(ctx, op.body);
      if (this.options.limits) await assertVaultLimit(trx, this.options.limits, userId);
    } else {
      // Takes the vault row's write lock first (a no-op update, portable to SQLite), so two
      // operations on one vault are checked and sequenced one after the other on PostgreSQL.
      await trx.updateTable('vaults').set((eb) => ({ head_seq: eb.ref('head_seq') })).where('id', '=', op.vaultId).execute();
      const vault = await findVault(trx, op.vaultId);
      if (!vault) throw vaultNotFound();
      // A vault whose history is being imported takes only its next runs (SYNC_SPEC R91).
      if (!importing && (await trx.selectFrom('vault_imports').select('vault_id').where('vault_id', '=', vault.id).where('status', '=', 'IN_PROGRESS').executeTakeFirst())) {
        throw new ApiError('CONFLICT', 'The vault is being imported: try again once its import is done');
      }
      const rule = OPERATION_RULES[op.body.type];
      assertRole(await findMembership(trx, vault.id, userId), rule.access, now);
      if (vault.status === 'DELETED') throw new ApiError('INVALID_OPERATION', 'The vault is deleted');
      if (vault.status === 'ARCHIVED' && !rule.whenArchived) {
        throw new ApiError('VAULT_ARCHIVED', 'The vault is archived');
      }
      assertFieldsMatchVault(op.body, vault.isPublic);
      assertSealedUnderNewestKey(op.body, vault);
      ownerUserId = vault.ownerUserId;
      const vaultCtx = { ...ctx, vault };
      if (isMemberOp(op.body)) {
        await applyMemberOp(vaultCtx, op.body);
        const addsMember = op.body.type === 'member.invite' || op.body.type === 'member.airdrop';
        if (addsMember && this.options.limits) await assertMemberLimit(trx, this.options.limits, vault);
      } else if (isMemoOp(op.body)) await applyMemoOp(vaultCtx, op.body);
      else if (op.body.type.startsWith('vault.')) await applyVaultOp(vaultCtx, op.body);
      else if (isNoteOp(op.body)) await applyNoteOp(vaultCtx, op.body);
      else if (isNftOp(op.body)) await applyNftOp(vaultCtx, op.body);
      else await applyNodeOp(vaultCtx, op.body);
      // Member operations write their own notifications; the rest tell the members (SYNC_SPEC R30).
      if (!isMemberOp(op.body) && !importing) await notifyVaultActivity(vaultCtx);
    }
    const bodyBytes = Buffer.byteLength(body);
    await this.options.storage?.assertRoomForOperation(trx, ownerUserId, op.body.type, bodyBytes);
    const updated = await trx
      .updateTable('vaults')
      .set((eb) => ({ head_seq: eb('head_seq', '+', 1), updated_at: now, op_bytes: eb('op_bytes', '+', bodyBytes) }))
      .where('id', '=', op.vaultId)
      .returning('head_seq')
      .executeTakeFirstOrThrow();
    const seq = Number(updated.head_seq);
    await trx
      .insertInto('ops')
      .values({
        vault_id: op.vaultId,
        seq,
        op_id: op.id,
        author_user_id: userId,
        type: op.body.type,
        object_id: op.objectId,
        body,
        body_bytes: bodyBytes,
        received_at: now,
      })
      .execute();
    return { seq, freedKeys: ctx.freedKeys, notified };
  }
}
