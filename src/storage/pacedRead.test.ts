/** Paced live reads (pacedRead.ts): fewer reads than writes during a burst, never stale after it. */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CairnDb } from './db';
import { PACED_INTERVAL_MS, PacedRead, SLOW_READ_GAP } from './pacedRead';
import { uploadRecordOf } from './testing/uploadRecords';
import type { UploadRecord } from './vaultRecords';
import { getUploads, uploadsFeedOf } from './vaultStore';

const ACCOUNT = 'acc1';
let db: CairnDb;
let reads: number;
let feed: PacedRead<UploadRecord[]>;

function upload(uploadId: string, sentBytes = 0): UploadRecord {
  return uploadRecordOf(ACCOUNT, uploadId, { vaultId: 'v1', sentBytes, createdAt: Number(uploadId.slice(1)) });
}

/** Resolves once the feed has told its listeners `check` holds. */
function until(check: (uploads: UploadRecord[]) => boolean): Promise<UploadRecord[]> {
  return new Promise((resolve) => {
    const unsubscribe = feed.subscribe(() => {
      const value = feed.getSnapshot();
      if (value && check(value)) {
        unsubscribe();
        resolve(value);
      }
    });
  });
}

beforeEach(async () => {
  db = new CairnDb({ indexedDB: new IDBFactory(), IDBKeyRange });
  // Opening tells every table changed (Dexie): done before, so the counts below are the feed's own.
  await db.open();
  reads = 0;
  feed = new PacedRead(db, ['uploads'], () => {
    reads += 1;
    return getUploads(db, ACCOUNT);
  });
});

afterEach(() => db.close());

describe('[R49] a paced read (the uploads feed)', () => {
  it('reads once for its first listener, then after changes, at most once per interval however many writes', async () => {
    await db.uploads.bulkAdd([upload('u1'), upload('u2')]);
    const stop = feed.subscribe(() => {});
    expect((await until((all) => all.length === 2)).map((u) => u.uploadId)).toEqual(['u1', 'u2']);
    expect(reads).toBe(1);

    const started = Date.now();
    for (let sent = 1; sent <= 40; sent++) await db.uploads.put(upload('u1', sent));
    const last = await until((all) => all[0]!.sentBytes === 40);
    expect(last[0]).toMatchObject({ uploadId: 'u1', sentBytes: 40 });
    // 40 writes, but a read only every PACED_INTERVAL_MS at most (plus the one each side).
    expect(reads - 1).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / PACED_INTERVAL_MS) + 1);
    expect(reads - 1).toBeLessThan(40);
    stop();
  });

  it('does not read for changes of other tables, and stops reading when nobody listens', async () => {
    const stop = feed.subscribe(() => {});
    await until(() => true);
    await db.outbox.clear();
    await db.nodes.clear();
    await new Promise((resolve) => setTimeout(resolve, 2 * PACED_INTERVAL_MS));
    expect(reads).toBe(1);

    stop();
    expect(feed.getSnapshot()).toBeUndefined();
    await db.uploads.add(upload('u3'));
    await new Promise((resolve) => setTimeout(resolve, 2 * PACED_INTERVAL_MS));
    expect(reads).toBe(1);
    // Looked at again: read afresh, with what changed meanwhile.
    const again = feed.subscribe(() => {});
    expect((await until((all) => all.length === 1)).map((u) => u.uploadId)).toEqual(['u3']);
    again();
  });

  it('waits after a slow read SLOW_READ_GAP times as long as it took before reading again, and still reads the last write', async () => {
    const SLOW_MS = 300;
    const starts: number[] = [];
    const ends: number[] = [];
    const slow = new PacedRead(db, ['uploads'], async () => {
      starts.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
      const value = await getUploads(db, ACCOUNT);
      ends.push(Date.now());
      return value;
    });
    let latest: UploadRecord[] | undefined;
    const stop = slow.subscribe(() => (latest = slow.getSnapshot()));
    // Writes throughout several reads: a read that ends with writes pending is followed by another.
    const writing = (async () => {
      for (let sent = 1; sent <= 30; sent++) {
        await db.uploads.put(upload('u1', sent));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await writing;
    while (latest?.[0]?.sentBytes !== 30) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(starts.length).toBeGreaterThanOrEqual(2);
    // Each read began no sooner than SLOW_READ_GAP times what the last one lasted after it ended (a few ms of timer slack).
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - ends[i - 1]!).toBeGreaterThanOrEqual(SLOW_READ_GAP * (ends[i - 1]! - starts[i - 1]!) - 20);
    stop();
  });

  it('is one feed per database and account', () => {
    expect(uploadsFeedOf(db, ACCOUNT)).toBe(uploadsFeedOf(db, ACCOUNT));
    expect(uploadsFeedOf(db, 'acc2')).not.toBe(uploadsFeedOf(db, ACCOUNT));
  });
});
