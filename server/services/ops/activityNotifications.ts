/**
 * Notifications of vault activity (spec 000 section 3, docs/SYNC_SPEC.md R30), written in the
 * operation's own transaction so an event and its notifications exist together or not at all.
 * Every ACCEPTED member but the author hears of it (viewers too). Rows carry ids only: the
 * server never knows a private vault's names, so clients resolve them from their projection.
 *
 * A run of the same event by the same author in the same vault is one row with a `count` while
 * the recipient's latest such row is UNREAD and younger than COALESCE_WINDOW_MS: a batch of 500
 * uploads is one notification (and at most one e-mail), not 500.
 */
import { insertNotificationRow } from '../notificationRows';
import type { NotificationEvent, NotificationObjectType } from '../../../src/protocol/members';
import { OPERATION_RULES } from '../../../src/protocol/operationRules';
import type { OperationBody } from '../../../src/protocol/vaults';
import { findNode } from '../vaultRows';
import type { VaultOpContext } from './OpContext';

export const COALESCE_WINDOW_MS = 10 * 60 * 1000;

export interface ActivityEvent {
  event: NotificationEvent;
  objectType: NotificationObjectType;
}

/**
 * The event an accepted operation is, or null when it notifies nobody (member operations write
 * their own), as OPERATION_RULES says. `nodeKind` is the operation's node's kind for node.*
 * operations.
 */
export function activityEventFor(body: OperationBody, nodeKind: 'file' | 'folder' | null): ActivityEvent | null {
  const rule = OPERATION_RULES[body.type].notification;
  switch (rule.kind) {
    case 'none':
      return null;
    case 'fixed':
      return { event: rule.event, objectType: rule.object };
    case 'node': {
      const event = nodeKind === 'file' ? rule.file : nodeKind === 'folder' ? rule.folder : null;
      return event ? { event, objectType: nodeKind === 'file' ? 'stack' : 'folder' } : null;
    }
    case 'reaction':
      return { event: body.type === 'memo.react' && !body.isAdded ? rule.removed : rule.added, objectType: 'memo' };
  }
}

/** Writes (or grows) the notifications of an accepted operation; records them in `ctx.notified`. */
export async function notifyVaultActivity(ctx: VaultOpContext): Promise<void> {
  const { trx, op, vault, userId, now } = ctx;
  const nodeKind = op.body.type.startsWith('node.') ? ((await findNode(trx, vault.id, op.objectId))?.kind ?? null) : null;
  const activity = activityEventFor(op.body, nodeKind === 'file' || nodeKind === 'folder' ? nodeKind : null);
  if (!activity) return;
  const recipients = await trx
    .selectFrom('memberships')
    .select('user_id')
    .where('vault_id', '=', vault.id)
    .where('status', '=', 'ACCEPTED')
    .where('role', '!=', 'REVOKED')
    .where('user_id', '!=', userId)
    .execute();
  for (const { user_id: recipientId } of recipients) {
    const latest = await trx
      .selectFrom('notifications')
      .select(['id', 'status', 'created_at'])
      .where('user_id', '=', recipientId)
      .where('vault_id', '=', vault.id)
      .where('event', '=', activity.event)
      .where('from_user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (latest && latest.status === 'UNREAD' && now - Number(latest.created_at) < COALESCE_WINDOW_MS) {
      await trx
        .updateTable('notifications')
        .set((eb) => ({ count: eb('count', '+', 1), object_id: op.objectId, updated_at: now }))
        .where('id', '=', latest.id)
        .execute();
      ctx.notified?.push({ id: latest.id, userId: recipientId, isNew: false });
      continue;
    }
    const notified = await insertNotificationRow(trx, {
      recipientId,
      vaultId: vault.id,
      event: activity.event,
      objectType: activity.objectType,
      objectId: op.objectId,
      fromUserId: userId,
      now,
    });
    ctx.notified?.push(notified);
  }
}
