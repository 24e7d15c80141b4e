/**
 * The signed-in user's notifications as this device knows them (docs/SYNC_SPEC.md R31): the
 * server's list, grown by socket messages, with the user's own read / delete actions applied at
 * once. `notificationActions` holds those actions until the server has them, so an action taken
 * offline is never lost and a refresh from the server never undoes it. Screens read through the
 * hooks here (DESIGN.md section 4: the UI reads Dexie only).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { Notification } from '../protocol/members';
import { getDb, type CairnDb } from './db';
import { useStoreAccount } from './vaultStore';

export type NotificationRecord = Notification & { accountId: string };

/** A read or delete the server has not confirmed yet: one id, one vault's, the READ ones, or all. */
export type NotificationAction =
  | { kind: 'read'; id: string }
  | { kind: 'readVault'; vaultId: string }
  | { kind: 'readAll' }
  | { kind: 'delete'; id: string }
  | { kind: 'deleteRead' }
  | { kind: 'deleteAll' };

export type NotificationActionRecord = NotificationAction & {
  accountId: string;
  /** Sorts in the order the actions were taken (queuedAt, then a counter). */
  actionId: string;
  queuedAt: number;
};

/** What `action` does to the cached notifications; null deletes the row. Pure. */
export function applyAction<T extends Notification>(action: NotificationAction, notification: T): T | null {
  switch (action.kind) {
    case 'read':
      return notification.id === action.id ? { ...notification, status: 'READ' } : notification;
    case 'readVault':
      return notification.vaultId === action.vaultId ? { ...notification, status: 'READ' } : notification;
    case 'readAll':
      return { ...notification, status: 'READ' };
    case 'delete':
      return notification.id === action.id ? null : notification;
    case 'deleteRead':
      return notification.status === 'READ' ? null : notification;
    case 'deleteAll':
      return null;
  }
}

/** Applies `actions` in order to `notifications`. Pure. */
export function applyActions<T extends Notification>(actions: NotificationAction[], notifications: T[]): T[] {
  let rows = notifications;
  for (const action of actions) rows = rows.flatMap((row) => applyAction(action, row) ?? []);
  return rows;
}

export async function pendingActions(db: CairnDb, accountId: string): Promise<NotificationActionRecord[]> {
  const rows = await db.notificationActions.where('accountId').equals(accountId).toArray();
  return rows.sort((a, b) => a.actionId.localeCompare(b.actionId));
}

let counter = 0;

/** Records `action` and applies it to the cache, in one transaction. */
export async function takeAction(db: CairnDb, accountId: string, action: NotificationAction, now = Date.now()): Promise<void> {
  counter += 1;
  const actionId = `${String(now).padStart(15, '0')}-${String(counter).padStart(6, '0')}`;
  await db.transaction('rw', [db.notifications, db.notificationActions], async () => {
    await db.notificationActions.add({ ...action, accountId, actionId, queuedAt: now } as NotificationActionRecord);
    const rows = await db.notifications.where('accountId').equals(accountId).toArray();
    for (const row of rows) {
      const next = applyAction(action, row);
      if (next === null) await db.notifications.delete([accountId, row.id]);
      else if (next !== row) await db.notifications.put(next);
    }
  });
}

/**
 * Replaces the cache with the server's list, with the actions still pending applied on top (the
 * server may not have them yet). `isComplete` false: the list is only the newest part, so older
 * cached rows stay.
 */
export async function replaceNotifications(db: CairnDb, accountId: string, notifications: Notification[], isComplete: boolean): Promise<void> {
  await db.transaction('rw', [db.notifications, db.notificationActions], async () => {
    const actions = await pendingActions(db, accountId);
    const rows = applyActions(
      actions,
      notifications.map((n) => ({ ...n, accountId })),
    );
    const oldest = notifications.at(-1)?.createdAt ?? 0;
    const stale = await db.notifications.where('accountId').equals(accountId).toArray();
    const keep = new Set(rows.map((r) => r.id));
    for (const row of stale) if (!keep.has(row.id) && (isComplete || row.createdAt >= oldest)) await db.notifications.delete([accountId, row.id]);
    await db.notifications.bulkPut(rows);
  });
}

/** A notification from the socket: new or grown. Pending actions apply to it too. */
export async function upsertNotification(db: CairnDb, accountId: string, notification: Notification): Promise<void> {
  await db.transaction('rw', [db.notifications, db.notificationActions], async () => {
    const actions = await pendingActions(db, accountId);
    const [row] = applyActions(actions, [{ ...notification, accountId }]);
    if (row) await db.notifications.put(row);
    else await db.notifications.delete([accountId, notification.id]);
  });
}

/** Newest first (createdAt, then id, as the server orders them). */
export function sortNotifications<T extends Notification>(rows: T[]): T[] {
  return [...rows].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** The cached notifications, newest first (undefined while the first read is in flight), live. */
export function useNotifications(): NotificationRecord[] | undefined {
  const accountId = useStoreAccount();
  return useLiveQuery(async () => (accountId ? sortNotifications(await getDb().notifications.where('accountId').equals(accountId).toArray()) : []), [accountId]);
}

export interface UnreadSummary {
  any: boolean;
  /** Vaults with an unread notification (the side navigation's per-vault dot). */
  vaultIds: Set<string>;
  /** The newest unread HIGH priority notification: the notice bar shows until it is read. */
  priority: NotificationRecord | null;
}

/** What the unread dots and the notice bar show. Pure; `rows` newest first. */
export function summarizeUnread(rows: NotificationRecord[]): UnreadSummary {
  const unread = rows.filter((n) => n.status === 'UNREAD');
  return {
    any: unread.length > 0,
    vaultIds: new Set(unread.flatMap((n) => (n.vaultId ? [n.vaultId] : []))),
    priority: unread.find((n) => n.priority === 'HIGH') ?? null,
  };
}

export function useUnreadNotifications(): UnreadSummary {
  return summarizeUnread(useNotifications() ?? []);
}
