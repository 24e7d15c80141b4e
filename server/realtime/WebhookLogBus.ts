/**
 * "A webhook delivery was logged" between server processes (issue 24): the dispatcher that made
 * the attempt may run in one process while the user's sockets are open on another. The message
 * carries the log entry's id only (an entry holds up to two 4 KiB bodies, past NOTIFY's 8000-byte
 * limit); each process reads the entry back for its own sockets. A lost message costs nothing
 * durable: the Webhook tab reloads the log whenever it opens.
 */
import { z } from 'zod';
import { Id } from '../../src/protocol/primitives';
import { type ChannelBus, LocalChannelBus, wireParser } from './ChannelBus';
import { PostgresChannelBus } from './PostgresPokeBus';

export const WebhookLogDelivery = z.object({ userId: Id, logId: z.string().min(1).max(64) });
export type WebhookLogDelivery = z.infer<typeof WebhookLogDelivery>;

export type WebhookLogBus = ChannelBus<WebhookLogDelivery>;

/** One process (SQLite, or tests). */
export class LocalWebhookLogBus extends LocalChannelBus<WebhookLogDelivery> {}

export const parseWebhookLogDelivery = wireParser(WebhookLogDelivery);

/** The PostgreSQL channel webhook log entries travel on. */
export const WEBHOOK_LOG_CHANNEL = 'cairn_webhook_logs';

/** Several processes on one PostgreSQL: LISTEN/NOTIFY, in order (entries are prepended as they come). */
export class PostgresWebhookLogBus extends PostgresChannelBus<WebhookLogDelivery> {
  static async connect(url: string, log: { warn(object: unknown, message?: string): void }): Promise<PostgresWebhookLogBus> {
    const bus = new PostgresWebhookLogBus(url, log, WEBHOOK_LOG_CHANNEL, parseWebhookLogDelivery, { ordered: true });
    await bus.listen();
    return bus;
  }
}
