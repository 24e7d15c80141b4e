/**
 * The caller's webhook and its delivery log (issue 24; spec 002 sections 3, 4, 7 and 9), and the
 * events that queue deliveries. One webhook per account. An event is queued only when its user has
 * a webhook; WebhookDispatcher sends it. Events carry ids only: the server knows no name or content
 * of a private vault, and it sends none of a public vault either, so one rule covers both.
 *
 * Which moments are events (docs/decisions.md "The developer API (issue 24): webhooks"):
 * - `file.uploaded`: the account's own upload landed (its `file.create` or `file.addVersion`
 *   operation was accepted), to the uploader's webhook;
 * - `storage.transaction.committed`: a permanent upload of the account reached COMMITTED, to the
 *   uploader's webhook (the relay's change notice);
 * - `member.joined`: someone accepted an invitation to a vault the account owns, to each owner's.
 */
import crypto from 'node:crypto';
import type net from 'node:net';
import { ApiError } from '../../src/protocol/errors';
import type { StorageTransaction } from '../../src/protocol/arweave';
import {
  type NewWebhook,
  type Webhook,
  WEBHOOK_LOG_BODY_MAX,
  type WebhookEvent,
  WebhookLog,
  type WebhookLogPage,
  type WebhookPayload,
} from '../../src/protocol/developers';
import type { Operation } from '../../src/protocol/vaults';
import type { Kysely, Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable } from '../db/Database';
import { fromDbBool } from '../db/dbBool';
import type { Clock } from '../services/Clock';
import { resolveWebhookTarget, type Resolver, WebhookTargetError } from './webhookTarget';
import { newWebhookSecret } from './webhookSignature';

/** An operation a push applied, as OperationService reports it after the commit. */
export interface AcceptedOperation {
  op: Operation;
  seq: number;
}

export interface WebhookServiceOptions {
  /** WEBHOOK_ALLOWED_ADDRESSES as a list (webhookTarget.ts). */
  allowed: net.BlockList;
  /** Host name resolution; the system's by default. */
  resolve?: Resolver;
  log: { warn(object: unknown, message?: string): void };
}

