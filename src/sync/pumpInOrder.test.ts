import { describe, expect, it } from 'vitest';
import { pumpInOrder } from './pumpInOrder';

/** A promise with its resolve and reject, to finish produces in a chosen order. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('pumpInOrder', () => {
  it('consumes in index order whatever order the items are produced in', async () => {
    const pending = Array.from({ length: 6 }, () => deferred<string>());
    const consumed: string[] = [];
    const done = pumpInOrder({
      count: 6,
      concurrency: 6,
      window: 6,
      produce: (i) => pending[i]!.promise,
      consume: async (item) => void consumed.push(item),
    });
    for (const i of [5, 2, 4, 0, 3, 1]) {
      pending[i]!.resolve(`item ${i}`);
      await tick();
    }
    await done;
    expect(consumed).toEqual(['item 0', 'item 1', 'item 2', 'item 3', 'item 4', 'item 5']);
  });

  it('never runs more than `concurrency` produces at once', async () => {
    let running = 0;
    let peak = 0;
    await pumpInOrder({
      count: 20,
      concurrency: 3,
      window: 8,
      produce: async (i) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, (i * 7) % 5));
        running -= 1;
        return i;
      },
      consume: async () => undefined,
    });
    expect(peak).toBe(3);
  });

  it('holds at most `window` items while the consumer is slow (backpressure)', async () => {
    const started: number[] = [];
    const writes = Array.from({ length: 10 }, () => deferred<void>());
    const consumed: number[] = [];
    const done = pumpInOrder({
      count: 10,
      concurrency: 4,
      window: 4,
      produce: async (i) => {
        started.push(i);
        return i;
      },
      consume: (item) => {
        consumed.push(item);
        return writes[item]!.promise;
      },
    });
    await tick();
    // Item 0 is being written and 1-3 wait behind it: 4 items, nothing more is fetched.
    expect(consumed).toEqual([0]);
    expect(started).toEqual([0, 1, 2, 3]);
    writes[0]!.resolve();
    await tick();
    expect(consumed).toEqual([0, 1]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const write of writes) write.resolve();
    await done;
    expect(consumed).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('rejects with the first failure, consumes nothing past it and starts nothing new', async () => {
    const pending = Array.from({ length: 8 }, () => deferred<number>());
    const started: number[] = [];
    const consumed: number[] = [];
    const done = pumpInOrder({
      count: 8,
      concurrency: 2,
      window: 4,
      produce: (i) => {
        started.push(i);
        return pending[i]!.promise;
      },
      consume: async (item) => void consumed.push(item),
    });
    pending[0]!.resolve(0);
    await tick();
    pending[1]!.reject(new Error('CHUNK_TAMPERED'));
    await expect(done).rejects.toThrow('CHUNK_TAMPERED');
    // Item 2 was produced already when 1 failed: it is dropped, never consumed.
    pending[2]!.resolve(2);
    await tick();
    expect(consumed).toEqual([0]);
    expect(started).toEqual([0, 1, 2]);
  });

  it('rejects when a consume fails (the download stream was cancelled)', async () => {
    const started: number[] = [];
    const done = pumpInOrder({
      count: 50,
      concurrency: 4,
      window: 4,
      produce: async (i) => {
        started.push(i);
        return i;
      },
      consume: async (item) => {
        if (item === 2) throw new Error('STREAM_CANCELLED');
      },
    });
    await expect(done).rejects.toThrow('STREAM_CANCELLED');
    await tick();
    expect(Math.max(...started)).toBeLessThan(2 + 4);
  });

  it('stops when its signal aborts, with the signal reason', async () => {
    const abort = new AbortController();
    const started: number[] = [];
    const done = pumpInOrder({
      count: 100,
      concurrency: 2,
      window: 4,
      produce: async (i) => {
        started.push(i);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return i;
      },
      consume: async () => undefined,
      signal: abort.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 12));
    abort.abort(new Error('cancelled by the user'));
    await expect(done).rejects.toThrow('cancelled by the user');
    const count = started.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(started.length).toBe(count);
    expect(count).toBeLessThan(100);
  });

  it('resolves at once for no items, and rejects at once for an aborted signal', async () => {
    await expect(pumpInOrder({ count: 0, concurrency: 4, window: 4, produce: async () => 0, consume: async () => undefined })).resolves.toBeUndefined();
    const abort = new AbortController();
    abort.abort(new Error('too late'));
    let produced = 0;
    await expect(
      pumpInOrder({ count: 3, concurrency: 4, window: 4, produce: async () => produced++, consume: async () => undefined, signal: abort.signal }),
    ).rejects.toThrow('too late');
    expect(produced).toBe(0);
  });
});
