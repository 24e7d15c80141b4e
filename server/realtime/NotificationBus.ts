/**
 * "User U has a new or grown notification" between server processes (docs/SYNC_SPEC.md R31),
 * carrying the notification itself so the receiving process sends it without a database read.
 * Like pokes, a lost message costs nothing durable: the client reloads its notifications on
 * start and whenever its socket (re)opens.
 */
import { z } from 'zod';
import { Notification } from '../../src/protocol/members';
import { Id } from '../../src/protocol/primitives';
import { PostgresChannelBus } from './PostgresPokeBus';

export const NotificationDelivery = z.object({ userId: Id, notification: Notification });
export type NotificationDelivery = z.infer<typeof NotificationDelivery>;

export interface NotificationBus {
  publish(delivery: NotificationDelivery): void;
  subscribe(listener: (delivery: NotificationDelivery) => void): () => void;
  close(): Promise<void>;
  /** Readiness of a bus that depends on a connection (PostgreSQL LISTEN); absent: nothing to check. */
  check?(): Promise<void>;
}

/** One process (SQLite, or tests). */
export class LocalNotificationBus implements NotificationBus {
  private readonly listeners = new Set<(delivery: NotificationDelivery) => void>();

  publish(delivery: NotificationDelivery): void {
    queueMicrotask(() => {
      for (const listener of this.listeners) listener(delivery);
    });
  }

  subscribe(listener: (delivery: NotificationDelivery) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

/** Parses a delivery from the wire (a NOTIFY payload); null when it is not one. */
export function parseNotificationDelivery(text: string): NotificationDelivery | null {
  try {
    const result = NotificationDelivery.safeParse(JSON.parse(text));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/** The PostgreSQL channel notifications travel on. */
export const NOTIFICATION_CHANNEL = 'cairn_notifications';

/** Several processes on one PostgreSQL: LISTEN/NOTIFY, like pokes. */
export class PostgresNotificationBus extends PostgresChannelBus<NotificationDelivery> implements NotificationBus {
  static async connect(url: string, log: { warn(object: unknown, message?: string): void }): Promise<PostgresNotificationBus> {
    const bus = new PostgresNotificationBus(url, log, NOTIFICATION_CHANNEL, parseNotificationDelivery);
    await bus.listen();
    return bus;
  }
}
