/**
 * "User U has a new or grown notification" between server processes (docs/SYNC_SPEC.md R31),
 * carrying the notification itself so the receiving process sends it without a database read.
 * Like pokes, a lost message costs nothing durable: the client reloads its notifications on
 * start and whenever its socket (re)opens.
 */
import { z } from 'zod';
import { Notification } from '../../src/protocol/members';
import { Id } from '../../src/protocol/primitives';
import { type ChannelBus, LocalChannelBus, wireParser } from './ChannelBus';
import { PostgresChannelBus } from './PostgresPokeBus';

export const NotificationDelivery = z.object({ userId: Id, notification: Notification });
export type NotificationDelivery = z.infer<typeof NotificationDelivery>;

export type NotificationBus = ChannelBus<NotificationDelivery>;

/** One process (SQLite, or tests). */
export class LocalNotificationBus extends LocalChannelBus<NotificationDelivery> {}

/** Parses a delivery from the wire (a NOTIFY payload); null when it is not one. */
export const parseNotificationDelivery = wireParser(NotificationDelivery);

/** The PostgreSQL channel notifications travel on. */
export const NOTIFICATION_CHANNEL = 'cairn_notifications';

/** Several processes on one PostgreSQL: LISTEN/NOTIFY, like pokes. */
export class PostgresNotificationBus extends PostgresChannelBus<NotificationDelivery> {
  static async connect(url: string, log: { warn(object: unknown, message?: string): void }): Promise<PostgresNotificationBus> {
    const bus = new PostgresNotificationBus(url, log, NOTIFICATION_CHANNEL, parseNotificationDelivery);
    await bus.listen();
    return bus;
  }
}
