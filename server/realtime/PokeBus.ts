/**
 * "Vault X is at seq N" between server processes (DESIGN.md section 4, docs/SYNC_SPEC.md rule R3).
 * An accepted operation publishes a poke after its commit; every process subscribed to the bus
 * hears it (the publisher included) and tells its own sockets. Pokes are hints: one lost on the
 * way costs a client a poll interval, never data, because clients pull by cursor.
 */
import { type ChannelBus, LocalChannelBus } from './ChannelBus';

export interface VaultPoke {
  vaultId: string;
  seq: number;
}

export type PokeBus = ChannelBus<VaultPoke>;

/** One process (SQLite, or tests): pokes go straight to this process's listeners. */
export class LocalPokeBus extends LocalChannelBus<VaultPoke> {}

/** Parses a poke from the wire (a NOTIFY payload); null when it is not one. */
export function parsePoke(text: string): VaultPoke | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    const { vaultId, seq } = value as Record<string, unknown>;
    if (typeof vaultId !== 'string' || vaultId.length === 0 || vaultId.length > 64) return null;
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return null;
    return { vaultId, seq };
  } catch {
    return null;
  }
}
