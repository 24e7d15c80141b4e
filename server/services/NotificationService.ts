/**
 * The caller's notifications (spec 000 sections 3, 4 and 7): list by cursor, mark read (one, one
 * vault's, all), delete (one, the READ ones, all). Every query is scoped to the caller's own rows:
 * someone else's notification is NOT_FOUND, never touched. After an operation commits,
 * `deliver` sends what it wrote to the recipient's sockets through the bus (docs/SYNC_SPEC.md
 * R31) and e-mails recipients who turned e-mail notifications on (R30: one per coalesced run).
 */
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../src/protocol/errors';
import {
  Notification,
  type NotificationEvent,
  type NotificationListQuery,
  type NotificationListResponse,
  NOTIFICATIONS_MAX,
} from '../../src/protocol/members';
import { fromDbBool } from '../db/dbBool';
import { inBatches } from '../db/inBatches';
import { activityMail } from '../mail/messages';
import type { MailPort } from '../mail/MailPort';
import type { NotificationBus } from '../realtime/NotificationBus';
import type { NotifiedRow } from './ops/OpContext';
import type { Db } from './vaultRows';

/** What an activity e-mail says happened, in general words (no names: R30). */
const MAIL_WHAT: Partial<Record<NotificationEvent, string>> = {
  STACK_CREATE: 'uploaded a file',
  STACK_UPLOAD_REVISION: 'uploaded a new version of a file',
  STACK_MOVE: 'moved a file',
  STACK_UPDATE: 'renamed a file',
  STACK_REVOKE: 'hid a file',
  STACK_RESTORE: 'restored a file',
  STACK_DELETE: 'deleted a file',
  FOLDER_CREATE: 'created a folder',
  FOLDER_MOVE: 'moved a folder',
  FOLDER_UPDATE: 'renamed a folder',
  FOLDER_REVOKE: 'hid a folder',
  FOLDER_RESTORE: 'restored a folder',
  VAULT_UPDATE: 'renamed a vault',
  VAULT_UPDATE_METADATA: 'updated the description of a vault',
  VAULT_ARCHIVE: 'archived a vault',
  VAULT_RESTORE: 'restored a vault',
  VAULT_DELETE: 'deleted a vault',
  MEMO_CREATE: 'posted a message',
  ADD_REACTION: 'reacted to a message',
  REMOVE_REACTION: 'removed a reaction from a message',
};

