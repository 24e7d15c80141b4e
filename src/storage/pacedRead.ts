/**
 * Paced live reads. A Dexie live query reads again on every write to what it read, and a burst
 * of writes (a pick of many files writes each upload record several times, and makes a node per
 * file) then reads again and again what grows with the burst: the reads grow with its square.
 * 1,000 files of 10 kB took 554 s in `npm run bench`, the page's main thread busy for 409 of them
 * (docs/decisions.md). A PacedRead (docs/SYNC_SPEC.md R49) reads at once when its tables change
 * after a quiet spell, and during a burst at most every PACED_INTERVAL_MS, the last read always
 * after the last write. A read that takes long (a folder of 100,000 files during a first sync) is
 * repeated no sooner than four times as long as it lasted after it ended, so the view reads at
 * most a fifth of the time and leaves IndexedDB to the writes it follows.
 *
 * The uploads feed (vaultStore.ts) is one PacedRead per account that every view of the uploads
 * shares (the box, a folder's pending rows, each row's mark).
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import { useMemo, useSyncExternalStore } from 'react';

/** The least time between two reads during a burst of writes (four reads a second). */
export const PACED_INTERVAL_MS = 250;

/** After a read, the next waits at least this many times as long as it took (a slow read is then at most a fifth of the time). */
export const SLOW_READ_GAP = 4;

export class PacedRead<T> {
  private value: T | undefined;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private isReading = false;
  /** A change arrived while a read was under way: read again after it. */
  private isStale = false;
  private lastReadAt = Number.NEGATIVE_INFINITY;
  /** How long the last read took (ms): the next one waits at least SLOW_READ_GAP times that after it ended. */
  private lastReadMs = 0;
  private readonly tablePrefixes: string[];

  /** `read` reads the tables named in `tables` of `db` (the changes that call for a read again). */
  constructor(
    db: Dexie,
    tables: readonly string[],
    private readonly read: () => Promise<T>,
    private readonly onError: (error: unknown) => void = (error) => console.error('A live read failed', error),
  ) {
    this.tablePrefixes = tables.map((table) => `idb://${db.name}/${table}/`);
  }

  /** For useSyncExternalStore: the first listener starts the feed, the last one stops it. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      Dexie.on('storagemutated', this.onMutated);
      this.schedule();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      Dexie.on('storagemutated').unsubscribe(this.onMutated);
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      // Read afresh when someone looks again: changes made meanwhile were not followed.
      this.value = undefined;
    };
  };

  /** What was last read; undefined until the first read. */
  readonly getSnapshot = (): T | undefined => this.value;

  private readonly onMutated = (parts: ObservabilitySet) => {
    if (Object.keys(parts).some((part) => this.tablePrefixes.some((prefix) => part.startsWith(prefix)))) this.schedule();
  };

  private schedule(): void {
    if (this.isReading) {
      this.isStale = true;
      return;
    }
    if (this.timer) return;
    const wait = Math.max(0, this.lastReadAt + Math.max(PACED_INTERVAL_MS, (SLOW_READ_GAP + 1) * this.lastReadMs) - Date.now());
    this.timer = setTimeout(() => void this.readNow(), wait);
  }

  private async readNow(): Promise<void> {
    this.timer = null;
    if (this.listeners.size === 0) return;
    this.isReading = true;
    this.isStale = false;
    this.lastReadAt = Date.now();
    try {
      const value = await this.read();
      this.lastReadMs = Date.now() - this.lastReadAt;
      if (this.listeners.size === 0) return;
      this.value = value;
      for (const listener of this.listeners) listener();
    } catch (error) {
      this.onError(error);
    } finally {
      this.isReading = false;
      if (this.isStale && this.listeners.size > 0) this.schedule();
    }
  }
}

/**
 * What `create()`'s PacedRead reads, live; a new PacedRead when `key` changes (`key` stands for
 * everything `create` reads from the component, as a dependency list would).
 */
export function usePacedRead<T>(key: string, create: () => PacedRead<T>): T | undefined {
  const read = useMemo(create, [key]);
  return useSyncExternalStore(read.subscribe, read.getSnapshot);
}
