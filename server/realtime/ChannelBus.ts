/**
 * A typed message channel between the server's processes: pokes, notifications and storage
 * notices each travel on one. In one process (SQLite, tests) LocalChannelBus hands messages to
 * this process's listeners; with several processes on one PostgreSQL, PostgresChannelBus
 * (PostgresPokeBus.ts) carries them by LISTEN/NOTIFY to every process, this one included.
 */
import type { z } from 'zod';

export interface ChannelBus<T> {
  publish(message: T): void;
  /** Calls `listener` for every message published by any process; answers the unsubscribe. */
  subscribe(listener: (message: T) => void): () => void;
  close(): Promise<void>;
  /** Readiness of a bus that depends on a connection (PostgreSQL LISTEN); absent: nothing to check. */
  check?(): Promise<void>;
}

/** One process: messages go straight to this process's listeners. */
export class LocalChannelBus<T> implements ChannelBus<T> {
  private readonly listeners = new Set<(message: T) => void>();

  publish(message: T): void {
    // Not in the caller's stack: a push answers without waiting for the fan-out.
    queueMicrotask(() => {
      for (const listener of this.listeners) listener(message);
    });
  }

  subscribe(listener: (message: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

/** A parser of messages from the wire (NOTIFY payloads) by `schema`: null for anything else. */
export function wireParser<S extends z.ZodType>(schema: S): (text: string) => z.infer<S> | null {
  return (text) => {
    try {
      const result = schema.safeParse(JSON.parse(text));
      return result.success ? (result.data as z.infer<S>) : null;
    } catch {
      return null;
    }
  };
}