export class NotificationService {
  constructor(
    private readonly db: Db,
    private readonly bus: Pick<NotificationBus, 'publish'> | null,
    private readonly mailer: MailPort,
    private readonly publicUrl: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  /** One page of the caller's notifications, newest first (createdAt, then id). */
  async list(userId: string, query: NotificationListQuery = {}): Promise<NotificationListResponse> {
    const limit = query.limit ?? NOTIFICATIONS_MAX;
    let select = this.rows().where('n.user_id', '=', userId);
    if (query.before) {
      const dot = query.before.indexOf('.');
      const createdAt = Number(query.before.slice(0, dot));
      const id = query.before.slice(dot + 1);
      select = select.where((eb) => eb.or([eb('n.created_at', '<', createdAt), eb.and([eb('n.created_at', '=', createdAt), eb('n.id', '<', id)])]));
    }
    const rows = await select.orderBy('n.created_at', 'desc').orderBy('n.id', 'desc').limit(limit + 1).execute();
    const notifications = rows.slice(0, limit).map(toNotification);
    const last = notifications.at(-1);
    return { notifications, nextCursor: rows.length > limit && last ? `${last.createdAt}.${last.id}` : null };
  }

  /** Marks one (NOT_FOUND unless the caller's), one vault's, or all of the caller's notifications READ. */
  async markRead(userId: string, target: { id?: string; vaultId?: string | undefined }): Promise<void> {
    let update = this.db.updateTable('notifications').set({ status: 'READ' }).where('user_id', '=', userId);
    if (target.id !== undefined) update = update.where('id', '=', target.id);
    if (target.vaultId !== undefined) update = update.where('vault_id', '=', target.vaultId);
    const result = await update.executeTakeFirst();
    if (target.id !== undefined && Number(result.numUpdatedRows) === 0) throw new ApiError('NOT_FOUND', 'Notification not found');
  }

  /** Deletes one (NOT_FOUND unless the caller's), the caller's READ ones, or all of the caller's. */
  async delete(userId: string, target: { id?: string; status?: 'READ' | undefined }): Promise<void> {
    let remove = this.db.deleteFrom('notifications').where('user_id', '=', userId);
    if (target.id !== undefined) remove = remove.where('id', '=', target.id);
    if (target.status !== undefined) remove = remove.where('status', '=', target.status);
    const result = await remove.executeTakeFirst();
    if (target.id !== undefined && Number(result.numDeletedRows) === 0) throw new ApiError('NOT_FOUND', 'Notification not found');
  }

  /**
   * After a commit: each written or grown row goes to its recipient's sockets; a new row of vault
   * activity is also e-mailed when the recipient has e-mail notifications on. Failures are logged:
   * the rows are committed and the client reloads them anyway.
   */
  async deliver(notified: NotifiedRow[]): Promise<void> {
    if (notified.length === 0) return;
    try {
      const ids = [...new Set(notified.map((row) => row.id))];
      // One push may notify every member of a large vault for each of its operations: bound
      // each `in` list (server/db/inBatches.ts).
      const byId = new Map<string, ReturnType<typeof toNotification>>();
      for (const batch of inBatches(ids)) {
        for (const row of await this.rows().where('n.id', 'in', batch).execute()) byId.set(row.id, toNotification(row));
      }
      for (const row of notified) {
        const notification = byId.get(row.id);
        if (notification) this.bus?.publish({ userId: row.userId, notification });
      }
      const mailed = notified.filter((row) => row.isNew && MAIL_WHAT[byId.get(row.id)?.event ?? 'SERIOUS_ISSUE']);
      if (mailed.length === 0) return;
      const recipients = [];
      for (const batch of inBatches([...new Set(mailed.map((row) => row.userId))])) {
        recipients.push(...(await this.db.selectFrom('users').select(['id', 'email', 'notifications', 'passwordless']).where('id', 'in', batch).execute()));
      }
      const byUser = new Map(recipients.map((user) => [user.id, user]));
      for (const row of mailed) {
        const user = byUser.get(row.userId);
        const notification = byId.get(row.id);
        const what = notification && MAIL_WHAT[notification.event];
        if (!user || !what || !fromDbBool(user.notifications) || fromDbBool(user.passwordless)) continue;
        await this.mailer.send(activityMail({ to: user.email, fromEmail: notification.fromEmail, what, link: `${this.publicUrl}/notifications` }));
      }
    } catch (error) {
      this.log.warn({ err: error }, 'notifications not delivered');
    }
  }

  private rows() {
    return this.db
      .selectFrom('notifications as n')
      .leftJoin('users as f', 'f.id', 'n.from_user_id')
      .select(['n.id', 'n.event', 'n.object_type', 'n.object_id', 'n.vault_id', 'n.status', 'n.created_at', 'n.count', 'n.priority', 'f.email', 'f.passwordless']);
  }
}

function toNotification(row: {
  id: string;
  event: string;
  object_type: string;
  object_id: string;
  vault_id: string | null;
  status: string;
  created_at: number;
  count: number;
  priority: string;
  email: string | null;
  passwordless: number | null;
}): Notification {
  return Notification.parse({
    id: row.id,
    event: row.event,
    objectType: row.object_type,
    objectId: row.object_id,
    vaultId: row.vault_id,
    fromEmail: row.email !== null && row.passwordless !== null && !fromDbBool(row.passwordless) ? row.email : null,
    status: row.status,
    createdAt: Number(row.created_at),
    count: Number(row.count),
    priority: row.priority,
  });
}
