/**
 * "This upload's storage transaction changed" between server processes (docs/SYNC_SPEC.md R34-R37,
 * issue 20): the relay runs in one process (the leader, RelayLeadership.ts) while the uploader's
 * sockets may be open on any other, so its status changes travel like notifications, carrying the
 * transaction itself. A lost message costs nothing durable: the storage page reloads the list
 * (GET /storage/transactions) whenever it opens and whenever the socket (re)opens.
 */
import { z } from 'zod';
import { StorageTransaction } from '../../src/protocol/arweave';
import { Id } from '../../src/protocol/primitives';
import { type ChannelBus, LocalChannelBus, wireParser } from './ChannelBus';
import { PostgresChannelBus } from './PostgresPokeBus';

export const StorageTransactionDelivery = z.object({ userId: Id, transaction: StorageTransaction });
export type StorageTransactionDelivery = z.infer<typeof StorageTransactionDelivery>;

export type StorageTransactionBus = ChannelBus<StorageTransactionDelivery>;

/** One process (SQLite, or tests). */
export class LocalStorageTransactionBus extends LocalChannelBus<StorageTransactionDelivery> {}

/** Parses a delivery from the wire (a NOTIFY payload); null when it is not one. */
export const parseStorageTransactionDelivery = wireParser(StorageTransactionDelivery);

/** The PostgreSQL channel storage-transaction changes travel on. */
export const STORAGE_TRANSACTION_CHANNEL = 'cairn_storage_transactions';

/**
 * Several processes on one PostgreSQL: LISTEN/NOTIFY. Published in order (one NOTIFY at a time):
 * unlike a poke, a status is not "the newest wins" by itself, so BUNDLED must not overtake
 * VERIFICATION on the way.
 */
export class PostgresStorageTransactionBus extends PostgresChannelBus<StorageTransactionDelivery> {
  static async connect(url: string, log: { warn(object: unknown, message?: string): void }): Promise<PostgresStorageTransactionBus> {
    const bus = new PostgresStorageTransactionBus(url, log, STORAGE_TRANSACTION_CHANNEL, parseStorageTransactionDelivery, { ordered: true });
    await bus.listen();
    return bus;
  }
}
