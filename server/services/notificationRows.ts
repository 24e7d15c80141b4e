/**
 * One new UNREAD notification row (spec 000 section 3; SYNC_SPEC R30), written in the caller's
 * transaction so the event and its notification exist together or not at all. Membership events,
 * vault activity and referral rewards all write theirs here; the caller hands the answered row to
 * NotificationService.deliver after its commit.
 */
import type { NotificationEvent, NotificationObjectType } from '../../src/protocol/members';
import type { NotifiedRow } from './ops/OpContext';
import { randomId } from './tokens';
import type { Db } from './vaultRows';

export interface NewNotification {
  recipientId: string;
  /** Null for an event outside any vault (a referral reward). */
  vaultId: string | null;
  event: NotificationEvent;
  objectType: NotificationObjectType;
  objectId: string;
  /** Who caused it. */
  fromUserId: string;
  now: number;
}

export async function insertNotificationRow(trx: Db, row: NewNotification): Promise<NotifiedRow> {
  const id = randomId();
  await trx
    .insertInto('notifications')
    .values({
      id,
      user_id: row.recipientId,
      vault_id: row.vaultId,
      event: row.event,
      object_type: row.objectType,
      object_id: row.objectId,
      from_user_id: row.fromUserId,
      status: 'UNREAD',
      created_at: row.now,
      count: 1,
      priority: 'NORMAL',
      updated_at: null,
    })
    .execute();
  return { id, userId: row.recipientId, isNew: true };
}
