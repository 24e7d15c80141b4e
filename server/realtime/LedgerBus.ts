/**
 * "Address A's U balance changed" between server processes (docs/SYNC_SPEC.md R109): a reward is
 * credited by the relay's leader and a transfer by whichever process took the request, while the
 * affected users' sockets may be open on any process. The message carries the new balance and the
 * ledger's head, so a socket is answered without a database read. A lost message costs nothing
 * durable: the client reads GET /utoken whenever the page opens and whenever its socket (re)opens.
 */
import { z } from 'zod';
import { MicroBalance } from '../../src/protocol/ledger';
import { Id } from '../../src/protocol/primitives';
import { type ChannelBus, LocalChannelBus, wireParser } from './ChannelBus';
import { PostgresChannelBus } from './PostgresPokeBus';

export const BalanceDelivery = z.object({ userId: Id, balance: MicroBalance, headSeq: z.number().int().nonnegative() });
export type BalanceDelivery = z.infer<typeof BalanceDelivery>;

export type LedgerBus = ChannelBus<BalanceDelivery>;

/** One process (SQLite, or tests). */
export class LocalLedgerBus extends LocalChannelBus<BalanceDelivery> {}

/** Parses a delivery from the wire (a NOTIFY payload); null when it is not one. */
export const parseBalanceDelivery = wireParser(BalanceDelivery);

/** The PostgreSQL channel balance changes travel on. */
export const LEDGER_CHANNEL = 'cairn_token_balances';

/**
 * Several processes on one PostgreSQL: LISTEN/NOTIFY, in order (a balance is not "the newest
 * wins" unless it arrives in the order it was written; headSeq lets a client drop a stale one).
 */
export class PostgresLedgerBus extends PostgresChannelBus<BalanceDelivery> {
  static async connect(url: string, log: { warn(object: unknown, message?: string): void }): Promise<PostgresLedgerBus> {
    const bus = new PostgresLedgerBus(url, log, LEDGER_CHANNEL, parseBalanceDelivery, { ordered: true });
    await bus.listen();
    return bus;
  }
}
