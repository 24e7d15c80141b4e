/**
 * Keeps the device's notifications in step with the server (docs/SYNC_SPEC.md R31): the list is
 * loaded on start and whenever the realtime socket (re)opens; a socket message upserts one; the
 * user's read and delete actions apply to Dexie at once and are sent in order when online. An
 * action the server refuses for good (the notification is gone: 404; read-only mode) is dropped;
 * one that could not be sent (offline, timeout) waits for the next flush.
 */
import { useSyncExternalStore } from 'react';
import { type ApiClient, NetworkError } from '../platform/apiClient';
import { ApiError } from '../protocol/errors';
import { type Notification, NOTIFICATIONS_MAX, NotificationListResponse } from '../protocol/members';
import { Ok } from '../protocol/primitives';
import type { CairnDb } from '../storage/db';
import { type NotificationAction, pendingActions, replaceNotifications, takeAction, upsertNotification } from '../storage/notificationStore';

/** How many pages a refresh loads at most (older ones stay on the server until asked for). */
const REFRESH_PAGES = 5;

export class NotificationSync {
  private flushing: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: CairnDb,
    private readonly api: ApiClient,
    private readonly accountId: string,
    private readonly log: (message: string, detail?: unknown) => void = (message, detail) => console.warn(message, detail ?? ''),
  ) {}

  stop(): void {
    this.stopped = true;
  }

  /** Sends pending actions, then reloads the list from the server. Never throws. */
  async refresh(): Promise<void> {
    await this.flush();
    if (this.stopped) return;
    try {
      const all: Notification[] = [];
      let before: string | null = null;
      let pages = 0;
      do {
        const query: string = `?limit=${NOTIFICATIONS_MAX}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
        const page = await this.api.get(`/notifications${query}`, NotificationListResponse);
        all.push(...page.notifications);
        before = page.nextCursor;
        pages += 1;
      } while (before && pages < REFRESH_PAGES);
      if (!this.stopped) await replaceNotifications(this.db, this.accountId, all, before === null);
    } catch (error) {
      if (!(error instanceof NetworkError)) this.log('The notifications could not be loaded', error);
    } finally {
      // Loaded or not (offline), what the device holds is all there is to show now.
      if (!this.stopped) setLoadAttempted(true);
    }
  }

  /** A `notification` message from the socket. */
  async receive(notification: Notification): Promise<void> {
    if (!this.stopped) await upsertNotification(this.db, this.accountId, notification);
  }

  /** Applies `action` here at once and sends it when possible. */
  async act(action: NotificationAction): Promise<void> {
    await takeAction(this.db, this.accountId, action);
    void this.flush();
  }

  /** Sends the pending actions in order; one flush at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.sendPending().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Oldest first, one at a time, re-reading the queue so an action taken meanwhile goes too. */
  private async sendPending(): Promise<void> {
    for (;;) {
      const [action] = await pendingActions(this.db, this.accountId);
      if (!action || this.stopped) return;
      try {
        await this.send(action);
      } catch (error) {
        if (error instanceof NetworkError) return;
        if (!(error instanceof ApiError)) {
          this.log('A notification change could not be sent', error);
          return;
        }
        // NOT_FOUND (already gone), READ_ONLY, ...: the server will not take it; the next refresh shows its state.
        if (error.code !== 'NOT_FOUND') this.log('The server refused a notification change', error);
      }
      await this.db.notificationActions.delete([this.accountId, action.actionId]);
    }
  }

  private async send(action: NotificationAction): Promise<void> {
    switch (action.kind) {
      case 'read':
        await this.api.patch(`/notifications/${encodeURIComponent(action.id)}`, undefined, Ok);
        return;
      case 'readVault':
        await this.api.patch(`/notifications?vaultId=${encodeURIComponent(action.vaultId)}`, undefined, Ok);
        return;
      case 'readAll':
        await this.api.patch('/notifications', undefined, Ok);
        return;
      case 'delete':
        await this.api.delete(`/notifications/${encodeURIComponent(action.id)}`, undefined, Ok);
        return;
      case 'deleteRead':
        await this.api.delete('/notifications?status=READ', undefined, Ok);
        return;
      case 'deleteAll':
        await this.api.delete('/notifications', undefined, Ok);
        return;
    }
  }
}

let current: NotificationSync | null = null;
let loadAttempted = false;
const loadListeners = new Set<() => void>();

function setLoadAttempted(value: boolean): void {
  if (loadAttempted === value) return;
  loadAttempted = value;
  for (const listener of loadListeners) listener();
}

export function setCurrentNotificationSync(sync: NotificationSync | null): void {
  current?.stop();
  current = sync;
  setLoadAttempted(false);
}

/**
 * Whether this session has tried loading the list once: until then an empty cache means "not
 * loaded yet", not "All clear".
 */
export function useNotificationsLoadAttempted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      loadListeners.add(listener);
      return () => loadListeners.delete(listener);
    },
    () => loadAttempted,
    () => loadAttempted,
  );
}

/** The signed-in session's notification sync; actions before sign-in are ignored. */
export function notificationActions(): Pick<NotificationSync, 'act'> {
  return { act: (action) => current?.act(action) ?? Promise.resolve() };
}