export class WebhookService {
  private readonly queuedListeners = new Set<() => void>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly options: WebhookServiceOptions,
  ) {}

  /** Configures the caller's webhook (CONFLICT when there is one) and answers its secret, this once. */
  async create(userId: string, url: string): Promise<NewWebhook> {
    try {
      await resolveWebhookTarget(url, this.options.allowed, this.options.resolve);
    } catch (error) {
      if (error instanceof WebhookTargetError) throw new ApiError('VALIDATION_FAILED', error.message, [{ path: 'url', message: error.message }]);
      throw error;
    }
    const existing = await this.db.selectFrom('webhooks').select('id').where('user_id', '=', userId).executeTakeFirst();
    if (existing) throw new ApiError('CONFLICT', 'A webhook is already configured: remove it before configuring another');
    const row = { id: crypto.randomUUID(), user_id: userId, url, secret: newWebhookSecret(), created_at: this.clock.now() };
    try {
      await this.db.insertInto('webhooks').values(row).execute();
    } catch (error) {
      // Two POSTs at once: the unique index on user_id lets one through.
      if (await this.db.selectFrom('webhooks').select('id').where('user_id', '=', userId).where('id', '!=', row.id).executeTakeFirst()) {
        throw new ApiError('CONFLICT', 'A webhook is already configured: remove it before configuring another');
      }
      throw error;
    }
    return { webhook: toWebhook(row), secret: row.secret };
  }

  async list(userId: string): Promise<{ items: Webhook[] }> {
    const rows = await this.db.selectFrom('webhooks').select(['id', 'url', 'created_at']).where('user_id', '=', userId).execute();
    return { items: rows.map(toWebhook) };
  }

  /** Removes the caller's webhook with its queued deliveries and log; anyone else's is NOT_FOUND. */
  async remove(userId: string, webhookId: string): Promise<void> {
    const result = await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', webhookId).where('user_id', '=', userId).execute();
      return trx.deleteFrom('webhooks').where('id', '=', webhookId).where('user_id', '=', userId).executeTakeFirst();
    });
    if (Number(result.numDeletedRows) === 0) throw new ApiError('NOT_FOUND', 'Webhook not found');
  }

  /**
   * One page of the caller's delivery log, newest first. The cursor is the last entry's
   * (attempted_at, id): entries logged meanwhile are newer than it, so pages neither repeat nor
   * skip one.
   */
  async logs(userId: string, query: { limit: number; nextToken?: string | undefined }): Promise<WebhookLogPage> {
    let select = this.db.selectFrom('webhook_deliveries').selectAll().where('user_id', '=', userId).where('attempted_at', 'is not', null);
    if (query.nextToken !== undefined) {
      const cursor = decodeCursor(query.nextToken);
      select = select.where((eb) =>
        eb.or([eb('attempted_at', '<', cursor.at), eb.and([eb('attempted_at', '=', cursor.at), eb('id', '<', cursor.id)])]),
      );
    }
    const rows = await select.orderBy('attempted_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map(toWebhookLog),
      nextToken: rows.length > query.limit && last ? encodeCursor(Number(last.attempted_at), last.id) : null,
    };
  }

  /** One log entry of `userId`, for the live push; null when it is gone or not an attempt yet. */
  async logEntry(userId: string, logId: string): Promise<WebhookLog | null> {
    const row = await this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', logId).where('user_id', '=', userId).executeTakeFirst();
    return row && row.attempted_at !== null ? toWebhookLog(row) : null;
  }

  /** Calls `listener` whenever a delivery is queued (the dispatcher wakes). Answers the unsubscribe. */
  onQueued(listener: () => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  /**
   * Queues `event` for the webhook of each of `userIds` that has one. `data` is ids only (see the
   * module comment); a failure is logged and never fails what caused the event.
   */
  async emit(userIds: readonly string[], event: WebhookEvent, data: WebhookPayload['data']): Promise<void> {
    if (userIds.length === 0) return;
    try {
      const hooks = await this.db.selectFrom('webhooks').select(['id', 'user_id']).where('user_id', 'in', [...new Set(userIds)]).execute();
      if (hooks.length === 0) return;
      const now = this.clock.now();
      const payload: WebhookPayload = { type: event, timestamp: new Date(now).toISOString(), data };
      await this.db
        .insertInto('webhook_deliveries')
        .values(
          hooks.map((hook) => ({
            id: crypto.randomUUID(),
            webhook_id: hook.id,
            user_id: hook.user_id,
            event,
            event_id: `msg_${crypto.randomUUID()}`,
            payload: JSON.stringify(payload),
            attempt: 1,
            url: null,
            status_code: null,
            response_body: null,
            created_at: now,
            next_attempt_at: now,
            attempted_at: null,
          })),
        )
        .execute();
      for (const listener of this.queuedListeners) listener();
    } catch (error) {
      this.options.log.warn({ err: error, event }, 'webhook event not queued');
    }
  }

  /** After a push commits: the account's own uploads, and invitations accepted into owners' vaults. */
  async operationsAccepted(authorId: string, accepted: readonly AcceptedOperation[]): Promise<void> {
    try {
      await this.queueOperationEvents(authorId, accepted);
    } catch (error) {
      this.options.log.warn({ err: error }, 'webhook events of a push not queued');
    }
  }

  private async queueOperationEvents(authorId: string, accepted: readonly AcceptedOperation[]): Promise<void> {
    for (const { op } of accepted) {
      const body = op.body;
      if (body.type === 'file.create' || body.type === 'file.addVersion') {
        await this.emit([authorId], 'file.uploaded', {
          vaultId: op.vaultId,
          fileId: op.objectId,
          versionId: body.version.versionId,
          blobId: body.version.blobId,
          operationId: op.id,
        });
      } else if (body.type === 'member.accept') {
        const owners = await this.db
          .selectFrom('memberships')
          .select('user_id')
          .where('vault_id', '=', op.vaultId)
          .where('role', '=', 'OWNER')
          .where('status', '=', 'ACCEPTED')
          .where('user_id', '!=', authorId)
          .execute();
        await this.emit(
          owners.map((owner) => owner.user_id),
          'member.joined',
          { vaultId: op.vaultId, membershipId: op.objectId },
        );
      }
    }
  }

  /** The relay's change notice: a COMMITTED permanent upload is an event for its uploader. */
  async storageTransactionChanged(transaction: StorageTransaction, uploaderUserId: string): Promise<void> {
    if (transaction.status !== 'COMMITTED') return;
    await this.emit([uploaderUserId], 'storage.transaction.committed', {
      transactionId: transaction.id,
      vaultId: transaction.vaultId,
      fileId: transaction.fileId,
      versionId: transaction.versionId,
      dataItemId: transaction.dataItemId,
      arweaveTxId: transaction.txId,
    });
  }
}

function toWebhook(row: { id: string; url: string; created_at: number }): Webhook {
  return { id: row.id, url: row.url, createdAt: Number(row.created_at) };
}

function toWebhookLog(row: Selectable<WebhookDeliveriesTable>): WebhookLog {
  return WebhookLog.parse({
    id: row.id,
    webhookId: row.webhook_id,
    deliveryStatus: fromDbBool(row.delivered),
    event: row.event,
    createdAt: Number(row.attempted_at ?? row.created_at),
    url: row.url ?? '',
    attempt: row.attempt,
    requestBody: row.payload.slice(0, WEBHOOK_LOG_BODY_MAX),
    responseBody: (row.response_body ?? '').slice(0, WEBHOOK_LOG_BODY_MAX),
    responseStatusCode: row.status_code,
  });
}

function encodeCursor(at: number, id: string): string {
  return Buffer.from(`${at}.${id}`, 'utf8').toString('base64url');
}

function decodeCursor(token: string): { at: number; id: string } {
  const text = Buffer.from(token, 'base64url').toString('utf8');
  const dot = text.indexOf('.');
  const at = Number(text.slice(0, dot));
  const id = text.slice(dot + 1);
  if (dot <= 0 || !Number.isSafeInteger(at) || id.length === 0) throw new ApiError('VALIDATION_FAILED', 'Invalid nextToken', [{ path: 'nextToken', message: 'Invalid nextToken' }]);
  return { at, id };
}
