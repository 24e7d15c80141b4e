/**
 * "Vault X is at seq N" between server processes (DESIGN.md section 4, docs/SYNC_SPEC.md rule R3).
 * An accepted operation publishes a poke after its commit; every process subscribed to the bus
 * hears it (the publisher included) and tells its own sockets. Pokes are hints: one lost on the
 * way costs a client a poll interval, never data, because clients pull by cursor.
 */
export interface VaultPoke {
  vaultId: string;
  seq: number;
}

export interface PokeBus {
  publish(poke: VaultPoke): void;
  /** Calls `listener` for every poke published by any process; answers the unsubscribe. */
  subscribe(listener: (poke: VaultPoke) => void): () => void;
  close(): Promise<void>;
  /** Readiness of a bus that depends on a connection (PostgreSQL LISTEN); absent: nothing to check. */
  check?(): Promise<void>;
}

/** One process (SQLite, or tests): pokes go straight to this process's listeners. */
export class LocalPokeBus implements PokeBus {
  private readonly listeners = new Set<(poke: VaultPoke) => void>();

  publish(poke: VaultPoke): void {
    // Not in the caller's stack: a push answers without waiting for the fan-out.
    queueMicrotask(() => {
      for (const listener of this.listeners) listener(poke);
    });
  }

  subscribe(listener: (poke: VaultPoke) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

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
