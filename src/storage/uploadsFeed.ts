/**
 * The uploads of an account as the upload box and a folder's pending rows show them: one read
 * shared by every view, made again when the uploads change, but at most every FEED_INTERVAL_MS.
 *
 * A live query per view read every upload record again on every write to any of them, and a pick
 * of many files writes each record several times (state, key, hashes, progress, done): the reads
 * grew with the square of the pick. 1,000 files of 10 kB took 554 s in `npm run bench`, the page's
 * main thread busy for 409 of them (docs/decisions.md).
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import type { CairnDb } from './db';
import type { UploadRecord } from './vaultRecords';

/** The least time between two reads of the uploads (progress shows at most four times a second). */
export const FEED_INTERVAL_MS = 250;

export type ReadUploads = (db: CairnDb, accountId: string) => Promise<UploadRecord[]>;

export class UploadsFeed {
  private value: UploadRecord[] | undefined;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private isReading = false;
  /** A change arrived while a read was under way: read again after it. */
  private isStale = false;
  private lastReadAt = Number.NEGATIVE_INFINITY;
  private readonly tablePrefix: string;

  constructor(
    private readonly db: CairnDb,
    private readonly accountId: string,
    private readonly read: ReadUploads,
    private readonly onError: (error: unknown) => void = (error) => console.error('Could not read the uploads', error),
  ) {
    this.tablePrefix = `idb://${db.name}/${db.uploads.name}/`;
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

  /** The uploads as last read, oldest first; undefined until the first read. */
  readonly getSnapshot = (): UploadRecord[] | undefined => this.value;

  private readonly onMutated = (parts: ObservabilitySet) => {
    if (Object.keys(parts).some((part) => part.startsWith(this.tablePrefix))) this.schedule();
  };

  private schedule(): void {
    if (this.isReading) {
      this.isStale = true;
      return;
    }
    if (this.timer) return;
    const wait = Math.max(0, this.lastReadAt + FEED_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => void this.readNow(), wait);
  }

  private async readNow(): Promise<void> {
    this.timer = null;
    if (this.listeners.size === 0) return;
    this.isReading = true;
    this.isStale = false;
    this.lastReadAt = Date.now();
    try {
      const value = await this.read(this.db, this.accountId);
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

const feeds = new WeakMap<CairnDb, Map<string, UploadsFeed>>();

/** The one feed of `accountId`'s uploads in `db`. */
export function uploadsFeedOf(db: CairnDb, accountId: string, read: ReadUploads): UploadsFeed {
  let byAccount = feeds.get(db);
  if (!byAccount) feeds.set(db, (byAccount = new Map()));
  let feed = byAccount.get(accountId);
  if (!feed) byAccount.set(accountId, (feed = new UploadsFeed(db, accountId, read)));
  return feed;
}
